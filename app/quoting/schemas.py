"""The quote and the catalog as JSON: every USD figure rounded to the cent, as the page shows it."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field
from sqlmodel.main import SQLModelConfig

from app.catalog.rows import OFFER_COLUMNS, OfferRow
from app.catalog.snapshot import CatalogSnapshot, OfferRecord, ProviderRecord, select_offers
from app.costing.money import cents, rate
from app.costing.quote import OptionKey
from app.costing.terms import Billing, Tenancy
from app.quoting.build import QuoteResult
from app.quoting.params import VERSION_MAX, QuoteParams


def _money(value: float | None) -> float | None:
    return None if value is None else float(cents(value))


def option_name(option: OptionKey) -> str:
    return f"{option[0]}/{option[1]}"


class OfferOut(OfferRow):
    """An offer as the catalog states it, with its id at this version and its price per GPU-hour."""

    model_config = SQLModelConfig(json_schema_serialization_defaults_required=True)  # every field is always sent

    offer_id: int
    provider_name: str
    tenancy: Tenancy
    billing: Billing
    price_usd: float  # type: ignore[assignment]  # a JSON number here; the catalog keeps the Decimal
    usd_per_gpu_hour: float

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


_BESIDE = {
    "key": ("offer_id", "key"),
    "provider": ("provider", "provider_name"),
    "price_period": ("price_period", "usd_per_gpu_hour"),
}
OFFER_OUT_COLUMNS = tuple(name for column in OFFER_COLUMNS for name in _BESIDE.get(column, (column,)))
"""The offers CSV's columns: an offer's own, in file order, with what the API adds beside each."""


class OptionOut(BaseModel):
    option: str
    offer_id: int
    provider: str
    tenancy: Tenancy
    billing: Billing
    compute: float
    egress: float | None
    storage: float | None
    total: float
    horizon_total: float
    effective_per_gpu_hour: float | None
    complete: bool
    offer: OfferOut


class CrossingOut(BaseModel):
    gpu_hours: float
    cheaper_above: str


class BreakEvenOut(BaseModel):
    a: str
    b: str
    crossings: list[CrossingOut]
    more: bool = Field(description="they cross again beyond the crossings listed")


class QuoteOut(BaseModel):
    catalog_version: int
    params: QuoteParams
    hours_searched_up_to: float
    options: list[OptionOut]
    break_evens: list[BreakEvenOut]


def quote_out(result: QuoteResult) -> QuoteOut:
    q = result.quote
    return QuoteOut(
        catalog_version=result.catalog.version,
        params=result.params,
        hours_searched_up_to=q.hours_max,
        options=[
            OptionOut(
                option=option_name(o.option),
                offer_id=o.offer.offer_id,
                provider=o.offer.provider,
                tenancy=o.offer.tenancy,
                billing=o.offer.billing,
                compute=float(cents(o.compute)),
                egress=_money(o.egress),
                storage=_money(o.storage),
                total=float(cents(o.total)),
                horizon_total=float(cents(o.horizon_total)),
                effective_per_gpu_hour=_money_rate(o.effective_per_gpu_hour),
                complete=o.complete,
                offer=OfferOut.of(result.catalog.offers_by_id[o.offer.offer_id]),
            )
            for o in q.options
        ],
        break_evens=[
            BreakEvenOut(
                a=option_name(be.a),
                b=option_name(be.b),
                crossings=[
                    CrossingOut(gpu_hours=round(c.hours, 2), cheaper_above=option_name(be.cheaper_above(c)))
                    for c in be.crossings
                ],
                more=be.more,
            )
            for be in q.break_evens
        ],
    )


def _money_rate(value: float | None) -> float | None:
    return None if value is None else float(rate(value))


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


class TierOut(BaseModel):
    from_gb: float
    to_gb: float | None
    usd_per_gb: float
    source: str
    as_of: date | None
    notes: str


class ProviderOut(BaseModel):
    slug: str
    name: str
    hq_country: str | None
    hq_source: str | None
    notes: str
    egress_tiers: list[TierOut]
    storage_usd_per_gb_month: float | None
    storage_source: str | None

    @classmethod
    def of(cls, p: ProviderRecord) -> ProviderOut:
        return cls(
            slug=p.slug,
            name=p.name,
            hq_country=p.hq_country,
            hq_source=p.hq_source,
            notes=p.notes,
            egress_tiers=[
                TierOut(from_gb=t.tier.from_gb, to_gb=t.tier.to_gb, usd_per_gb=t.tier.usd_per_gb, source=t.source,
                        as_of=t.as_of, notes=t.notes)
                for t in p.egress_tiers
            ],
            storage_usd_per_gb_month=p.storage_usd_per_gb_month,
            storage_source=p.storage_source,
        )  # fmt: skip
