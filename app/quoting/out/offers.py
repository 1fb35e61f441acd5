"""The catalog's offers as JSON and CSV: each as the catalog states it, with what the API adds."""

from __future__ import annotations

from pydantic import BaseModel, Field
from sqlmodel.main import SQLModelConfig

from app.catalog.rows import OFFER_COLUMNS, OfferRow
from app.catalog.selection import select_offers
from app.catalog.snapshot import CatalogSnapshot, OfferRecord
from app.costing.money import rate
from app.costing.quote import OptionKey
from app.costing.terms import Billing, Tenancy
from app.quoting.params.quote import VERSION_MAX


class OfferOut(OfferRow):
    """An offer as the catalog states it, with its id at this version and its price per GPU-hour."""

    model_config = SQLModelConfig(json_schema_serialization_defaults_required=True)  # every field is always sent

    offer_id: int
    provider_name: str
    tenancy: Tenancy
    billing: Billing
    price: float = Field(description="per unit and price_period, in `currency`, as published")  # type: ignore[assignment]
    ram_gib: float | None  # type: ignore[assignment]
    setup_fee: float | None = Field(description="charged once, in `currency`; null: none stated")  # type: ignore[assignment]
    usd_per_gpu_hour: float = Field(description="in USD at this catalog version's rate, whatever `currency` is")

    @classmethod
    def of(cls, r: OfferRecord) -> OfferOut:
        return cls.model_validate(
            r.row.model_dump()
            | {
                "offer_id": r.priced.offer_id,
                "provider_name": r.provider.name,
                "usd_per_gpu_hour": float(rate(r.priced.usd_per_gpu_hour)),
            }
        )

    @classmethod
    def at(cls, catalog: CatalogSnapshot, offer_id: int) -> OfferOut:
        """An offer of a catalog version as the API states it, worked out once per version: each
        quote names a few offers, and a version's offers never change."""
        return catalog.derived.memo(("offer out", offer_id), lambda: cls.of(catalog.offers_by_id[offer_id]))


def option_name(option: OptionKey) -> str:
    """An option as the API names it: `tenancy/billing`."""
    return f"{option[0]}/{option[1]}"


_BESIDE = {
    "key": ("offer_id", "key"),
    "provider": ("provider", "provider_name"),
    "price_period": ("price_period", "usd_per_gpu_hour"),
}
OFFER_OUT_COLUMNS = tuple(name for column in OFFER_COLUMNS for name in _BESIDE.get(column, (column,)))
"""The offers CSV's columns: an offer's own, in file order, with what the API adds beside each."""


class OfferFilters(BaseModel):
    gpu: str | None = None
    tenancy: list[Tenancy] = []
    billing: list[Billing] = []
    provider: str | None = None
    region: str | None = None
    eu_only: bool = False
    exclude_us_hq: bool = False
    catalog_version: int | None = Field(None, ge=1, le=VERSION_MAX)


def offers_matching(catalog: CatalogSnapshot, f: OfferFilters) -> list[OfferOut]:
    gpus = [f.gpu] if f.gpu else list(catalog.gpus)
    records = [
        r
        for gpu in gpus
        for r in select_offers(catalog, gpu, frozenset(f.tenancy), f.region, f.eu_only, f.exclude_us_hq)
        if (not f.billing or r.priced.billing in f.billing) and (not f.provider or r.provider.slug == f.provider)
    ]
    return [OfferOut.of(r) for r in sorted(records, key=lambda r: r.priced.offer_id)]
