"""The hybrid split of a demand profile over a GPU model's offers: the pair of a base option and a burst
option, and the base on it, that cost least over the horizon; beside it, bursting all of it and
reserving the peak, each on its own cheapest offer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.costing.hybrid import (
    Burst,
    Capacity,
    Profile,
    Split,
    hourly_profile,
    peak,
    rule_of_thumb,
    rule_threshold,
    simple_profile,
    units_for_peak,
)
from app.costing.quote import PricedOffer
from app.costing.terms import Assumptions, Billing, Tenancy
from app.quoting.fitted import Fitted
from app.quoting.jobs import JobFit
from app.quoting.params.demand import read_hourly, read_weekly
from app.quoting.params.quote import FieldErrors, QuoteParams
from app.quoting.params.split import SPLIT_GPUS_MAX, SplitParams
from app.quoting.split_search import PricedSplits, cheapest_with_base, rank

BASE_BILLINGS = (Billing.MONTHLY, Billing.COMMITTED, Billing.PURCHASED)
BURST_BILLINGS = (Billing.ON_DEMAND, Billing.SPOT, Billing.PER_SECOND)


def profiled(params: QuoteParams) -> tuple[QuoteParams, Profile | None] | FieldErrors:
    """The demand profile, and the inputs with its GPU-hours and GPUs at once: what quoting every
    option alone, beside the split, reads. None for a serving job's: its model's fit on each GPU sets
    them (`served`)."""
    if params.split_base == "purchased" and not params.own_server:
        return {"split_base": "is servers you own: choose one under Owning the hardware"}
    if params.demand == "serving":
        return params, None
    profile = demand_profile(params)
    if isinstance(profile, dict):
        return profile
    field = {"weekly": "weekly", "hourly": "hourly_key"}.get(params.demand, "peak_hours")
    if peak(profile) == 0:
        return {field: "leaves no GPU in use all month: there is nothing to split"}
    if peak(profile) > SPLIT_GPUS_MAX:
        return {field: f"reaches {peak(profile):,} GPUs at once: the split prices up to {SPLIT_GPUS_MAX:,}"}
    hours = sum(gpus * at for gpus, at in profile)
    return params.model_copy(update={"gpu_hours": round(hours, 6), "peak_gpus": max(1, peak(profile))}), profile


def served(job: JobFit) -> Profile:
    """A serving job's day as GPUs in use: each hour's replicas of the replica's GPUs."""
    assert job.serving is not None and job.serving.by_hour, "a split serving job is planned over its day"
    return hourly_profile([replicas * job.unit_gpus for replicas in job.serving.by_hour])


def demand_profile(params: SplitParams) -> Profile | FieldErrors:
    """The month's load-duration curve as the inputs state it, or what is missing, under its input."""
    if params.demand == "weekly":
        week = read_weekly(params.weekly) if params.weekly.strip() else "needs the 168 hours of a week"
        return {"weekly": week} if isinstance(week, str) else hourly_profile(week)
    if params.demand == "hourly":
        hours = read_hourly(params.hourly) if params.hourly.strip() else None
        if not isinstance(hours, tuple):
            return {
                "hourly_key": "is missing: upload a CSV of hourly GPU demand below (the API takes the hours as hourly)"
            }
        return hourly_profile(hours)
    if params.base_gpus > params.split_peak:
        return {"base_gpus": f"must be at most the {params.split_peak} GPUs at the peak"}
    return simple_profile(params.base_gpus, params.split_peak, params.peak_hours)


