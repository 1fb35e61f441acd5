"""The estimate's efficiencies, taken from the published benchmarks rather than typed in.

Calibration: start from half the roofline; estimate every benchmark; multiply the memory share by
the median of published / estimated over the benchmarks whose decode is memory-bound, the compute
share by the median over the compute-bound ones; repeat until the shares settle. Medians, so one odd
benchmark moves nothing much. How far the estimate is from a benchmark it was not calibrated on is
app/quoting/estimates.py's `left_out`.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from app.costing.roofline import Architecture, Bound, Chip, Conditions, Efficiency, Estimate, estimate

START = Efficiency(0.5, 0.5)
ROUNDS = 40
SETTLED = 1e-3
"""A share that moves less than this, relatively, in a round has settled. Where a benchmark's decode
sits at the edge of the two bounds, it may flip from one to the other each round and the shares swing
by a few tenths of a per cent without settling: the calibration stops at ROUNDS then. Every calibration
starts from START, so that it depends on its benchmarks alone."""


@dataclass(frozen=True)
class Observation:
    """A published benchmark as the estimate sees it."""

    key: str
    chip: Chip
    model: Architecture
    conditions: Conditions
    tokens_per_s: float
    """As published: output tokens per second of the whole deployment."""


@dataclass(frozen=True)
class Check:
    """One benchmark estimated without it in the calibration."""

    key: str
    published: float
    estimated: float

    @property
    def error(self) -> float:
        """estimate / published - 1."""
        return self.estimated / self.published - 1


def _ratios(observations: Sequence[Observation], eff: Efficiency) -> dict[Bound, list[float]]:
    by_bound: dict[Bound, list[float]] = {Bound.MEMORY: [], Bound.COMPUTE: []}
    for o in observations:
        found = estimate(o.chip, o.model, o.conditions, eff)
        if isinstance(found, Estimate):
            by_bound[found.bound].append(o.tokens_per_s / found.tokens_per_s)
    return by_bound


def calibrate(observations: Sequence[Observation]) -> Efficiency:
    """The shares of bandwidth and peak at which the estimate meets the benchmarks' medians."""
    eff = START
    for _ in range(ROUNDS):
        by_bound = _ratios(observations, eff)
        memory = statistics.median(by_bound[Bound.MEMORY]) if by_bound[Bound.MEMORY] else 1.0
        compute = statistics.median(by_bound[Bound.COMPUTE]) if by_bound[Bound.COMPUTE] else 1.0
        eff = Efficiency(eff.memory * memory, eff.compute * compute)
        if abs(memory - 1) < SETTLED and abs(compute - 1) < SETTLED:
            break
    return eff
