"""The quote at one move of the GPU-hours slider, over the range of GPU-hours that matters to it: the
workload's own capacity, and the next place the cheapest option changes, however far up."""

from __future__ import annotations

from dataclasses import replace

from app.catalog.cache import MemoEntry
from app.costing.breakeven import TURN_SEARCHED, TURN_SEARCHED_UP_TO, hours_searched, hours_to_show
from app.costing.crossovers import crossovers, overtaken_at
from app.costing.quote import Quote, cheapest_at
from app.quoting.fitted import Fitted


def quote_at(memo: MemoEntry, fitted: Fitted, gpu_hours: float) -> Quote:
    """The quote at this move's GPU-hours; the break-evens and the turns of the cheapest line, which
    depend on the offers chosen and the band searched alone, are worked out once per memo for each.
    The band reaches the workload's own capacity and, where the cheapest option does not change above
    the GPU-hours within it, the next place it does, up to TURN_SEARCHED bands (at most
    TURN_SEARCHED_UP_TO)."""
    options, cheaper_looking = cheapest_at(fitted.contenders, replace(fitted.workload, gpu_hours=gpu_hours))
    band, chosen = hours_searched(gpu_hours, fitted.reach), tuple(o.offer.offer_id for o in options)
    pairs, turns = memo.part(("break-evens", band, chosen), lambda: crossovers(options, band))
    searched = 0.0
    wide = min(band * TURN_SEARCHED, max(band, TURN_SEARCHED_UP_TO))
    if wide > band and not any(t.hours > gpu_hours for t in turns):
        overtaken = memo.part(("overtaken", wide, chosen), lambda: overtaken_at(options, wide))
        ahead = next((hours for hours in overtaken if hours > gpu_hours), None)
        if ahead is None:
            searched = wide
        else:
            band = hours_to_show(ahead)
            pairs, turns = memo.part(("break-evens", band, chosen), lambda: crossovers(options, band))
    return Quote(options, list(pairs), band, cheaper_looking, turns, searched)