@dataclass(frozen=True)
class Pair:
    """A base offer and a burst offer, with the split of the profile at every base on them."""

    base: PricedOffer
    burst: PricedOffer
    splits: tuple[Split, ...]
    best: Split
    rule_gpus: int
    """GPUs of base by the simple rule (`rule_of_thumb`)."""
    rule_share: float
    """How busy a GPU must be for the rule to reserve it (`rule_threshold`)."""

    @property
    def rule_units(self) -> int:
        """The rule's GPUs in whole units of the base offer."""
        return -(-self.rule_gpus // self.base.offer.gpus_per_unit)

    @property
    def complete(self) -> bool:
        return fully_priced(self.best, self.base, self.burst)


@dataclass(frozen=True)
class Alone:
    """One offer carrying the whole profile: all of it burst, or the peak reserved."""

    offer: PricedOffer
    split: Split


@dataclass(frozen=True)
class SplitQuote:
    profile: Profile
    months: int
    pair: Pair | None
    """None where the filters leave no base option or no burst option."""
    all_burst: Alone | None
    all_reserved: Alone | None

    @property
    def answer(self) -> Answer | None:
        """The pair's best; where the filters leave no base option, bursting all of it; where no burst
        option, reserving the peak; None where no offer is left at all."""
        if self.pair is not None:
            return Answer(self.pair.best, self.pair.base, self.pair.burst, self.pair.complete)
        if self.all_burst is not None:
            return Answer(self.all_burst.split, None, self.all_burst.offer, self.all_burst.offer.complete)
        if self.all_reserved is not None:
            return Answer(self.all_reserved.split, self.all_reserved.offer, None, self.all_reserved.offer.complete)
        return None


@dataclass(frozen=True)
class Answer:
    """The cheapest way to carry the profile, the base and burst offers it runs on (one of them None
    where the filters leave that kind no option), and whether every price it needs is published."""

    split: Split
    base: PricedOffer | None
    burst: PricedOffer | None
    complete: bool


def _packed(gpus_per_unit: int, replica_gpus: int) -> float:
    """The share of a unit's GPUs whole replicas fill: a replica never spans two units."""
    return gpus_per_unit // replica_gpus * replica_gpus / gpus_per_unit


def _capacity(p: PricedOffer, assumptions: Assumptions, replica_gpus: int = 1) -> Capacity:
    o = p.offer
    useful = (1 - assumptions.tax(o.tenancy)) * _packed(o.gpus_per_unit, replica_gpus)
    return Capacity(
        o.usd_per_unit_month, o.gpus_per_unit, useful, o.min_commitment_months or 1, o.setup_fee_usd, p.fixed.usd
    )


def _burst(p: PricedOffer, assumptions: Assumptions, replica_gpus: int = 1) -> Burst:
    o = p.offer
    serverless = o.tenancy is Tenancy.SERVERLESS
    starts = assumptions.cold_start_hours * o.usd_per_gpu_hour if serverless else 0.0
    units = replica_gpus if serverless else o.gpus_per_unit
    useful = (1 - assumptions.tax(o.tenancy)) * _packed(units, replica_gpus)
    return Burst(o.usd_per_gpu_hour, units, useful, starts, p.fixed.usd)


def split_quote(
    priced: list[PricedOffer], profile: Profile, months: int, assumptions: Assumptions, base_kind: str, burst_kind: str,
    replica_gpus: int = 1,
) -> SplitQuote:  # fmt: skip
    """Every base option against every burst option the filters and pins leave, each at every base;
    the cheapest pair, and bursting all or reserving the peak, each on its cheapest offer. A serving
    job's replicas of `replica_gpus` each fill units and instances whole."""
    bases = [(p, _capacity(p, assumptions, replica_gpus)) for p in priced if _kind(p, BASE_BILLINGS, base_kind)]
    bursts = [(p, _burst(p, assumptions, replica_gpus)) for p in priced if _kind(p, BURST_BILLINGS, burst_kind)]
    search = PricedSplits(profile, months)
    alone = _least((search.at(0, NO_BASE, flow), p, p) for p, flow in bursts)
    reserved = _least((search.at(units_for_peak(profile, c), c, NO_BURST), p, p) for p, c in bases)
    with_base = cheapest_with_base(search, bases, bursts)
    pair = None
    if with_base is not None and alone is not None:
        best, b, r = with_base
        if rank(alone[0], alone[1].complete) < rank(best, fully_priced(best, b, r)):
            best, r = alone[0], alone[1]
        base, burst = _capacity(b, assumptions, replica_gpus), _burst(r, assumptions, replica_gpus)
        every, rule = search.every(base, burst), rule_of_thumb(profile, base, burst)
        pair = Pair(b, r, every, best, rule, rule_threshold(base, burst))
    return SplitQuote(
        profile, months, pair,
        Alone(alone[1], alone[0]) if alone else None,
        Alone(reserved[1], reserved[0]) if reserved else None,
    )  # fmt: skip


NO_BASE = Capacity(0.0, 1)
NO_BURST = Burst(0.0)


def _kind(p: PricedOffer, billings: tuple[Billing, ...], pinned: str) -> bool:
    return p.offer.billing in billings and pinned in ("", p.offer.billing)


def _least(found: Iterable[tuple[Split, PricedOffer, PricedOffer]]) -> tuple[Split, PricedOffer, PricedOffer] | None:
    """The cheapest split of a base offer and a burst offer (the same offer where one carries it all)."""
    return min(found, key=lambda f: rank(f[0], fully_priced(f[0], f[1], f[2])), default=None)


def fully_priced(split: Split, base: PricedOffer, burst: PricedOffer) -> bool:
    """Data made on either side moves out of it: the split is fully priced where every provider it
    runs on publishes its egress and storage prices."""
    return (not split.units or base.complete) and (not split.burst_gpu_hours or burst.complete)


def split_of(fitted: Fitted, params: QuoteParams, profile: Profile) -> SplitQuote:
    return split_quote(
        fitted.priced, profile, params.months, params.assumptions(), params.split_base, params.split_burst,
        fitted.workload.replica_gpus,
    )  # fmt: skip
