"""The offers that can be cheapest of their option (or of their provider) at some GPU-hours: what a slider move reads.

A quote ranks offers at one H. Within an option, an offer whose curve has no lower base and no
lower slope (or, for reserved units, no lower unit price at the same step widths) than another's
never wins at any H, so it is left out once per workload-without-hours, and each move reads the
few offers left. Providers price egress and storage per provider, so offers of one provider and
option share a base and only the cheapest of them stays: what is left grows with the providers
and options, not with the offers.

Dominance is decided on the same floats the quote compares: rounding is monotone, so a base and a
slope no higher give a total no higher at every H. Where totals are equal the quote prefers the
lower (slope, base) (`growth`), so the dominating offer wins ties too; of offers with the same
curve, the first listed, as the quote's first-wins tie-break picks.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable

from app.costing.curves import LinearCost, MeteredCost, SteppedCost
from app.costing.quote import PricedOffer
from app.costing.ranking import Group, by_option


def _shape(p: PricedOffer, group: Group) -> Hashable:
    """Offers compare only within a group and shape: curves whose totals differ by base and price alone."""
    curve = p.curve
    if isinstance(curve, LinearCost):
        return group(p), p.complete, "linear"
    if isinstance(curve, MeteredCost):
        return (
            group(p),
            p.complete,
            "metered",
            curve.gpus_per_unit,
            curve.peak_gpus,
            curve.replica_gpus,
            curve.hours_per_gpu,
        )
    assert isinstance(curve, SteppedCost)
    return group(p), p.complete, "stepped", curve.min_units, curve.hours_per_unit


def contenders(priced: list[PricedOffer], group: Group = by_option) -> list[PricedOffer]:
    """`priced` less every offer another of its group and shape costs no more than at every H, in
    `priced`'s order, so the quote picks the same offer of each group from them as from all."""
    by_shape: dict[Hashable, list[tuple[float, float, int]]] = defaultdict(list)
    for index, p in enumerate(priced):
        price, base = p.curve.growth
        assert math.isfinite(price) and math.isfinite(base), "catalog prices are finite"
        by_shape[_shape(p, group)].append((base, price, index))
    kept = [index for members in by_shape.values() for index in _undominated(members)]
    return [priced[i] for i in sorted(kept)]


def _undominated(members: list[tuple[float, float, int]]) -> list[int]:
    """Indexes of the members no other matches or beats on both base and price (the first of equal
    ones stays). In order of base, then price, then index, a member stays only if its price is below
    every price before it: each of those has a base no higher, and a price no higher would beat it."""
    kept, lowest = [], math.inf
    for _, price, index in sorted(members):
        if price < lowest:
            kept.append(index)
            lowest = price
    return kept
