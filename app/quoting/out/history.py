"""A GPU model's price history as JSON: every dated point with its source, and the step series made of
them (app/quoting/price_series.py), as `GET /api/history` answers."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal

from pydantic import BaseModel, Field

from app.catalog.history import HistoryFilters
from app.catalog.rows import GPU_NAME, PROVIDER_SLUG
from app.costing.history import DateBasis, Move, PriceBasis, PricePoint
from app.costing.terms import Billing, Tenancy
from app.quoting.price_series import PriceSeries, price_series


class HistoryParams(BaseModel):
    """Which points of which GPU model: each filter left out takes all."""

    gpu: str = Field(description="the catalog's GPU model, e.g. H100", pattern=f"^{GPU_NAME.pattern}$")
    tenancy: list[Tenancy] = Field([], description="tenancies to keep (repeat for several)")
    billing: list[Billing] = Field([], description="billing kinds to keep (repeat for several)")
    provider: str | None = Field(None, description="a provider's slug, e.g. aws", pattern=f"^{PROVIDER_SLUG.pattern}$")
    product: str | None = Field(None, description="an instance type or plan, e.g. p5.48xlarge", max_length=200)
    region: str | None = Field(None, description="a region, e.g. us-east-1", max_length=200)

    @property
    def filters(self) -> HistoryFilters:
        return HistoryFilters(tuple(self.tenancy), tuple(self.billing), self.provider, self.product, self.region)


class PricePointOut(BaseModel):
    """One dated price of one product, per GPU-hour and as published, with where it was read."""

    gpu: str
    provider: str = Field(description="the provider's key, as the `provider` filter takes it")
    provider_name: str = Field(description="the provider's name; its key where the catalog has no such provider")
    product: str = Field(description="the instance type or plan")
    region: str
    tenancy: Tenancy
    billing: Billing
    date: datetime.date | None = Field(
        description="from this day the price holds until the product's next point; null: the source gives no "
        "date, so the price is on no step"
    )
    date_basis: DateBasis = Field(
        description="`source`: the date the source states; `as_of`: the offer's as-of date; `undated`: the source "
        "states none (the day the catalog recorded the price is not a day the price held)"
    )
    date_stated: str = Field(
        description="how the source states the date; for an undated price, which catalog version set it, and when"
    )
    per_gpu_hour: float = Field(description="in `currency` per GPU-hour")
    price: float = Field(description="as published: in `currency` per `gpus_per_unit` GPUs and `price_period`")
    price_period: str
    gpus_per_unit: int
    currency: str
    price_basis: PriceBasis = Field(
        description="`list`, `announced` (to take effect on `date`), `aggregator_minimum` (an aggregator's lowest "
        "price of the provider's configurations; may include spot) or `marketplace_median`"
    )
    basis_as_published: str = Field(description="the source's words for what the price is; empty for catalog offers")
    derivation: str = Field(description="how the price per GPU-hour was worked out from the published one, if stated")
    source: str
    source_kind: str
    quote: str = Field(description="the source's own words, as read; empty for catalog offers")
    catalog_version: int | None = Field(description="the catalog version that added the point")
    withdrawn: datetime.date | None = Field(
        description="on a product's last point, the day the catalog retired it: the price holds until then"
    )

    @classmethod
    def of(cls, p: PricePoint) -> PricePointOut:
        return cls(
            gpu=p.gpu, provider=p.provider, provider_name=p.who, product=p.product, region=p.region,
            tenancy=Tenancy(p.tenancy),
            billing=Billing(p.billing), date=p.day, date_basis=p.date_basis, date_stated=p.date_stated,
            per_gpu_hour=float(p.per_gpu_hour), price=float(p.price), price_period=p.price_period,
            gpus_per_unit=p.gpus_per_unit, currency=p.currency, price_basis=p.price_basis,
            basis_as_published=p.basis_as_published, derivation=p.derivation, source=p.source,
            source_kind=p.source_kind, quote=p.quote, catalog_version=p.catalog_version, withdrawn=p.withdrawn,
        )  # fmt: skip


def _number(amount: Decimal | None) -> float | None:
    return None if amount is None else float(amount)


class StepOut(BaseModel):
    """From `date` until the next step, of dated points only."""

    date: datetime.date
    cheapest: float | None = Field(description="the lowest provider's price per GPU-hour; null: none left")
    median: float | None = Field(
        description="the median of the providers' prices per GPU-hour (each its cheapest product); null: none left"
    )
    providers: int = Field(description="how many providers have a dated price on that day")
    entered: list[str] = Field(
        description="the providers (by name) whose first dated price this is, or first since they left"
    )
    left: list[str] = Field(description="the providers (by name) whose last product was withdrawn that day")
    cheapest_moved_by: Move | None = Field(
        description="why the cheapest moved from the step before: `price` (a price changed), `entry` (a provider "
        "entered below it), `exit` (the provider that set it left); null: it did not move, or the first step"
    )
    moved_by_provider: str | None = Field(description="the provider (by name) whose entry or exit moved the cheapest")


class SeriesOut(BaseModel):
    """One step line: one tenancy, billing kind, price basis and currency, never mixed."""

    tenancy: Tenancy
    billing: Billing
    price_basis: PriceBasis
    currency: str
    tracking_since: datetime.date | None = Field(description="the first dated point's day; null: none is dated")
    steps: list[StepOut]
    undated: int = Field(description="how many of its points have no date (listed in `points`, on no step)")

    @classmethod
    def of(cls, found: PriceSeries) -> SeriesOut:
        s = found.series
        return cls(
            tenancy=Tenancy(s.key.tenancy), billing=Billing(s.key.billing), price_basis=PriceBasis(s.key.price_basis),
            currency=s.key.currency, tracking_since=s.tracking_since, undated=len(s.undated),
            steps=[StepOut(date=n.step.day, cheapest=_number(n.step.cheapest), median=_number(n.step.median),
                           providers=n.step.providers, entered=list(n.entered), left=list(n.left),
                           cheapest_moved_by=n.step.moved_by, moved_by_provider=n.mover)
                   for n in found.steps],
        )  # fmt: skip


class HistoryOut(BaseModel):
    gpu: str
    tracking_since: datetime.date | None = Field(description="the first day of any dated point; null: none")
    series: list[SeriesOut]
    points: list[PricePointOut] = Field(description="oldest first, the undated last")

    @classmethod
    def of(cls, gpu: str, points: Sequence[PricePoint]) -> HistoryOut:
        series = price_series(points)
        return cls(
            gpu=gpu,
            tracking_since=min((s.series.tracking_since for s in series if s.series.tracking_since), default=None),
            series=[SeriesOut.of(s) for s in series],
            points=[PricePointOut.of(p) for p in points],
        )
