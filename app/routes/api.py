"""JSON (and CSV) API: quotes with the same numbers as the page, and the catalog itself."""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field

from app.catalog.snapshot import Catalogs, CatalogSnapshot, OfferRecord, select_offers
from app.costing.money import cents, rate
from app.costing.quote import OptionKey
from app.costing.terms import Billing, Tenancy
from app.db import CatalogsDep
from app.quote_request import VERSION_MAX, QuoteParams, QuoteResult, build_quote

router = APIRouter(prefix="/api", tags=["api"])


def unprocessable(field: str, message: str) -> HTTPException:
    return HTTPException(422, detail=[{"loc": ["query", field], "msg": message, "type": "value_error"}])


def _money(value: float | None) -> float | None:
    return None if value is None else float(cents(value))


def _option_name(option: OptionKey) -> str:
    return f"{option[0]}/{option[1]}"


class OfferOut(BaseModel):
    offer_id: int
    key: str
    provider: str
    provider_name: str
    gpu: str
    product: str
    tenancy: Tenancy
    billing: Billing
    gpus_per_unit: int
    price_usd: float
    price_period: str
    usd_per_gpu_hour: float
    min_commitment_months: int | None
    region: str
    region_country: str | None
    source_url: str
    as_of: date | None
    notes: str

    @classmethod
    def of(cls, r: OfferRecord) -> OfferOut:
        return cls(
            offer_id=r.priced.offer_id,
            key=r.key,
            provider=r.provider.slug,
            provider_name=r.provider.name,
            gpu=r.gpu,
            product=r.product,
            tenancy=r.priced.tenancy,
            billing=r.priced.billing,
            gpus_per_unit=r.priced.gpus_per_unit,
            price_usd=r.priced.price_usd,
            price_period=r.priced.period.value,
            usd_per_gpu_hour=float(rate(r.priced.usd_per_gpu_hour)),
            min_commitment_months=r.priced.min_commitment_months,
            region=r.region,
            region_country=r.region_country,
            source_url=r.source_url,
            as_of=r.as_of,
            notes=r.notes,
        )


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
    """The quote as JSON, every USD figure rounded to the cent as the page shows it."""
    q = result.quote
    return QuoteOut(
        catalog_version=result.catalog.version,
        params=result.params,
        hours_searched_up_to=q.hours_max,
        options=[
            OptionOut(
                option=_option_name(o.option),
                offer_id=o.offer.offer_id,
                provider=o.offer.provider,
                tenancy=o.offer.tenancy,
                billing=o.offer.billing,
                compute=float(cents(o.compute)),
                egress=_money(o.egress),
                storage=_money(o.storage),
                total=float(cents(o.total)),
                horizon_total=float(cents(o.horizon_total)),
                effective_per_gpu_hour=None
                if o.effective_per_gpu_hour is None
                else float(rate(o.effective_per_gpu_hour)),
                complete=o.complete,
                offer=OfferOut.of(result.catalog.offers_by_id[o.offer.offer_id]),
            )
            for o in q.options
        ],
        break_evens=[
            BreakEvenOut(
                a=_option_name(be.a),
                b=_option_name(be.b),
                crossings=[
                    CrossingOut(
                        gpu_hours=round(c.hours, 2), cheaper_above=_option_name(be.a if c.a_cheaper_after else be.b)
                    )
                    for c in be.crossings
                ],
                more=be.more,
            )
            for be in q.break_evens
        ],
    )


@router.get("/quote", response_model=QuoteOut)
def api_quote(params: Annotated[QuoteParams, Query()], catalogs: CatalogsDep) -> QuoteOut:
    """Each option's cheapest offer for the scenario, with USD per month rounded to the cent."""
    result = build_quote(catalogs, params)
    if isinstance(result, dict):
        field, message = next(iter(result.items()))
        raise unprocessable(field, message)
    return quote_out(result)


class OfferFilters(BaseModel):
    gpu: str | None = None
    tenancy: list[Tenancy] = []
    billing: list[Billing] = []
    provider: str | None = None
    region: str | None = None
    eu_only: bool = False
    exclude_us_hq: bool = False
    catalog_version: int | None = Field(None, ge=1, le=VERSION_MAX)


def _catalog(catalogs: Catalogs, version: int | None) -> CatalogSnapshot:
    found = catalogs.at(version)
    if found is None:
        raise unprocessable("catalog_version", f"there is no catalog version {version}")
    return found


def _offers(catalogs: Catalogs, f: OfferFilters) -> list[OfferOut]:
    catalog = _catalog(catalogs, f.catalog_version)
    gpus = [f.gpu] if f.gpu else list(catalog.gpus)
    records = [
        r
        for gpu in gpus
        for r in select_offers(catalog, gpu, frozenset(f.tenancy), f.region, f.eu_only, f.exclude_us_hq)
        if (not f.billing or r.priced.billing in f.billing) and (not f.provider or r.provider.slug == f.provider)
    ]
    return [OfferOut.of(r) for r in sorted(records, key=lambda r: r.priced.offer_id)]


@router.get("/offers", response_model=list[OfferOut])
def api_offers(filters: Annotated[OfferFilters, Query()], catalogs: CatalogsDep) -> list[OfferOut]:
    """The catalog's offers at a version (default: newest), filtered."""
    return _offers(catalogs, filters)


@router.get("/offers.csv", response_class=PlainTextResponse)
def api_offers_csv(filters: Annotated[OfferFilters, Query()], catalogs: CatalogsDep) -> Response:
    """The same offers as CSV, one row per offer."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(OfferOut.model_fields))
    writer.writeheader()
    for offer in _offers(catalogs, filters):
        writer.writerow(offer.model_dump(mode="json"))
    return Response(
        out.getvalue(), media_type="text/csv", headers={"Content-Disposition": "attachment; filename=offers.csv"}
    )


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


@router.get("/providers", response_model=list[ProviderOut])
def api_providers(
    catalogs: CatalogsDep, catalog_version: Annotated[int | None, Query(ge=1, le=VERSION_MAX)] = None
) -> list[ProviderOut]:
    """Providers with their egress tiers and storage price at a version (default: newest)."""
    catalog = _catalog(catalogs, catalog_version)
    return [
        ProviderOut(
            slug=p.slug,
            name=p.name,
            hq_country=p.hq_country,
            hq_source=p.hq_source,
            notes=p.notes,
            egress_tiers=[
                TierOut(
                    from_gb=t.tier.from_gb,
                    to_gb=t.tier.to_gb,
                    usd_per_gb=t.tier.usd_per_gb,
                    source=t.source,
                    as_of=t.as_of,
                    notes=t.notes,
                )
                for t in p.egress_tiers
            ],
            storage_usd_per_gb_month=p.storage_usd_per_gb_month,
            storage_source=p.storage_source,
        )
        for p in sorted(catalog.providers.values(), key=lambda p: p.slug)
    ]


@router.get("/health")
def health() -> dict[str, str]:
    """A trivial endpoint: the benchmark's yardstick for the partial."""
    return {"status": "ok"}
