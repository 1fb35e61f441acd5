"""A new exchange rate: a catalog version of its own, refused if the rate changed since the form."""

from __future__ import annotations

from decimal import Decimal

from sqlmodel import Session

from app.catalog.changes import Change, replace_record
from app.catalog.tables import ExchangeRate, Provenance


def change_rate(session: Session, currency: str, usd_per_unit: Decimal, provenance: Provenance, change: Change) -> int:
    """The rate of `currency` from a new version on. StaleRecord if it changed since `change.based_on`."""
    record = f"exchange rate {currency}"
    return replace_record(session, ExchangeRate, "currency", currency, record, change, provenance,
                          [{"usd_per_unit": usd_per_unit}])  # fmt: skip
