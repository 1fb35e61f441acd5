"""Prices refreshed from public sources: each source is fetched and read into offer rows, which are
then planned like a CSV import (a preview, a report of malformed rows, one catalog version or none)."""
