"""The offers that can be cheapest of their option at some GPU-hours: what a slider move reads.

A quote ranks offers at one H. Within an option, an offer whose curve has no lower base and no
lower slope (or, for reserved units, no lower unit price at the same step widths) than an earlier
offer's never wins at any H, so it can be left out once per workload-without-hours, and each move
reads the few offers left. Providers price egress and storage per provider, so offers of one
provider and option share a base and only the cheapest of them stays: what is left grows with the
providers and options, not with the offers.

Dominance is decided on the same floats the quote compares: rounding is monotone, so a base and a
slope no higher give a total no higher at every H. "Earlier" keeps the quote's tie-break: the
first of offers with equal totals wins.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Hashable

from app.costing.curves import LinearCost, SteppedCost
from app.costing.quote import PricedOffer


def _shape(p: PricedOffer) -> tuple[Hashable, float, float]:
    """Offers compare only within a shape: (shape, base, price per hour or per unit)."""
    curve = p.curve
    if isinstance(curve, LinearCost):
        return (p.option, p.complete, "linear"), curve.base, curve.usd_per_hour
    assert isinstance(curve, SteppedCost)
    steps = (p.option, p.complete, "stepped", curve.min_units, curve.hours_per_unit)
    return steps, curve.base, curve.unit_month


def contenders(priced: list[PricedOffer]) -> list[PricedOffer]:
    """`priced` less every offer that an earlier one of its shape costs no more than at every H,
    in `priced`'s order, so the quote's first-wins tie-break picks the same offer."""
    by_shape: dict[Hashable, list[tuple[float, float, int]]] = defaultdict(list)
    for index, p in enumerate(priced):
        shape, base, price = _shape(p)
        by_shape[shape].append((base, price, index))
    kept: list[int] = []
    for members in by_shape.values():
        kept.extend(_undominated(members))
    return [priced[i] for i in sorted(kept)]


def _undominated(members: list[tuple[float, float, int]]) -> list[int]:
    """Indexes of members no earlier member matches or beats on both base and price.

    In order of base, every member seen before has a base no higher; of those, one dominates if
    its price is no higher and its index lower. `prices` and `firsts` hold the seen members that no
    other seen one dominates (prices ascending, indexes descending), so the seen member with the
    lowest index among prices <= p is the last one at or below p.
    """
    prices: list[float] = []
    firsts: list[int] = []
    kept = []
    for _, price, index in sorted(members):
        at = bisect_right(prices, price)
        if at and firsts[at - 1] < index:
            continue
        kept.append(index)
        end = at
        while end < len(prices) and firsts[end] >= index:
            end += 1
        prices[at:end] = [price]
        firsts[at:end] = [index]
    return kept
