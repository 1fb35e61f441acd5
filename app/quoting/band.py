"""The quote at one move of the GPU-hours slider, over the range of GPU-hours that matters to it: past
twice the GPU-hours, and the workload's own capacity (all its GPUs at once, a server owned) busy."""

from __future__ import annotations

from dataclasses import replace

from app.catalog.cache import MemoEntry
from app.costing.breakeven import crossovers, hours_searched
from app.costing.quote import Quote, cheapest_at
from app.quoting.fitted import Fitted


def quote_at(memo: MemoEntry, fitted: Fitted, gpu_hours: float) -> Quote:
    """The quote at this move's GPU-hours; the break-evens and the turns of the cheapest line, which
    depend on the offers chosen and the band searched alone, are worked out once per memo for each.
    The band reaches the workload's own capacity (`Fitted.reach`)."""
    options, cheaper_looking = cheapest_at(fitted.contenders, replace(fitted.workload, gpu_hours=gpu_hours))
    band, chosen = hours_searched(gpu_hours, fitted.reach), tuple(o.offer.offer_id for o in options)
    pairs, turns = memo.part(("break-evens", band, chosen), lambda: crossovers(options, band))
    return Quote(options, list(pairs), band, cheaper_looking, turns)
