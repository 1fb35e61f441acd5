"""The hybrid split: a base of whole capacity units (dedicated, committed, owned) for the steady load,
the hours above it on a burst option by the GPU-hour, and the base that makes the month cheapest.

Demand is a load-duration curve: GPUs in use and the hours a month at that level (an hourly or
weekly profile weighs each of its hours as 730 / its length), so every way of stating it is priced alike.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from app.costing.terms import HOURS_PER_MONTH

Profile = tuple[tuple[int, float], ...]
"""(GPUs in use, hours a month at that level), most GPUs first; the hours add up to 730."""


def simple_profile(base: int, peak: int, peak_hours: float) -> Profile:
    """`base` GPUs all month, `peak` for `peak_hours` of it."""
    return _merged([(peak, peak_hours), (base, HOURS_PER_MONTH - peak_hours)])


def hourly_profile(gpus: Sequence[int]) -> Profile:
    """GPUs in use hour by hour (a week of 168, a month of 744, ...), each hour a 730 / len share of a month."""
    weight = HOURS_PER_MONTH / len(gpus)
    return _merged([(level, count * weight) for level, count in Counter(gpus).items()])


def _merged(levels: Sequence[tuple[int, float]]) -> Profile:
    hours: dict[int, float] = {}
    for gpus, at in levels:
        if at > 0:
            hours[gpus] = hours.get(gpus, 0.0) + at
    return tuple(sorted(hours.items(), reverse=True))


def peak(profile: Profile) -> int:
    return profile[0][0] if profile else 0


def hours_above(profile: Profile, base_gpus: int) -> float:
    """GPU-hours a month above a base of `base_gpus`: what bursts."""
    return sum((gpus - base_gpus) * at for gpus, at in profile if gpus > base_gpus)


def busy_share(profile: Profile, k: int) -> float:
    """The share of the month the k-th GPU (from 1) is in use."""
    return sum(at for gpus, at in profile if gpus >= k) / HOURS_PER_MONTH


@dataclass(frozen=True)
class Capacity:
    """A base option: whole units of `gpus_per_unit` reserved at `unit_month` USD a month each."""

    unit_month: float
    gpus_per_unit: int
    useful: float = 1.0
    """Of each GPU's throughput, what the tenancy's tax leaves: a base of 8 virtualized GPUs at a 5 %
    tax carries 7.6 GPUs of the demand."""
    term_months: int = 1
    """A shorter horizon still pays the whole term."""
    setup_per_unit: float = 0.0
    """Charged once for each unit: each server is set up."""
    data_month: float = 0.0
    """Egress and storage at the base's provider: the data lives with the base when there is one."""

    def carries(self, units: int) -> float:
        return units * self.gpus_per_unit * self.useful


@dataclass(frozen=True)
class Burst:
    """A burst option: USD per GPU-hour billed, in instances of `gpus_per_unit` rented whole by the hour
    (1: by the GPU, as serverless and single-GPU instances bill)."""

    per_gpu_hour: float
    gpus_per_unit: int = 1
    useful: float = 1.0
    start_month: float = 0.0
    """What bursting at all adds a month: serverless cold starts."""
    data_month: float = 0.0
    """Egress and storage at the burst's provider, counted where there is no base."""

    def billed_above(self, profile: Profile, carried: float) -> float:
        """GPU-hours billed a month for the demand above `carried` GPUs: each hour's excess over the
        useful share, rounded up to whole instances where they hold more than one GPU."""
        billed, useful, size = 0.0, self.useful, self.gpus_per_unit
        for gpus, at in profile:
            if gpus <= carried:
                break
            needed = (gpus - carried) / useful
            if size > 1:
                needed = math.ceil(needed / size - 1e-9) * size
            billed += needed * at
        return billed

    def month(self, billed: float) -> float:
        """USD a month for `billed` GPU-hours, with the cold starts of bursting at all."""
        return billed * self.per_gpu_hour + (self.start_month if billed > 0 else 0.0)


@dataclass(frozen=True)
class Split:
    """A base of `units` whole units (`base_gpus` GPUs) and the GPU-hours above it burst: USD a month,
    and over the horizon with the base's whole term and setup fees."""

    units: int
    base_gpus: int
    base: float
    burst_gpu_hours: float
    burst: float
    data: float = 0.0
    horizon: float = 0.0

    @property
    def total(self) -> float:
        return self.base + self.burst + self.data


def split_at(
    profile: Profile, units: int, base: Capacity, burst: Burst, months: int = 1, billed: float | None = None
) -> Split:
    """`billed`: the burst's GPU-hours above this base where already worked out (for another offer alike)."""
    if billed is None:
        billed = burst.billed_above(profile, base.carries(units))
    data = base.data_month if units else burst.data_month
    horizon = horizon_at(units, base, burst, months, billed)
    return Split(units, units * base.gpus_per_unit, units * base.unit_month, billed, burst.month(billed), data, horizon)


def horizon_at(units: int, base: Capacity, burst: Burst, months: int, billed: float) -> float:
    """USD over the horizon of a base of `units` with `billed` GPU-hours a month burst above it: the
    `horizon` of `split_at`, worked out alone for a search that prices many bases and keeps one."""
    data = base.data_month if units else burst.data_month
    return base_horizon(units, base, months) + (burst.month(billed) + data) * months


def base_horizon(units: int, base: Capacity, months: int) -> float:
    """What the base alone costs over the horizon, its whole term and setup fees: in floats too, never
    more than `horizon_at` with anything burst, and never less for more units."""
    return units * base.unit_month * max(months, base.term_months) + units * base.setup_per_unit


def units_for_peak(profile: Profile, base: Capacity) -> int:
    """Units enough to carry the peak with no burst."""
    return math.ceil(peak(profile) / (base.gpus_per_unit * base.useful) - 1e-9)


def splits(profile: Profile, base: Capacity, burst: Burst, months: int = 1) -> list[Split]:
    """Every base from none to enough units for the peak: its month, base and burst apart."""
    return [split_at(profile, units, base, burst, months) for units in range(units_for_peak(profile, base) + 1)]


def cheapest(found: Sequence[Split]) -> Split:
    """The cheapest over the horizon; of equal ones, the smaller base (less committed)."""
    return min(found, key=lambda s: (round(s.horizon, 6), s.units))


def best_split(profile: Profile, base: Capacity, burst: Burst, months: int = 1) -> Split:
    return cheapest(splits(profile, base, burst, months))


def rule_threshold(base: Capacity, burst: Burst) -> float:
    """The share of the month a GPU must be busy for the simple rule to reserve it: the base's price per
    useful GPU-month over the burst's for a month (730 hours), whatever the units it comes in."""
    return (base.unit_month / base.gpus_per_unit / base.useful) / (HOURS_PER_MONTH * burst.per_gpu_hour / burst.useful)


def rule_of_thumb(profile: Profile, base: Capacity, burst: Burst) -> int:
    """GPUs of base by the simple rule: the k-th is reserved when it is busy at least `rule_threshold`."""
    threshold = rule_threshold(base, burst)
    return sum(1 for k in range(1, peak(profile) + 1) if busy_share(profile, k) >= threshold)
