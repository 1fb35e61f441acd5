"""How old a price is: the one place its age is counted, said, and checked against "dated within N days".

Ages count to `today()`, which tests pin by replacing it (`monkeypatch.setattr(ages, "today", ...)`): every
caller asks this module for the day, never the clock.
"""

from __future__ import annotations

from datetime import date, timedelta

STALE_DAYS = 90
"""A price older than this, or undated, is one the headline warns the answer rests on."""
UNDATED = "undated"


def today() -> date:
    """The day prices' ages are counted to."""
    return date.today()


def age_days(as_of: date | None, on: date | None = None) -> int | None:
    """Whole days from the price's as-of date to `on` (default today); None where its source gives no date."""
    return None if as_of is None else ((on or today()) - as_of).days


def age_said(as_of: date | None, on: date | None = None) -> str:
    """The age as a page says it: "as of 2026-11-30, 6 days old", or "undated" where its source gives no date."""
    days = age_days(as_of, on)
    if as_of is None or days is None:
        return UNDATED
    return f"as of {as_of:%Y-%m-%d}, {days:,} day{'' if days == 1 else 's'} old"


def dated_since(within_days: int | None, on: date | None = None) -> date | None:
    """The earliest as-of date "only prices dated within N days" lets pass; None where no such filter is set."""
    return None if within_days is None else (on or today()) - timedelta(days=within_days)


def dated_from(as_of: date | None, since: date | None) -> bool:
    """Whether a price passes "dated since": any does where none is asked; an undated one never does."""
    return since is None or (as_of is not None and as_of >= since)


def rests_on_said(as_of: date | None, whose: str = "its", on: date | None = None) -> str:
    """What a headline adds where its answer rests on an undated price or one older than STALE_DAYS; ""
    where the price is recent enough to go unremarked. `whose`: the price's owner as the headline names it."""
    days = age_days(as_of, on)
    if days is None:
        return f"{whose} price is undated: check it with the provider before you sign"
    return f"{whose} price is {days:,} days old" if days > STALE_DAYS else ""
