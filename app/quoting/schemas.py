"""The quote and the catalog as JSON: every USD figure rounded to the cent, as the page shows it."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date

from pydantic import BaseModel, Field
from sqlmodel.main import SQLModelConfig

from app.catalog.provider_facts import ProviderRecord, TierRecord
from app.catalog.rows import OFFER_COLUMNS, OfferRow
from app.catalog.snapshot import CatalogSnapshot, OfferRecord, select_offers
from app.costing.money import cents, rate
from app.costing.quote import OfferCost, OptionKey
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
    assumed: list[str] = Field(description="egress and/or storage priced in part at the assumed price you set")
    offer: OfferOut

    @classmethod
    def of(cls, o: OfferCost, catalog: CatalogSnapshot) -> OptionOut:
        return cls(
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
            assumed=list(o.assumed),
            offer=OfferOut.of(catalog.offers_by_id[o.offer.offer_id]),
        )


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
    catalog_prices: int = Field(description="offers in this catalog version")
    catalog_prices_undated: int = Field(description="of those, prices whose source states no as-of date")
    params: QuoteParams
    hours_searched_up_to: float
    options: list[OptionOut]
    cheaper_looking: OptionOut | None = Field(
        description="an offer that looks cheaper than the first option only because it leaves out a cost its "
        "provider does not publish"
    )
    break_evens: list[BreakEvenOut]


def quote_out(result: QuoteResult) -> QuoteOut:
    q = result.quote
    return QuoteOut(
        catalog_version=result.catalog.version,
        catalog_prices=len(result.catalog.offers),
        catalog_prices_undated=result.catalog.undated,
        params=result.params,
        hours_searched_up_to=q.hours_max,
        options=[OptionOut.of(o, result.catalog) for o in q.options],
        cheaper_looking=None if q.cheaper_looking is None else OptionOut.of(q.cheaper_looking, result.catalog),
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


class Sourced(BaseModel):
    source: str | None
    as_of: date | None = Field(description="as the source dates it; null where it states no date")
    source_kind: str = Field(
        description="official, transcription (a copy of the provider's page), third_party or empty"
    )
    quote: str = Field(description="the source's own words, as read")
    notes: str


class TierOut(Sourced):
    from_gb: float
    to_gb: float | None = Field(description="null: no end; past a tier with an end no price is published")
    usd_per_gb: float = Field(description="per GB of egress, or per GB-month of storage")

    @classmethod
    def of(cls, t: TierRecord) -> TierOut:
        return cls(from_gb=t.tier.from_gb, to_gb=t.tier.to_gb, usd_per_gb=t.tier.usd_per_gb, source=t.source,
                   as_of=t.as_of, source_kind=t.source_kind, quote=t.quote, notes=t.notes)  # fmt: skip


class StorageOut(BaseModel):
    kind: str = Field(description="block_volume or shared_filesystem: where GPU users keep checkpoints")
    product: str
    tiers: list[TierOut]


class HeadquartersOut(Sourced):
    country: str | None


class ProviderOut(BaseModel):
    slug: str
    name: str
    notes: str
    headquarters: HeadquartersOut | None
    egress_tiers: list[TierOut] = Field(description="empty: no published egress price")
    storage: StorageOut | None = Field(description="null: no published storage price")

    @classmethod
    def of(cls, p: ProviderRecord) -> ProviderOut:
        hq = p.headquarters
        return cls(
            slug=p.slug,
            name=p.name,
            notes=p.notes,
            headquarters=None if hq is None else HeadquartersOut(**asdict(hq)),
            egress_tiers=[TierOut.of(t) for t in p.egress_tiers],
            storage=None
            if p.storage is None
            else StorageOut(
                kind=p.storage.kind, product=p.storage.product, tiers=[TierOut.of(t) for t in p.storage.tiers]
            ),
        )
