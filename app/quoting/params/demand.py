"""Hourly GPU demand as a buyer pastes or uploads it (one hour a line, GPUs in use in its last
column): read whole or refused with the first bad line and why, never half-read."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from app.costing.jobs import HOURS_A_DAY

HOURS_MIN = 672
"""A month or more: February's 28 days."""
HOURS_MAX = 8_784
"""A leap year."""
GPUS_MAX = 10_000
"""As many GPUs at once as the calculator quotes."""
BYTES_MAX = 200_000
"""A year of hourly lines with timestamps, with room to spare."""
TOO_LARGE = f"is larger than {BYTES_MAX // 1000} KB: one hour a line, a year at most"
_CELLS = re.compile(r"[,;\t]")
_WHOLE = re.compile(r"\d{1,9}")


@lru_cache(maxsize=8)
def read_hourly(text: str, least: int = HOURS_MIN, most: int = HOURS_MAX) -> tuple[int, ...] | str:
    """GPUs in use hour by hour, or why not: the line and the reason. A first line that holds no
    number is a header; blank lines are skipped; other columns (a timestamp) are left unread. Kept for
    the last few texts: one request reads its hours in the inputs' check, the profile and the page."""
    if len(text.encode()) > BYTES_MAX:
        return TOO_LARGE
    hours: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        value = _CELLS.split(line)[-1].strip().strip('"')
        if not line.strip() or (not hours and number == 1 and not any(c.isdigit() for c in value)):
            continue
        if not _WHOLE.fullmatch(value):
            return f"line {number}: {value[:40]!r} is not a whole number of GPUs in use"
        if int(value) > GPUS_MAX:
            return f"line {number}: {int(value):,} GPUs at once, more than the {GPUS_MAX:,} quoted"
        hours.append(int(value))
    if not least <= len(hours) <= most:
        return f"holds {len(hours):,} hours: {least:,} to {most:,} are needed (a month or more, a year at most)"
    return tuple(hours)


@dataclass(frozen=True)
class Uploaded:
    """What the page and the comparison say of an uploaded profile in place of its hours."""

    hours: int
    peak: int

    def __str__(self) -> str:
        return f"{self.hours:,} hours, peak {self.peak:,} GPUs"


def uploaded(text: str) -> Uploaded | None:
    """None for no hours, or hours that read_hourly refuses (its message says why, under the input)."""
    hours = read_hourly(text) if text.strip() else None
    return Uploaded(len(hours), max(hours)) if isinstance(hours, tuple) else None


WEEK_HOURS = 168
_SEPARATORS = re.compile(r"[\s,;]+")
_AMOUNT = re.compile(r"\d{1,12}(\.\d{1,6})?")


def read_weekly(text: str) -> tuple[int, ...] | str:
    """A week's 168 hours, Monday 00:00 first, as typed in a grid (spaces, commas or lines apart), or why not."""
    values = [v for v in _SEPARATORS.split(text.strip()) if v]
    for number, value in enumerate(values, start=1):
        if not _WHOLE.fullmatch(value):
            return f"hour {number}: {value[:40]!r} is not a whole number of GPUs in use"
        if int(value) > GPUS_MAX:
            return f"hour {number}: {int(value):,} GPUs at once, more than the {GPUS_MAX:,} quoted"
    if len(values) != WEEK_HOURS:
        return f"holds {len(values)} hours: a week has {WEEK_HOURS} (7 lines of 24)"
    return tuple(int(v) for v in values)


def read_daily(text: str) -> tuple[float, ...] | str:
    """A day's traffic, 00:00 first, in any unit (requests, tokens, shares), or why not; empty: even."""
    values = [v for v in _SEPARATORS.split(text.strip()) if v]
    if not values:
        return (1.0,) * HOURS_A_DAY
    for number, value in enumerate(values, start=1):
        if not _AMOUNT.fullmatch(value):
            return f"hour {number}: {value[:40]!r} is not an amount of traffic (a number, 0 or more)"
    if len(values) != HOURS_A_DAY:
        return f"holds {len(values)} hours: a day has {HOURS_A_DAY}"
    if not any(float(v) for v in values):
        return "has no traffic in any hour"
    return tuple(float(v) for v in values)
