"""The quote as JSON: every USD figure rounded to the cent, as the page shows it."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field

from app.costing.quote import OfferCost
from app.quoting.build import QuoteResult
from app.quoting.choices import GpuChoice
from app.quoting.equal_work import Speed
from app.quoting.jobs import Basis
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


class SpeedOut(BaseModel):
    gpu: str
    per_gpu: float = Field(
        description="serving: output tokens/s per GPU at the serving job's conditions; a training run: dense "
        "TFLOPS at its precision"
    )
    unit: str
    basis: Basis
    source: str = Field(description="the benchmark's or the peak's source; for an estimate, `estimate`")

    @classmethod
    def of(cls, speed: Speed) -> SpeedOut:
        rate, peak = speed.rate, speed.peak
        benchmark = rate.benchmark if rate is not None else None
        source = peak.source if peak is not None else benchmark.source if benchmark is not None else "estimate"
        unit = "dense TFLOPS" if peak is not None else "output tokens/s per GPU"
        return cls(gpu=speed.gpu, per_gpu=round(speed.per_gpu, 3), unit=unit, basis=speed.basis, source=source)


class EqualWorkOut(BaseModel):
    gpu_hours: float = Field(description="the GPU-hours a month as stated")
    hours_gpu: SpeedOut = Field(description="the GPU model they are of, and its speed")


class GpuOptionOut(BaseModel):
    gpu: str
    gpus: int = Field(description="GPUs used at once: the least count that holds the model, or the job's")
    gpu_hours: float = Field(
        description="the GPU-hours a month it is quoted at: those stated, the job's on it, or the work of those "
        "stated converted to it"
    )
    option: OptionOut
    job: JobOut | None = Field(None, description="what the stated job takes on this GPU model")
    speed: SpeedOut | None = Field(None, description="where GPU-hours are converted: this GPU model's speed")


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
        "GPU model at its own GPU-hours for the same job, cheapest job first; for GPU-hours with a model, each at "
        "the same work (`equal_work`), cheapest first; where no GPU model has a speed to convert them by, not "
        "ranked (`any_gpu_not_ranked` says why): GPU model by GPU model in the fit table's order, those offered "
        "first, each one's options cheapest first. `params` and `options` are the first GPU model's"
    )
    any_gpu_ranked: bool = Field(
        description="true: `any_gpu` ranks GPU models against each other, on equal work (a stated job, or "
        "GPU-hours converted by speed: `equal_work`)"
    )
    equal_work: EqualWorkOut | None = Field(
        description="GPU-hours of another GPU model than quoted (any GPU, or `hours_gpu`): as stated and of which "
        "GPU model; `params.gpu_hours` and each of `any_gpu` are at the same work on their own GPU model, "
        "hours x its speed / theirs"
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
    speed = None if choice.speed is None else SpeedOut.of(choice.speed)
    return GpuOptionOut(
        gpu=choice.gpu,
        gpus=choice.gpus,
        gpu_hours=round(choice.hours, 3),
        option=_option(result, o),
        job=job,
        speed=speed,
    )


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
        equal_work=None
        if result.equal_work is None
        else EqualWorkOut(gpu_hours=result.equal_work.hours, hours_gpu=SpeedOut.of(result.equal_work.of)),
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
