"""Exchange rates as catalog data: one current rate per display currency, each change a version
(rate_changes.py), so a saved scenario reads its figures at the rate of the version it was quoted at."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sqlmodel import Session, select

from app.catalog.rows import price
from app.catalog.tables import ExchangeRate, valid_at
from app.costing.money import USD


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


def exchange_rate(text: str) -> Decimal:
    """USD for one unit of a display currency, as the ECB quotes it (1 EUR = 1.1664 USD)."""
    amount = price(text)
    if not Decimal("0.01") <= amount <= Decimal(100):
        raise ValueError("must be USD for one unit, between 0.01 and 100 (e.g. 1.1664)")
    return amount


def usd_per_unit(currency: str, rates: Mapping[str, RateRecord]) -> float | None:
    """What one unit of a price's currency is in USD at a version; None where the source states no
    currency or the version holds no rate for it: such a price is listed, never quoted."""
    if currency == USD.code:
        return 1.0
    found = rates.get(currency)
    return None if found is None else float(found.usd_per_unit)
