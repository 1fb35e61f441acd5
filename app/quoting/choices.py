"""With "any GPU that fits", each GPU model that holds the workload, quoted at its fit, and how they rank:
against each other only on equal work, a stated job or GPU-hours converted by the GPU models' speeds;
GPU-hours of different GPU models are not equal work as they stand."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from app.costing.quote import OfferCost, Quote
from app.quoting.equal_work import Speed
from app.quoting.jobs import JobFit

NOT_EQUAL_WORK = (
    "GPU-hours of different GPU models are not equal work (an hour of one GPU model does more than an hour of "
    "another), and no GPU model that fits has a speed for the model to convert them by, so none is ranked the "
    "cheapest for them: state the job (tokens to serve, tokens to train on) to compare GPU models on equal work"
)
"""Why GPU models quoted at the same GPU-hours are listed side by side, never ranked."""


@dataclass(frozen=True)
class GpuChoice:
    """One GPU model that holds a sized workload, quoted at its fit."""

    gpu: str
    gpus: int
    hours: float
    """The GPU-hours a month it is quoted at: the slider's, the job's on it, or the slider's converted to it."""
    quote: Quote
    job: JobFit | None = None
    """What the job takes on this GPU model, where one is stated: its own GPU-hours."""
    speed: Speed | None = None
    """Where GPU-hours stated on another GPU model are converted: this one's speed, which set its GPU-hours."""

    @property
    def on_equal_work(self) -> bool:
        """Quoted at the GPU-hours the same work takes on it: ranked against the others by cost."""
        return self.job is not None or self.speed is not None

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


Chosen = TypeVar("Chosen")


def quoted_first(choices: Sequence[tuple[Chosen, GpuChoice]]) -> list[tuple[Chosen, GpuChoice]]:
    """The GPU models in the order they are listed, the one quoted first. On equal work (a job, or
    GPU-hours converted by speed), cheapest first: each is quoted at what the same work takes on it.
    For GPU-hours as they stand, in the fit table's order (the fewest GPUs that hold the model first),
    those with an offer passing the filters first: the hours are not equal work across GPU models, so
    cost does not order them."""
    if any(choice.on_equal_work for _, choice in choices):
        return sorted(choices, key=lambda choice: rank_of(choice[1]))
    return sorted(choices, key=lambda choice: choice[1].cheapest is None)


def side_by_side(choices: Sequence[GpuChoice], job: JobFit | None) -> list[tuple[GpuChoice, OfferCost]]:
    """Every GPU model's options side by side. On equal work, cheapest first (fully priced first) by what
    the work costs on each at its own GPU-hours; for GPU-hours as they stand, GPU model by GPU model as
    listed, each one's cheapest first."""
    rows = [(choice, option) for choice in choices for option in choice.quote.options]
    if not any(choice.on_equal_work for choice in choices):
        return rows
    return sorted(rows, key=lambda row: (not row[1].complete, ranked_cost(row[1], job)))


def table_rows(choices: Sequence[GpuChoice], job: JobFit | None) -> list[tuple[GpuChoice, OfferCost]]:
    """What the any-GPU table lists: on equal work, every option of every GPU model, cheapest first; for
    GPU-hours as they stand, each GPU model's cheapest option, as listed."""
    if any(choice.on_equal_work for choice in choices):
        return side_by_side(choices, job)
    return [(choice, choice.cheapest) for choice in choices if choice.cheapest is not None]
