"""The table of dated price points from before the catalog kept them (DOMAIN.md, "Currencies, one-off
fees, history"): what a source stated a product cost on a day. Points are facts of their day, never
replaced, so the table is not versioned; prices the catalog set since are read off its offer rows
(catalog/history.py), not copied here."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import Column, Numeric
from sqlmodel import Field, SQLModel


def _amount() -> Column[Decimal]:
    """Up to 8 decimal places, as offers' prices are kept."""
    return Column(Numeric(20, 8, asdecimal=True), nullable=False)


# One dated price of one product as a source published it, with the words it was read from.
class PricePointRow(SQLModel, table=True):
    __tablename__ = "pricepoint"

    id: int | None = Field(default=None, primary_key=True)
    gpu_model_id: int = Field(foreign_key="gpumodel.id", index=True)
    provider: str = Field(index=True)
    """The provider's slug, whether or not the catalog has it (Massed Compute, seen only through an aggregator)."""
    product: str
    region: str
    tenancy: str
    billing: str
    day: date
    per_gpu_hour: Decimal = Field(sa_column=_amount())
    """In `currency`, as the source or its stated derivation gives it."""
    price: Decimal = Field(sa_column=_amount())
    """As published: per `gpus_per_unit` GPUs and `price_period`."""
    price_period: str
    gpus_per_unit: int
    currency: str
    price_basis: str
    """A costing.history.PriceBasis: list, announced, aggregator minimum or marketplace median."""
    basis_as_published: str
    derivation: str
    source: str
    source_kind: str
    date_basis: str
    """How the source states the date, in its words."""
    quote: str
    """The source's own words, as read."""
    catalog_version: int = Field(foreign_key="catalogversion.id")
    """The shipped update that added the point."""
