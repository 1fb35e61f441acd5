"""The quote as JSON: every USD figure rounded to the cent, as the page shows it."""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import BaseModel, Field

from app.catalog.snapshot import CatalogSnapshot, OfferRecord
from app.costing.jobs import per_million_tokens
from app.costing.money import Currency, cents, rate
from app.costing.owning import OWNED_OFFER_ID
from app.costing.quote import OfferCost
from app.costing.terms import Billing, Tenancy
from app.quoting.build import QuoteResult
from app.quoting.choices import GpuChoice
from app.quoting.job_schemas import JobOut, NoNumberOut
from app.quoting.offer_schemas import OfferOut, option_name
from app.quoting.owned_schemas import OwnedOut, owned_out
from app.quoting.params import QuoteParams
from app.quoting.provider_view import ProviderView
from app.quoting.sizing import SizeOut, size_out
from app.quoting.split_schemas import SplitOut, split_out


def _money(usd: float | None, currency: Currency) -> float | None:
    """USD in the display currency, rounded to the cent once."""
    return None if usd is None else float(cents(currency.of(usd)))


def _money_rate(usd: float | None, currency: Currency) -> float | None:
    return None if usd is None else float(rate(currency.of(usd)))


class CostOut(BaseModel):
    """One offer's cost for the workload a month of the horizon, part by part, in the display currency."""

    option: str
    offer_id: int
    provider: str
    tenancy: Tenancy
    billing: Billing
    compute: float = Field(description="a month of the horizon: a minimum term longer than the horizon billed whole")
    egress: float | None = Field(description="null: the provider publishes no price for it, and none is assumed")
    storage: float | None = Field(description="null: the provider publishes no price for it, and none is assumed")
    total: float = Field(
        description="a month of the horizon (what options are ranked by), a minimum term longer than the horizon "
        "billed whole, without the setup fee; without egress or storage where null"
    )
    term_months: int | None = Field(
        description="the months of a minimum term longer than the horizon, billed whole; null where it fits"
    )
    month_as_billed: float = Field(description="a month of compute as the offer bills it: the term's monthly share")
    virtualization_tax: float = Field(
        description="of compute, what the virtualization tax assumed adds: hours lost, or whole units more"
    )
    cold_starts: float = Field(description="of compute, what the serverless cold starts assumed add")
    setup_fee: float = Field(description="charged once: in horizon_total, not in the month's total")
    horizon_total: float = Field(
        description="the months of the horizon (all of a minimum commitment's compute) plus the setup fee once"
    )
    effective_per_gpu_hour: float | None
    complete: bool = Field(description="false where egress or storage is left out of the total (null above)")
    assumed: list[str] = Field(description="egress and/or storage priced in part at the assumed price you set")

    @staticmethod
    def figures(o: OfferCost, currency: Currency) -> dict[str, Any]:
        return {
            "option": option_name(o.option),
            "offer_id": o.offer.offer_id,
            "provider": o.offer.provider,
            "tenancy": o.offer.tenancy,
            "billing": o.offer.billing,
            "compute": float(cents(currency.of(o.compute))),
            "egress": _money(o.egress, currency),
            "storage": _money(o.storage, currency),
            "total": float(cents(currency.of(o.total))),
            "term_months": o.term_past_horizon,
            "month_as_billed": float(cents(currency.of(o.billed_month))),
            "virtualization_tax": float(cents(currency.of(o.tax_usd))),
            "cold_starts": float(cents(currency.of(o.cold_start_usd))),
            "setup_fee": float(cents(currency.of(o.offer.setup_fee_usd))),
            "horizon_total": float(o.horizon_in(currency)),
            "effective_per_gpu_hour": _money_rate(o.effective_per_gpu_hour, currency),
            "complete": o.complete,
            "assumed": list(o.assumed),
        }


class OptionOut(CostOut):
    per_million_output_tokens: float | None = Field(
        None, description="a serving job's month divided by its millions of output tokens"
    )
    offer: OfferOut | None = Field(
        description="the catalog's offer; null for the server owned (`owned` says what it is)"
    )

    @classmethod
    def of(
        cls, o: OfferCost, catalog: CatalogSnapshot, currency: Currency, output_tokens: float | None = None
    ) -> OptionOut:
        """`output_tokens`: a serving job's a month, for the cost per million of them."""
        per_million = None if output_tokens is None else per_million_tokens(o.total, output_tokens)
        return cls(
            **cls.figures(o, currency),
            per_million_output_tokens=_money_rate(per_million, currency),
            offer=None if o.offer.offer_id == OWNED_OFFER_ID else OfferOut.at(catalog, o.offer.offer_id),
        )


class ProviderBillOut(CostOut):
    """A provider's cheapest offer for the workload: its product and key (`offer=` prices it alone)."""

    product: str
    offer_key: str

    @classmethod
    def of(cls, o: OfferCost, record: OfferRecord, currency: Currency) -> ProviderBillOut:
        return cls(**cls.figures(o, currency), product=record.row.product, offer_key=record.row.key)


class ExchangeRateOut(BaseModel):
    currency: str
    usd_per_unit: float = Field(description="USD for one unit of the display currency")
    source: str
    as_of: date | None
    source_kind: str


class CrossingOut(BaseModel):
    gpu_hours: float
    cheaper_above: str


class BreakEvenOut(BaseModel):
    a: str
    b: str
    crossings: list[CrossingOut]
    more: bool = Field(description="they cross again beyond the crossings listed")


