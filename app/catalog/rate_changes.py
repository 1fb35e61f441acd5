"""A new exchange rate: a catalog version of its own, refused if the rate changed since the form."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import update
from sqlmodel import Session, col

from app.catalog.changes import StaleRecord, commit_change, new_version
from app.catalog.rates import last_rate_change
from app.catalog.tables import ExchangeRate, Provenance


def change_rate(
    session: Session, currency: str, usd_per_unit: Decimal, provenance: Provenance, note: str, who: str,
    based_on: int | None = None,
) -> int:  # fmt: skip
    """The rate of `currency` from a new version on. StaleRecord if it changed since `based_on`."""
    version = new_version(session, note, who, f"exchange rate {currency}")
    if based_on is not None and last_rate_change(session, currency) != based_on:
        session.rollback()
        raise StaleRecord("changed by someone else since it was opened")
    session.execute(
        update(ExchangeRate)
        .where(col(ExchangeRate.currency) == currency, col(ExchangeRate.valid_to).is_(None))
        .values(valid_to=version)
    )
    session.add(
        ExchangeRate(currency=currency, usd_per_unit=usd_per_unit, valid_from=version, **provenance.model_dump())
    )
    commit_change(session)
    return version
