"""Break-evens: where two options' monthly cost curves cross (exact roots on linear stretches, and
jumps at steps), how far up they are searched, the turns of the cheapest line among a quote's options,
and which a buyer reads first. Of a dozen break-evens a buyer acts on the few where the answer changes:
the one above their GPU-hours says how much more work a cheaper way of renting needs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import TYPE_CHECKING

from app.costing.curves import CostCurve

if TYPE_CHECKING:
    from app.costing.quote import OfferCost, OptionKey, Quote

MAX_CROSSINGS = 12
"""Per pair of options: a one-GPU node against metered billing crosses at every step."""


@dataclass(frozen=True)
class Crossing:
    """At `hours` GPU-hours a month the cheaper of two options changes; `a_cheaper_after` says to which."""

    hours: float
    a_cheaper_after: bool


def nice_ceiling(value: float, steps: tuple[float, ...] = (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8)) -> float:
    """The least of steps x 10^k at or above value (at least 1). The default leaves little empty
    space above a curve and splits into five readable ticks."""
    scale = 1.0
    while True:
        for step in steps:
            if step * scale >= value:
                return step * scale
        scale *= 10


def hours_searched(gpu_hours: float, reach: float = 0.0) -> float:
    """How far up break-evens are searched: 1,000, 2,000, 5,000, ... past twice H, so that the range
    (and the chart's axis, which reads it) stays put while the slider moves within a band; and at
    least `reach`, the GPU-hours the workload's own capacity runs (all its GPUs at once, an owned
    server busy all month), which moving the slider leaves alone, rounded up more finely (1,500,
    6,000) so that it is not dwarfed by empty axis."""
    return max(nice_ceiling(max(2 * gpu_hours, 1000.0), steps=(1, 2, 5)), nice_ceiling(reach))


def _sign(x: float) -> int:
    return (x > 1e-9) - (x < -1e-9)


def crossings(a: CostCurve, b: CostCurve, until: float, limit: int | None = None) -> list[Crossing]:
    """Every GPU-hour figure in [0, until] where the cheaper of a and b changes (the first `limit`
    of them); [] means never.

    Between the steps of either curve both are linear, so the difference has at most one root
    there; a step can also flip the sign, which puts the crossing at the step itself. The search
    runs one GPU-hour past `until`, so that a crossing exactly at `until` is seen as one.
    """
    end = until + 1
    bounds = sorted({0.0, end, *a.steps(end), *b.steps(end)})
    found: list[Crossing] = []
    last_sign = 0
    for lo, hi in pairwise(bounds):
        ia, sa = a.piece(lo, hi)
        ib, sb = b.piece(lo, hi)
        last_sign = _stretch_crossings(lo, hi, ia - ib, sa - sb, last_sign, found)
        if limit is not None and len(found) >= limit:
            break
    return [c for c in found if c.hours <= until][:limit]


def _stretch_crossings(lo: float, hi: float, d0: float, slope: float, last_sign: int, found: list[Crossing]) -> int:
    """Adds to `found` the crossings of a linear stretch [lo, hi] where a - b = d0 + slope x, given the
    sign a - b had before it (0: none yet): a step at `lo` that flips the sign, then a root inside (or
    a sign taken at `lo` from zero); returns the sign it leaves."""
    s_lo, s_hi = _sign(d0 + slope * lo), _sign(d0 + slope * hi)
    if s_lo and last_sign and s_lo != last_sign:
        found.append(Crossing(lo, a_cheaper_after=s_lo < 0))
    if s_lo and s_hi and s_lo != s_hi:
        found.append(Crossing(-d0 / slope, a_cheaper_after=s_hi < 0))
    elif not s_lo and s_hi and last_sign and s_hi != last_sign:
        found.append(Crossing(lo, a_cheaper_after=s_hi < 0))
    return s_hi or s_lo or last_sign


@dataclass(frozen=True)
class BreakEven:
    a: OptionKey
    b: OptionKey
    crossings: list[Crossing]
    more: bool = False
    """True when they cross again beyond the MAX_CROSSINGS listed."""

    def cheaper_above(self, crossing: Crossing) -> OptionKey:
        return self.a if crossing.a_cheaper_after else self.b


@dataclass(frozen=True)
class Turn:
    """At `hours` GPU-hours a month the cheapest option changes from `before` to `after`."""

    hours: float
    before: OptionKey
    after: OptionKey


@dataclass(frozen=True)
class Stretch:
    """The GPU-hours around the buyer's where one option stays the cheapest, and the turns that bound
    them (None: it is cheapest from 0, or up to the end of the range searched)."""

    option: OptionKey
    since: Turn | None
    until: Turn | None
    then: Turn | None = None
    """The turn after `until`: where the option cheaper above it stops being the cheapest."""


def crossovers(options: Sequence[OfferCost], hours_max: float) -> tuple[list[BreakEven], tuple[Turn, ...]]:
    """Where each pair of the options' curves crosses, in the options' order, up to hours_max (the
    first MAX_CROSSINGS listed), and the turns of the cheapest line that all their crossings make."""
    every = {(a.option, b.option): crossings(a.curve, b.curve, hours_max) for a, b in combinations(options, 2)}
    pairs = [BreakEven(a, b, cross[:MAX_CROSSINGS], more=len(cross) > MAX_CROSSINGS) for (a, b), cross in every.items()]
    return pairs, tuple(cheapest_turns(options, every, hours_max))


def cheapest_turns(
    options: Sequence[OfferCost], every: Mapping[tuple[OptionKey, OptionKey], list[Crossing]], hours_max: float
) -> list[Turn]:
    """The turns of the cheapest line from 0 to hours_max among the options ranked with the first
    (those with every cost known, if it has: an unknown cost is not a free one), ties to the first
    listed. The cheapest can change only where two curves cross, so, given `every` crossing of each
    pair, it is read once between each two of them."""
    if not options:
        return []
    ranked = [o for o in options if o.complete == options[0].complete]
    keys = {o.option for o in ranked}
    points = {c.hours for (a, b), cross in every.items() if a in keys and b in keys for c in cross}
    bounds = sorted({0.0, hours_max, *(p for p in points if 0 < p < hours_max)})

    def cheapest(hours: float) -> OptionKey:
        return min(ranked, key=lambda o: o.curve.at(hours)).option

    turns: list[Turn] = []
    current = cheapest(bounds[1] / 2)
    for lo, hi in pairwise(bounds[1:]):
        after = cheapest((lo + hi) / 2)
        if after != current:
            turns.append(Turn(lo, current, after))
            current = after
    return turns


def stretch_at(quote: Quote, hours: float) -> Stretch | None:
    """The stretch of the quote's cheapest line that holds `hours`: what the headline says of the
    break-evens (None with no option). A turn exactly at `hours` is behind it only where the option
    ranked cheapest there is the one after it: curves step just above a unit's capacity, so at a
    step the option before the turn is still the cheapest."""
    if not quote.options:
        return None
    cheapest = quote.options[0].option
    behind = [t for t in quote.turns if t.hours < hours or (t.hours == hours and t.after == cheapest)]
    ahead = list(quote.turns[len(behind) :])
    since = behind[-1] if behind else None
    until, then = (ahead + [None, None])[:2]
    option = since.after if since else until.before if until else cheapest
    return Stretch(option, since, until, then)


def relevant_first(quote: Quote) -> list[BreakEven]:
    """The break-evens a buyer reads first: those where the cheapest option changes, in GPU-hours
    order, then the pairs of the cheapest options before those of dearer ones."""
    rank = {o.option: i for i, o in enumerate(quote.options)}
    turns = {frozenset((t.before, t.after)): n for n, t in reversed(list(enumerate(quote.turns)))}

    def key(pair: BreakEven) -> tuple[int, int, int]:
        turn = turns.get(frozenset((pair.a, pair.b)))
        ranks = sorted((rank[pair.a], rank[pair.b]))
        return (0, turn, 0) if turn is not None else (1, ranks[1], ranks[0])

    return sorted(quote.break_evens, key=key)


def listed_and_folded(quote: Quote, numbered: int, shown_up_to: float) -> tuple[list[BreakEven], list[BreakEven]]:
    """The first `numbered` break-evens that matter (`relevant_first`) with a crossing from one
    GPU-hour on where a month costs at most `shown_up_to` USD (the chart's top); the rest, folded."""
    curves = {o.option: o.curve for o in quote.options}

    def shown(pair: BreakEven) -> bool:
        return any(c.hours >= 1 and curves[pair.a].at(c.hours) <= shown_up_to for c in pair.crossings)

    crossing = [pair for pair in relevant_first(quote) if pair.crossings]
    listed = [pair for pair in crossing if shown(pair)][:numbered]
    return listed, [pair for pair in crossing if pair not in listed]
