"""Files as the app reads them: CSV read whatever its line endings."""

from __future__ import annotations

import csv
import io


def csv_rows(text: str) -> csv.DictReader[str]:
    """A file's rows by its header, each line ended by LF, CRLF or a CR alone (as spreadsheets on
    old Macs save CSV), a line break inside quotes kept in its field."""
    return csv.DictReader(io.StringIO(text, newline=""))
