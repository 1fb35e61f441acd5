"""Servers a buyer may own instead of renting: a configuration's purchase price and power draw as
catalog data, each with its source, versioned like a price."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sqlmodel import Session, select

from app.catalog.server_tables import OwnedServerVersion
from app.catalog.tables import GpuModel, valid_at
from app.catalog.throughput import BESIDE_THE_RECORD


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


def servers_at(session: Session, version: int) -> dict[str, ServerRecord]:
    """The server configurations at `version`, by key, ordered by GPU model, then price (in the
    currency each is published in), then key."""
    gpus = {g.id: g.name for g in session.exec(select(GpuModel))}
    rows = session.exec(select(OwnedServerVersion).where(valid_at(OwnedServerVersion, version)))
    records = (ServerRecord(**s.model_dump(exclude=BESIDE_THE_RECORD), gpu=gpus[s.gpu_model_id]) for s in rows)
    return {s.key: s for s in sorted(records, key=lambda s: (s.gpu, s.price, s.key))}
