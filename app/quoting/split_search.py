"""The search of the hybrid split for its cheapest pair: of the base offers and burst offers, those that
can carry the cheapest split (the front of each shape); each pair at every base up to where the base
alone costs more than the cheapest split found; the burst's GPU-hours above a base worked out once per
shape; and only the cheapest pair's split made (thousands priced, one kept)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import TypeVar

from app.costing.hybrid import (
    Burst,
    Capacity,
    Profile,
    Split,
    base_horizon,
    horizon_at,
    split_at,
    units_for_peak,
)
from app.costing.quote import PricedOffer

Ranked = tuple[bool, float, int]


def rank(split: Split, complete: bool) -> Ranked:
    """Fully priced first (an unpublished egress price is no free one), then over the horizon, then the
    smaller base (less committed)."""
    return not complete, round(split.horizon, 6), split.units


T = TypeVar("T", Capacity, Burst)


def _front(
    offers: list[tuple[PricedOffer, T]], key: Callable[[T], Hashable], cost: Callable[[T], float],
    extra: Callable[[T], float],
) -> list[tuple[PricedOffer, T]]:  # fmt: skip
    """Of offers alike by `key` (and fully priced or not), those no other beats both on `cost` and on
    `extra`: the only ones that can carry the cheapest split with a base; of equal ones, the first listed."""
    groups: dict[Hashable, list[tuple[PricedOffer, T]]] = {}
    for p, priced in offers:
        groups.setdefault((key(priced), p.complete), []).append((p, priced))
    kept: list[tuple[PricedOffer, T]] = []
    for alike in groups.values():
        least = math.inf
        for p, priced in sorted(alike, key=lambda found: cost(found[1])):
            if extra(priced) < least:
                kept.append((p, priced))
                least = extra(priced)
    return kept


class PricedSplits:
    """Splits of the profile, the burst's GPU-hours above each base worked out once for every burst
    offer alike (its instance size and tax): what the search reads again and again."""

    def __init__(self, profile: Profile, months: int) -> None:
        self.profile, self.months = profile, months
        self.billed: dict[tuple[int, float, float], float] = {}

    def billed_at(self, units: int, base: Capacity, burst: Burst) -> float:
        carried = base.carries(units)
        key = burst.gpus_per_unit, burst.useful, carried
        billed = self.billed.get(key)
        if billed is None:
            billed = self.billed[key] = burst.billed_above(self.profile, carried)
        return billed

    def at(self, units: int, base: Capacity, burst: Burst) -> Split:
        return split_at(self.profile, units, base, burst, self.months, self.billed_at(units, base, burst))

    def every(self, base: Capacity, burst: Burst) -> tuple[Split, ...]:
        return tuple(self.at(units, base, burst) for units in range(units_for_peak(self.profile, base) + 1))

    def cheapest(
        self, base: Capacity, burst: Burst, fully_priced: tuple[bool, bool], beat: Ranked | None
    ) -> Ranked | None:
        """The best base of a unit or more on this pair as `rank` ranks it, where it ranks before `beat`;
        else none. `fully_priced`: whether the base offer and the burst offer publish their egress and
        storage prices (a base that leaves nothing to burst needs the base's alone). Past a base whose
        units alone cost more than `beat`, no larger one ranks before it, unless it might be fully
        priced where `beat` is not."""
        base_priced, burst_priced = fully_priced
        found = None
        for units in range(1, units_for_peak(self.profile, base) + 1):
            alone = round(base_horizon(units, base, self.months), 6)
            if beat is not None and alone > beat[1] and not (beat[0] and base_priced):
                break
            billed = self.billed_at(units, base, burst)
            horizon = round(horizon_at(units, base, burst, self.months, billed), 6)
            ranked = not (base_priced and (burst_priced or not billed)), horizon, units
            if beat is None or ranked < beat:
                beat = found = ranked
        return found


def cheapest_with_base(
    search: PricedSplits, bases: list[tuple[PricedOffer, Capacity]], bursts: list[tuple[PricedOffer, Burst]]
) -> tuple[Split, PricedOffer, PricedOffer] | None:
    """The cheapest split with a base of a unit or more, as `rank` ranks them (of equal ones, the
    first pair), over the offers that can carry it (`_front`)."""
    # With a base, egress and storage cost what the base's provider charges; a burst adds its GPU-hours
    # and cold starts, and whether its provider prices egress and storage (its front is kept apart).
    burst_front = _front(bursts, _shape, lambda f: f.per_gpu_hour, lambda f: f.start_month)
    base_front = _front(bases, _shape, lambda c: _unit_cost(c, search.months), lambda c: c.data_month)
    found: tuple[Ranked, PricedOffer, Capacity, PricedOffer, Burst] | None = None
    for b, c in base_front:
        for r, flow in burst_front:
            ranked = search.cheapest(c, flow, (b.complete, r.complete), found[0] if found else None)
            if ranked is not None:
                found = ranked, b, c, r, flow
    if found is None:
        return None
    (_, _, units), b, c, r, flow = found
    return search.at(units, c, flow), b, r


def _shape(option: Capacity | Burst) -> tuple[int, float]:
    """What makes the GPU-hours burst above a base the same for two offers: the unit and the tax."""
    return option.gpus_per_unit, option.useful


def _unit_cost(c: Capacity, months: int) -> float:
    """A unit over the horizon: its whole term and its setup fee."""
    return c.unit_month * max(months, c.term_months) + c.setup_per_unit
