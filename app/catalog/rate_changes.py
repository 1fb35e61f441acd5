"""A new exchange rate: a catalog version of its own, refused if the rate changed since the form."""

from __future__ import annotations

from decimal import Decimal

from sqlmodel import Session

from app.catalog.changes import commit_change, replace_current
from app.catalog.tables import ExchangeRate, Provenance


def change_rate(
    session: Session, currency: str, usd_per_unit: Decimal, provenance: Provenance, note: str, who: str,
    based_on: int | None = None,
) -> int:  # fmt: skip
    """The rate of `currency` from a new version on. StaleRecord if it changed since `based_on`."""
    version, _ = replace_current(
        session, ExchangeRate, "currency", currency, f"exchange rate {currency}", note, who, based_on
    )
    session.add(
        ExchangeRate(currency=currency, usd_per_unit=usd_per_unit, valid_from=version, **provenance.model_dump())
    )
    commit_change(session)
    return version