class GpuOptionOut(BaseModel):
    gpu: str
    gpus: int = Field(description="GPUs used at once: the least count that holds the model, or the job's")
    option: OptionOut
    job: JobOut | None = Field(None, description="what the stated job takes on this GPU model")


class QuoteOut(BaseModel):
    catalog_version: int
    currency: str = Field(description="of every money figure below; offers' own prices stay as published")
    exchange_rate: ExchangeRateOut | None = Field(description="the rate used, where the currency is not USD")
    catalog_prices: int = Field(description="offers in this catalog version")
    catalog_prices_undated: int = Field(description="of those, prices whose source states no as-of date")
    params: QuoteParams
    hours_searched_up_to: float = Field(
        description="GPU-hours a month the break-evens are searched to, the chart's right end: past twice the "
        "GPU-hours, and all the GPUs at once and any server owned busy all month"
    )
    options: list[OptionOut]
    cheaper_looking: OptionOut | None = Field(
        description="an offer that looks cheaper than the first option only because it leaves out a cost its "
        "provider does not publish"
    )
    break_evens: list[BreakEvenOut]
    providers: list[ProviderBillOut] | None = Field(
        description="asked for with `providers=<column>` (null otherwise): each provider's cheapest offer for the "
        "workload at its GPU-hours, whatever the option, sorted by that column (`total`: those with every part "
        "published first, as the options are ranked; a price nobody publishes sorts last): what egress and "
        "storage add at each provider"
    )
    sizing: SizeOut | None = Field(description="the model's memory and fit, where one is given")
    any_gpu: list[GpuOptionOut] = Field(
        description="asked for any GPU that fits: every GPU model's options at its fit. For a stated job, each "
        "GPU model at its own GPU-hours for the same job, cheapest job first; for GPU-hours, not ranked across "
        "GPU models (`any_gpu_not_ranked` says why): GPU model by GPU model in the fit table's order, those "
        "offered first, each one's options cheapest first. `params` and `options` are the first GPU model's"
    )
    any_gpu_ranked: bool = Field(
        description="true: `any_gpu` ranks GPU models against each other, on equal work (a stated job)"
    )
    any_gpu_not_ranked: str | None = Field(
        description="why `any_gpu` lists GPU models side by side without ranking them; null where it ranks "
        "them or lists none"
    )
    job: JobOut | None = Field(description="what the stated job takes on the quoted GPU model; null for GPU-hours")
    raised_gpus_at_once: int | None = Field(
        description="the GPUs at once an instance rented by the hour runs where the GPU-hours need more than "
        "peak_gpus can run (730 hours a GPU a month); null where they do not"
    )
    no_number: list[NoNumberOut] = Field(
        description="GPU models that hold the model but have no benchmark (or peak) for the job, and why: unranked"
    )
    owned: OwnedOut | None = Field(description="the server owned, where `own_server` chose one and it is quoted")
    split: SplitOut | None = Field(description="the hybrid split of the demand profile, for job split; null otherwise")


def _gpu_option(result: QuoteResult, choice: GpuChoice, o: OfferCost, tokens: float | None) -> GpuOptionOut:
    job = None if choice.job is None else JobOut.of(result.params.job, choice.job)
    option = OptionOut.of(o, result.catalog, result.currency, tokens)
    return GpuOptionOut(gpu=choice.gpu, gpus=choice.gpus, option=option, job=job)


def _bills(result: QuoteResult, view: ProviderView) -> list[ProviderBillOut]:
    bills = view.sorted([(o, result.catalog.offers_by_id[o.offer.offer_id]) for o in result.providers])
    return [ProviderBillOut.of(o, r, result.currency) for o, r in bills]


def quote_out(result: QuoteResult, view: ProviderView | None = None) -> QuoteOut:
    q = result.quote
    tokens = result.params.output_tokens if result.job is not None and result.job.serving else None
    return QuoteOut(
        catalog_version=result.catalog.version,
        currency=result.currency.code,
        exchange_rate=None
        if result.rate is None
        else ExchangeRateOut(
            currency=result.rate.currency,
            usd_per_unit=float(result.rate.usd_per_unit),
            source=result.rate.source,
            as_of=result.rate.as_of,
            source_kind=result.rate.source_kind,
        ),
        catalog_prices=len(result.catalog.listed),
        catalog_prices_undated=result.catalog.undated,
        params=result.params,
        hours_searched_up_to=q.hours_max,
        options=[OptionOut.of(o, result.catalog, result.currency, tokens) for o in q.options],
        cheaper_looking=None
        if q.cheaper_looking is None
        else OptionOut.of(q.cheaper_looking, result.catalog, result.currency),
        providers=None if view is None else _bills(result, view),
        sizing=None if result.sizing is None else size_out(result.sizing),
        any_gpu=[_gpu_option(result, choice, o, tokens) for choice, o in result.gpu_options],
        any_gpu_ranked=bool(result.choices) and result.not_ranked_why is None,
        any_gpu_not_ranked=result.not_ranked_why,
        job=None if result.job is None else JobOut.of(result.params.job, result.job),
        raised_gpus_at_once=result.raised_at_once,
        no_number=[NoNumberOut(gpu=u.gpu, field=u.field, reason=u.reason) for u in result.unmatched],
        owned=owned_out(result, {o.option: option_name(o.option) for o in q.options}),
        split=split_out(result),
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
