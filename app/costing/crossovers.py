"""Where a quote's options cross: each pair's break-evens, the turns of the cheapest line among them,
and which a buyer reads first. Of a dozen break-evens a buyer acts on the few where the answer
changes: the one above their GPU-hours says how much more work a cheaper way of renting needs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import TYPE_CHECKING

from app.costing.breakeven import Crossing, crossings

if TYPE_CHECKING:
    from app.costing.quote import OfferCost, OptionKey, Quote

MAX_CROSSINGS = 12
"""Per pair of options: a one-GPU node against metered billing crosses at every step."""


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
