"""The ECB's euro foreign exchange reference rates (eurofxref-daily.xml): USD per euro, dated the
day the ECB set it."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from app.catalog import rows as check
from app.catalog.rates import exchange_rate
from app.refresh.fetch import Fetcher, RefreshFailed


@dataclass(frozen=True)
class EcbRate:
    usd_per_eur: Decimal
    as_of: date
    url: str
    quote: str


def read_ecb(fetch: Fetcher, url: str) -> EcbRate:
    text = fetch.text(url)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as e:
        raise RefreshFailed(f"{url} did not send XML ({e})") from None
    for day in root.iter():
        if _local(day.tag) != "Cube" or "time" not in day.attrib:
            continue
        for rate in day:
            if rate.attrib.get("currency") == "USD":
                return _rate(url, day.attrib["time"], rate.attrib.get("rate", ""))
    raise RefreshFailed(f"{url} holds no USD reference rate")


def _rate(url: str, day: str, value: str) -> EcbRate:
    """Checked as an admin's typed rate is: a plausible number, dated no later than today."""
    try:
        usd = exchange_rate(value)
        as_of = check.past_day(day)
    except ValueError as e:
        raise RefreshFailed(f"{url}: the USD rate {value[:40]!r} of {day[:40]!r}: {e}") from None
    return EcbRate(usd, as_of, url, f'<Cube time="{day}"><Cube currency="USD" rate="{value}"/>')


def _local(tag: str) -> str:
    """A tag without its namespace: the ECB's file puts its Cubes in one."""
    return tag.rsplit("}", 1)[-1]
