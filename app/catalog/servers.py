"""Servers a buyer may own instead of renting: a configuration's purchase price and power draw as
catalog data, each with its source, versioned like a price."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from sqlmodel import Session

from app.catalog.records import Sourced, records_at
from app.catalog.server_tables import OwnedServerVersion


@dataclass(frozen=True)
class ServerRecord(Sourced):
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


def servers_at(session: Session, version: int) -> dict[str, ServerRecord]:
    """The server configurations at `version`, by key, ordered by GPU model, then price (in the
    currency each is published in), then key."""
    records = records_at(session, OwnedServerVersion, version, ServerRecord)
    return {s.key: s for s in sorted(records, key=lambda s: (s.gpu, s.price, s.key))}
