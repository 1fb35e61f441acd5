"""What text the catalog and saved scenarios take: no control character, so that both backends
store what was checked, and (in names and labels) no spreadsheet formula first."""

from __future__ import annotations

import re

FORMULA_START = ("=", "+", "-", "@")
"""A text starting so is a formula to a spreadsheet: refused, so exports open safely."""
CONTROL_CHARACTERS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
"""Unicode's control characters but tab and line breaks, as a regular expression's character range:
refused in text. PostgreSQL cannot store NUL (the app drops it there, SQLite keeps it), and a
spreadsheet may skip one before a formula."""
CONTROL_CHARACTER = re.compile(f"[{CONTROL_CHARACTERS}]")


def plain_text(value: str) -> str:
    """Text stored as typed on both backends, and checked as a spreadsheet will read it."""
    if CONTROL_CHARACTER.search(value):
        raise ValueError("may not hold control characters such as NUL")
    return value
