"""The ECB's euro foreign exchange reference rates (eurofxref-daily.xml): USD per euro, dated the
day the ECB set it."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

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
    try:
        usd = Decimal(value)
        as_of = date.fromisoformat(day)
    except (InvalidOperation, ValueError):
        raise RefreshFailed(f"{url}: the USD rate {value!r} of {day!r} is not a number and a date") from None
    if not usd.is_finite() or not Decimal("0.01") <= usd <= Decimal(100):
        raise RefreshFailed(f"{url}: 1 EUR = {value} USD is not a plausible rate")
    return EcbRate(usd, as_of, url, f'<Cube time="{day}"><Cube currency="USD" rate="{value}"/>')


def _local(tag: str) -> str:
    """A tag without its namespace: the ECB's file puts its Cubes in one."""
    return tag.rsplit("}", 1)[-1]
