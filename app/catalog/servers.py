"""Servers a buyer may own instead of renting: a configuration's purchase price and power draw as
catalog data, each with its source, versioned like a price."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class ServerRecord:
    """One server configuration as published: its GPUs, its price in the currency it was published in
    (a reseller's list or archived price, not a transaction price), and its power where a source states it."""

    key: str
    name: str
    seller: str
    gpu: str
    gpus: int
    price: Decimal
    currency: str
    power_kw: Decimal | None
    """The system's maximum input power; None where no source states it (the buyer types it)."""
    power_source: str
    setup: Decimal | None
    """A one-off cost of putting the server in service (installation, cabling), in `currency`."""
    source: str
    as_of: date | None
    source_kind: str
    quote: str
    notes: str
