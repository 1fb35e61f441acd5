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
class Split:
    """A base of `units` whole units (`base_gpus` GPUs) and the GPU-hours above it burst, USD a month."""

    units: int
    base_gpus: int
    base: float
    burst_gpu_hours: float
    burst: float

    @property
    def total(self) -> float:
        return self.base + self.burst


def splits(profile: Profile, unit_month: float, gpus_per_unit: int, burst_per_gpu_hour: float) -> list[Split]:
    """Every base from none to enough units for the peak: its month, base and burst apart."""
    most = math.ceil(peak(profile) / gpus_per_unit)
    found = []
    for units in range(most + 1):
        base_gpus = units * gpus_per_unit
        above = hours_above(profile, base_gpus)
        found.append(Split(units, base_gpus, units * unit_month, above, above * burst_per_gpu_hour))
    return found


def best_split(profile: Profile, unit_month: float, gpus_per_unit: int, burst_per_gpu_hour: float) -> Split:
    """The cheapest base; of equal months, the smaller base (less committed)."""
    return min(splits(profile, unit_month, gpus_per_unit, burst_per_gpu_hour), key=lambda s: (s.total, s.units))


def rule_of_thumb(profile: Profile, unit_month: float, gpus_per_unit: int, burst_per_gpu_hour: float) -> int:
    """GPUs of base by the simple rule: the k-th is reserved when it is busy at least the base's price
    per GPU-month over the burst's for a month (730 hours), whatever the units it comes in."""
    threshold = unit_month / gpus_per_unit / (HOURS_PER_MONTH * burst_per_gpu_hour)
    return sum(1 for k in range(1, peak(profile) + 1) if busy_share(profile, k) >= threshold)
