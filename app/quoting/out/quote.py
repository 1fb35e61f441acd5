"""The quote as JSON: every USD figure rounded to the cent, as the page shows it."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from app.costing.quote import OfferCost
from app.quoting.build import QuoteResult
from app.quoting.choices import GpuChoice
from app.quoting.out.cost import OptionOut, ProviderBillOut
from app.quoting.out.job import JobOut, NoNumberOut
from app.quoting.out.offers import option_name
from app.quoting.out.owned import OwnedOut, owned_out
from app.quoting.out.split import SplitOut, split_out
from app.quoting.params.quote import QuoteParams
from app.quoting.per_output import per_million
from app.quoting.provider_view import ProviderView, provider_bills
from app.quoting.sizing import SizeOut, size_out


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


def _option(result: QuoteResult, o: OfferCost) -> OptionOut:
    return OptionOut.of(o, result.catalog, result.currency, per_million(result, o.total))


def _gpu_option(result: QuoteResult, choice: GpuChoice, o: OfferCost) -> GpuOptionOut:
    job = None if choice.job is None else JobOut.of(result.params.job, choice.job)
    return GpuOptionOut(gpu=choice.gpu, gpus=choice.gpus, option=_option(result, o), job=job)


def _bills(result: QuoteResult, view: ProviderView) -> list[ProviderBillOut]:
    return [ProviderBillOut.of(o, r, result.currency) for o, r in provider_bills(result, view)]


def quote_out(result: QuoteResult, view: ProviderView | None = None) -> QuoteOut:
    q = result.quote
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
        options=[_option(result, o) for o in q.options],
        cheaper_looking=None
        if q.cheaper_looking is None
        else OptionOut.of(q.cheaper_looking, result.catalog, result.currency),
        providers=None if view is None else _bills(result, view),
        sizing=None if result.sizing is None else size_out(result.sizing),
        any_gpu=[_gpu_option(result, choice, o) for choice, o in result.gpu_options],
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
