"""The hybrid split as JSON: the demand profile, the cheapest base and burst, the month at every base,
and bursting all of it or reserving the peak beside it; money in the quote's currency, to the cent.
Also the body `POST /api/split` reads: the quote's inputs, for the split alone."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator
from pydantic_core import PydanticCustomError

from app.costing.money import Currency
from app.costing.quote import PricedOffer
from app.quoting.build import QuoteResult
from app.quoting.out.cost import CatalogOffer, OfferNameOut, PerMillionOutputTokens, catalog_offer, money_rate
from app.quoting.params.job import Job
from app.quoting.params.quote import QuoteParams
from app.quoting.split_ways import SplitWays, Way, split_ways


class SplitIn(QuoteParams):
    """Every input of `/api/quote`, as a JSON body: an hourly profile of a month or a year is too long
    for a query string. `job` is the split's, whether sent or not."""

    job: Literal[Job.SPLIT] = Field(
        Job.SPLIT, description="split, the default: /api/quote quotes the other jobs; any other is refused"
    )

    @field_validator("job", mode="before")
    @classmethod
    def _the_split(cls, job: object) -> object:
        """Refused in words, not as the Literal's `<Job.SPLIT: 'split'>`."""
        if job != Job.SPLIT:
            raise PydanticCustomError("job_not_split", "must be split: /api/quote quotes the other jobs")
        return job


class LevelOut(BaseModel):
    """A step of the load-duration curve."""

    gpus: int = Field(description="GPUs in use")
    hours: float = Field(description="hours a month at this level, of 730")


class SplitOfferOut(OfferNameOut):
    """An offer the split runs on, named as the quote's options name theirs."""

    offer: CatalogOffer


class SplitFiguresOut(BaseModel):
    """A month carried by a base of whole units and the GPU-hours above it burst."""

    units: int = Field(description="whole units of the base offer (0: no base, all of it burst)")
    base_gpus: int = Field(description="GPUs in those units")
    base: float = Field(description="the base's units, a month")
    burst_gpu_hours: float = Field(description="GPU-hours a month billed above the base, in whole instances")
    burst: float = Field(description="those GPU-hours a month, serverless cold starts included")
    egress: float | None = Field(
        description="where the data lives: with the base's provider, or with no base the burst's; null: that "
        "provider publishes no price, and none is assumed"
    )
    storage: float | None = Field(description="as egress")
    data: float = Field(description="egress and storage a month, as the total counts them (null as 0)")
    total: float = Field(description="a month: base, burst and data; the base's setup fees are in horizon_total")
    horizon_total: float = Field(
        description="the months of the horizon (all of the base's minimum term) plus each base unit's setup fee once"
    )
    complete: bool = Field(description="false where an egress or storage price is left out (unpublished)")


class BaseAtOut(BaseModel):
    """The split's month at one base, on the best split's base and burst offers."""

    units: int
    base_gpus: int
    total: float = Field(description="a month: base, burst and data")
    horizon_total: float


class BestSplitOut(SplitFiguresOut):
    """The cheapest way, with the offers it runs on."""

    base_offer: SplitOfferOut | None = Field(
        description="the base option's offer (at `units` 0 still the one `every_base` prices); null where the "
        "filters leave no base option"
    )
    burst_offer: SplitOfferOut | None = Field(description="the burst option's offer; null where none is left")
    per_million_output_tokens: PerMillionOutputTokens


class AloneOut(SplitFiguresOut):
    """One offer carrying the whole profile."""

    offer: SplitOfferOut
    split_saves: float = Field(
        description="over the horizon, what the best split costs less than this (negative only where this one "
        "looks cheaper for leaving out an unpublished price: `complete`)"
    )
    split_saves_a_month: float = Field(description="split_saves over the horizon's months")


