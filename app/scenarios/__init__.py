"""Saved scenarios: a calculator's inputs pinned to the catalog version their numbers came from."""
