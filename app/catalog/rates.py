"""Exchange rates as catalog data: one current rate per display currency, each change a version
(rate_changes.py), so a saved scenario reads its figures at the rate of the version it was quoted at."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sqlmodel import Session, select

from app.catalog.tables import ExchangeRate, valid_at


@dataclass(frozen=True)
class RateRecord:
    currency: str
    usd_per_unit: Decimal
    source: str
    as_of: date | None
    source_kind: str
    quote: str


def rates_at(session: Session, version: int) -> dict[str, RateRecord]:
    rows = session.exec(select(ExchangeRate).where(valid_at(ExchangeRate, version)))
    return {r.currency: RateRecord(r.currency, r.usd_per_unit, r.source, r.as_of, r.source_kind, r.quote) for r in rows}