class SplitOut(BaseModel):
    """The hybrid split of the demand profile (DOMAIN.md, "The hybrid split"), in the quote's currency."""

    profile: list[LevelOut] = Field(description="the load-duration curve: most GPUs first")
    gpu_hours: float = Field(description="a month: the profile's GPUs x hours, what the options are quoted at")
    peak_gpus: int = Field(description="GPUs at the profile's peak")
    months: int = Field(description="the horizon the split is chosen over")
    best: BestSplitOut | None = Field(
        description="the cheapest over the horizon: of every base offer and burst offer at every base; where the "
        "filters leave no base option, bursting all of it; where no burst option, reserving the peak; null where "
        "no offer is left"
    )
    every_base: list[BaseAtOut] = Field(
        description="from no base to enough units for the peak, on the best split's offers: the total against "
        "the base; empty where best has no base and burst offer"
    )
    rule_gpus: int | None = Field(
        description="GPUs of base by the simple rule: reserve the k-th GPU when busy at least the base's price "
        "per GPU-month over 730 burst hours; null as every_base is empty"
    )
    all_burst: AloneOut | None = Field(description="all of it on the cheapest burst offer; null: none is left")
    all_reserved: AloneOut | None = Field(
        description="enough units of the cheapest base offer for the peak; null: none is left"
    )


def _offer(result: QuoteResult, p: PricedOffer) -> SplitOfferOut:
    return SplitOfferOut(**OfferNameOut.names(p.option, p.offer), offer=catalog_offer(result.catalog, p.offer.offer_id))


def _money(usd: float, cur: Currency) -> float:
    """USD in the display currency, rounded to the cent once."""
    return float(cur.cents(usd))


def _figures(way: Way, cur: Currency) -> dict[str, Any]:
    split, data_at = way.split, way.data_at

    def money(usd: float | None) -> float | None:
        return None if usd is None else _money(usd, cur)

    return {
        "units": split.units, "base_gpus": split.base_gpus, "base": money(split.base),
        "burst_gpu_hours": round(split.burst_gpu_hours, 2), "burst": money(split.burst),
        "egress": money(data_at.fixed.egress), "storage": money(data_at.fixed.storage), "data": money(split.data),
        "total": money(split.total), "horizon_total": money(split.horizon), "complete": way.complete,
    }  # fmt: skip


def _best(result: QuoteResult, ways: SplitWays) -> BestSplitOut:
    base, burst, per_million = ways.answer.base, ways.answer.burst, ways.per_million
    return BestSplitOut(
        base_offer=None if base is None else _offer(result, base),
        burst_offer=None if burst is None else _offer(result, burst),
        per_million_output_tokens=money_rate(per_million, result.currency),
        **_figures(ways.answer, result.currency),
    )  # fmt: skip


def _alone(result: QuoteResult, way: Way | None) -> AloneOut | None:
    if way is None:
        return None
    offer = way.base or way.burst
    assert offer is not None, "one offer carries it all"
    return AloneOut(
        offer=_offer(result, offer),
        split_saves=_money(way.saved, result.currency),
        split_saves_a_month=_money(way.saved_a_month, result.currency),
        **_figures(way, result.currency),
    )


def split_out(result: QuoteResult) -> SplitOut | None:
    q = result.split
    if q is None:
        return None
    cur, ways = result.currency, split_ways(result)
    return SplitOut(
        profile=[LevelOut(gpus=gpus, hours=round(hours, 2)) for gpus, hours in q.profile],
        gpu_hours=result.params.gpu_hours, peak_gpus=result.params.peak_gpus, months=q.months,
        best=None if ways is None else _best(result, ways),
        every_base=[
            BaseAtOut(units=s.units, base_gpus=s.base_gpus, total=_money(s.total, cur),
                      horizon_total=_money(s.horizon, cur))
            for s in (q.pair.splits if q.pair else ())
        ],
        rule_gpus=q.pair.rule_gpus if q.pair else None,
        all_burst=None if ways is None else _alone(result, ways.all_burst),
        all_reserved=None if ways is None else _alone(result, ways.all_reserved),
    )  # fmt: skip
