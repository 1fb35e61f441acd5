"""A training run at other sizes on the GPU model quoted: each doubling of its GPUs from one node up
finishes sooner and, across nodes, costs more, as the rate per GPU falls. What the buyer trades."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.catalog.snapshot import Catalogs
from app.costing.quote import OptionKey
from app.quoting.build import QuoteResult, build_quote

LARGEST_RUN = 8192
"""The most GPUs a run is drawn at: thousands, as the largest published pre-training runs used."""


@dataclass(frozen=True)
class RunSize:
    """The run on `gpus` of the GPU model: its cheapest option's wall clock (longer by its tax) and cost."""

    gpus: int
    wall_clock_hours: float
    run_gpu_hours: float
    cost: Decimal
    """The whole run on its cheapest option, the horizon its months, in the quote's currency as its invoices
    add up (each month rounded to the cent, then summed): the figure the headline and the table say."""
    option: OptionKey
    complete: bool
    across_nodes: bool


def run_sizes(catalogs: Catalogs, result: QuoteResult) -> tuple[RunSize, ...]:
    """The quoted run at its own size and at each power of two GPUs (and of its nodes, where it spans
    them) up to LARGEST_RUN: those the catalog prices (a size too small for the model, no node or fabric
    holds, or longer than the horizon's limit is left out). () unless a run is quoted."""
    job = result.job
    if job is None or job.run is None or not result.quote.options:
        return ()
    node = job.across.node_gpus if job.across else 1
    doublings = range(LARGEST_RUN.bit_length())
    sizes = sorted({job.gpus_at_once, *(g * 2**k for g in (1, node) for k in doublings if g * 2**k <= LARGEST_RUN)})
    found = []
    for gpus in sizes:
        at = (
            result
            if gpus == job.gpus_at_once
            else build_quote(catalogs, result.params.model_copy(update={"run_gpus": gpus}))
        )
        if isinstance(at, QuoteResult) and at.job is not None and at.job.run is not None and at.quote.options:
            best, run = at.quote.options[0], at.job.run
            found.append(
                RunSize(gpus, run.wall_clock_hours / (1 - best.tax), run.gpu_hours, best.horizon_in(at.currency),
                        best.option, best.complete, at.job.across is not None)
            )  # fmt: skip
    return tuple(found)
