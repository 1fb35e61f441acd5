"""Files as the app reads and writes them: CSV read whatever its line endings; values spelled as
typed (in CSV and JSON); and every CSV cell written so that a spreadsheet opens it as data, never
as a formula (every CSV the app writes goes through `csv_text`)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from app.catalog.rows import decimal_text
from app.catalog.text_rules import CONTROL_CHARACTER, FORMULA_START

SPREADSHEET_FORMULA_START = (*FORMULA_START, "\t", "\r")
"""What a spreadsheet runs as a formula, or skips to one (OWASP's list for CSV injection)."""


LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+")
"""A line and its end: LF, CRLF or a CR alone; the last may have none."""


def csv_rows(text: str) -> csv.DictReader[str]:
    """A file's rows by its header, each line ended by LF, CRLF or a CR alone (as spreadsheets on
    old Macs save CSV), a line break inside quotes kept in its field. The lines are cut from the text
    as they are read: io.StringIO would hold a copy at 4 bytes a character (34 MB for the 8 MB that
    an import may upload)."""
    return csv.DictReader(match.group() for match in LINE.finditer(text))


def line_count(text: str) -> int:
    """The lines of a file, however they end (a line break inside quotes counts as one more)."""
    return sum(1 for _ in LINE.finditer(text))


def as_text(value: Any) -> Any:
    """Decimals as plain digits (1250, not 1.25E+3) and dates as ISO text, for CSV and JSON alike."""
    if isinstance(value, Decimal):
        return decimal_text(value)
    return value.isoformat() if isinstance(value, date) else value


def spreadsheet_cell(value: Any) -> Any:
    """A number stays a number whatever its sign (-12.5 is a figure, not a formula); a text that a
    spreadsheet would run, once the control characters it may skip are dropped, is kept as text
    behind a quote."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return as_text(value)
    value = CONTROL_CHARACTER.sub("", value)
    return f"'{value}" if value.startswith(SPREADSHEET_FORMULA_START) else value


def csv_text(header: Sequence[str], rows: Iterable[Iterable[Any]]) -> str:
    """A CSV file of these rows under this header, each cell as `spreadsheet_cell` writes it."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows([spreadsheet_cell(value) for value in row] for row in rows)
    return out.getvalue()
