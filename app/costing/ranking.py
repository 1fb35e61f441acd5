"""Which offer of a group is cheapest at some GPU-hours, and the groups in order: fully priced first,
then the total, then the one that grows slower, then the first listed."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.costing.quote import PricedOffer

Rank = tuple[bool, float, tuple[float, float], int]
"""Fully priced first (an egress or storage price nobody published is not a free one), then the
total, then the curve's growth, then the first listed."""


def rank_at(p: PricedOffer, hours: float, listed: int) -> Rank:
    """How an offer ranks at `hours` GPU-hours, the `listed`-th of those compared."""
    return not p.fixed.complete, p.curve.at(hours), p.curve.growth, listed


Group = Callable[["PricedOffer"], Hashable]
"""What offers compete within for the cheapest: their option, or their provider."""


def by_option(p: PricedOffer) -> Hashable:
    return p.option


def cheapest_by(
    priced: list[PricedOffer], hours: float, group: Group
) -> tuple[list[tuple[Rank, PricedOffer]], tuple[Rank, PricedOffer] | None]:
    """The cheapest offer of each group at `hours`, cheapest first (as `Rank`), and the cheapest of
    all with an unpublished cost (None if none has one)."""
    cheapest: dict[Hashable, tuple[Rank, PricedOffer]] = {}
    looks_cheapest: tuple[Rank, PricedOffer] | None = None
    for listed, p in enumerate(priced):
        rank, key = rank_at(p, hours, listed), group(p)
        best = cheapest.get(key)
        if best is None or rank < best[0]:
            cheapest[key] = rank, p
        if rank[0] and (looks_cheapest is None or rank < looks_cheapest[0]):
            looks_cheapest = rank, p
    return sorted(cheapest.values(), key=lambda best: best[0]), looks_cheapest
