"""The currency a quote shows money in, at the rate of the catalog version quoted."""

from __future__ import annotations

from app.catalog.rates import RateRecord
from app.catalog.snapshot import CatalogSnapshot
from app.costing.money import SYMBOLS, USD, Currency
from app.quoting.params.quote import FieldErrors


def display_currency(catalog: CatalogSnapshot, code: str) -> tuple[Currency, RateRecord | None] | FieldErrors:
    """The currency money is shown in, at the version's rate (None for USD, the prices' own)."""
    rate = catalog.rates.get(code)
    if code != USD.code and rate is None:
        return {"currency": f"has no exchange rate in {catalog.price_list} yet (an admin adds the ECB's)"}
    return USD if rate is None else Currency(rate.currency, SYMBOLS[rate.currency], float(rate.usd_per_unit)), rate
