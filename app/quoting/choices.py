"""With "any GPU that fits", each GPU model that holds the workload, quoted at its fit, and how they rank."""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.costing.quote import OfferCost, Quote
from app.quoting.jobs import JobFit


@dataclass(frozen=True)
class GpuChoice:
    """One GPU model that holds a sized workload, quoted at its fit."""

    gpu: str
    gpus: int
    quote: Quote
    job: JobFit | None = None
    """What the job takes on this GPU model, where one is stated: its own GPU-hours."""

    @property
    def cheapest(self) -> OfferCost | None:
        return self.quote.options[0] if self.quote.options else None

    @property
    def cost(self) -> float:
        cheapest = self.cheapest
        return math.inf if cheapest is None else ranked_cost(cheapest, self.job)


def ranked_cost(o: OfferCost, job: JobFit | None) -> float:
    """What options of any GPU are ranked by: a run's whole cost, else a month of the horizon
    (`horizon_month`: its setup fee spread over the months)."""
    return o.horizon_total if job is not None and job.run is not None else o.horizon_month


def rank_of(choice: GpuChoice) -> tuple[bool, bool, float]:
    """Cheapest first; a GPU with no offer passing the filters, or none fully priced, after."""
    cheapest = choice.cheapest
    if cheapest is None:
        return True, True, math.inf
    return False, not cheapest.complete, choice.cost
