"""The table of servers a buyer may own (DOMAIN.md, "Owning the hardware"): a configuration's purchase
price and power draw, versioned like a price, so that a saved quote keeps the server it was quoted
with. Its fields are checked by server_rows.py and read as records by catalog/servers.py."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import Column, Numeric
from sqlmodel import Field

from app.catalog.tables import Provenance, Versioned, one_current_row


def _amount(nullable: bool) -> Column[Decimal]:
    """Up to 8 decimal places, as offers' prices are kept; a power of 10.2 kW needs 1."""
    return Column(Numeric(20, 8, asdecimal=True), nullable=nullable)


# One server configuration as its seller published it, in one range of catalog versions; `key` names
# it across them. A configuration retired is closed with no row after it; it stays in history.
class OwnedServerVersion(Provenance, Versioned, table=True):
    __tablename__ = "ownedserver"
    __table_args__ = (one_current_row("ownedserver"),)

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True)
    name: str
    seller: str
    gpu_model_id: int = Field(foreign_key="gpumodel.id", index=True)
    gpus: int
    """GPUs in one server."""
    price: Decimal = Field(sa_column=_amount(nullable=False))
    """The purchase price of one server, in `currency` as published."""
    currency: str
    """USD or EUR: a price whose currency is not stated is not stored."""
    power_kw: Decimal | None = Field(default=None, sa_column=_amount(nullable=True))
    """The system's maximum input power in kW; None where no source states it."""
    power_source: str = ""
    """Where the power figure was read, with its words; empty when there is none."""
    setup: Decimal | None = Field(default=None, sa_column=_amount(nullable=True))
    """A one-off cost of putting the server in service, in `currency`; None where none is stated."""
