"""Monthly total cost as a function of GPU-hours H: linear for metered billing, steps for reserved.

Everything except H is fixed in a curve, so egress and storage are its constant base. Curves are
left-continuous: a step from k to k+1 units happens just above the capacity of k units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from app.costing.terms import HOURS_PER_MONTH

_EPS = 1e-12


@dataclass(frozen=True)
class LinearCost:
    """USD per month = base + usd_per_hour x H."""

    base: float
    usd_per_hour: float

    def at(self, hours: float) -> float:
        return self.base + self.usd_per_hour * hours

    def steps(self, until: float) -> list[float]:
        return []

    def piece(self, lo: float, hi: float) -> tuple[float, float]:
        """(intercept, slope) of the curve on (lo, hi], a stretch without steps."""
        return self.base, self.usd_per_hour

    @property
    def growth(self) -> tuple[float, float]:
        """Between equal totals, the cheaper is the one that costs less per hour more, then the
        lower base: at 0 GPU-hours two offers with one egress price tie, and the cheaper per hour wins."""
        return self.usd_per_hour, self.base


@dataclass(frozen=True)
class SteppedCost:
    """USD per month = base + unit_month x units, units covering at least `min_units` and H.

    One unit serves `hours_per_unit` useful GPU-hours a month (its GPUs x 730, less the tax).
    """

    base: float
    unit_month: float
    min_units: int
    hours_per_unit: float
    unit_nodes: int = 1
    """Nodes in one unit: a serving replica across nodes is rented in whole replicas."""
    run_nodes: int = 0
    """A run's curve, each unit a month of these nodes (its GPUs are fixed); 0 where units are nodes."""

    def units(self, hours: float) -> int:
        return max(self.min_units, math.ceil(hours / self.hours_per_unit - _EPS))

    def nodes(self, hours: float) -> int:
        """The nodes (servers) held at `hours`: a run's own, whatever its months; else the units' nodes."""
        return self.run_nodes or self.units(hours) * self.unit_nodes

    def at(self, hours: float) -> float:
        return self.base + self.unit_month * self.units(hours)

    def steps(self, until: float) -> list[float]:
        """GPU-hours after which one more unit is needed, up to `until`."""
        found, k = [], self.min_units
        while k * self.hours_per_unit < until:
            found.append(k * self.hours_per_unit)
            k += 1
        return found

    def piece(self, lo: float, hi: float) -> tuple[float, float]:
        return self.at(hi), 0.0

    @property
    def growth(self) -> tuple[float, float]:
        return self.unit_month, self.base


@dataclass(frozen=True)
class MeteredCost:
    """USD per month = base + usd_per_hour x H x billed / used, for instances of `gpus_per_unit` GPUs
    rented whole by the hour: the GPUs used at once are at least `peak_gpus` and enough for H at
    `hours_per_gpu` useful hours each (a month has 730), in whole replicas of `replica_gpus`. A step
    wherever one more replica is needed: 1 GPU at once on an 8-GPU instance bills 8, 5 bill 8 too.
    """

    base: float
    usd_per_hour: float
    """Per GPU-hour billed, the tax included."""
    gpus_per_unit: int
    peak_gpus: int
    replica_gpus: int
    hours_per_gpu: float
    peak_hours: float = field(init=False, repr=False)
    """Up to these GPU-hours the peak GPUs at once run them all: the curve is a line there, which
    most moves of the slider read, so its slope is worked out once."""
    peak_slope: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "peak_hours", self.peak_gpus * self.hours_per_gpu)
        object.__setattr__(self, "peak_slope", self.usd_per_hour * self._billed(self.peak_gpus) / self.peak_gpus)

    def at_once(self, hours: float) -> int:
        if hours <= self.peak_hours:
            return self.peak_gpus
        replicas = math.ceil(math.ceil(hours / self.hours_per_gpu - _EPS) / self.replica_gpus)
        return max(self.peak_gpus, replicas * self.replica_gpus)

    def _billed(self, at_once: int) -> int:
        return math.ceil(at_once / self.gpus_per_unit) * self.gpus_per_unit

    def billed(self, hours: float) -> int:
        return self._billed(self.at_once(hours))

    def at(self, hours: float) -> float:
        if hours <= self.peak_hours:
            return self.base + self.peak_slope * hours
        at_once = self.at_once(hours)
        return self.base + self.usd_per_hour * hours * self._billed(at_once) / at_once

    def steps(self, until: float) -> list[float]:
        """GPU-hours after which one more replica runs at once, up to `until`."""
        found, at_once = [], self.peak_gpus
        while at_once * self.hours_per_gpu < until:
            found.append(at_once * self.hours_per_gpu)
            at_once += self.replica_gpus
        return found

    def piece(self, lo: float, hi: float) -> tuple[float, float]:
        at_once = self.at_once(hi)
        return self.base, self.usd_per_hour * self._billed(at_once) / at_once

    @property
    def growth(self) -> tuple[float, float]:
        return self.usd_per_hour, self.base


CostCurve = LinearCost | SteppedCost | MeteredCost


def units_curve(
    base: float, unit_month: float, gpus_per_unit: int, peak_gpus: int, tax: float, replica_gpus: int = 1
) -> SteppedCost:
    """Reserved capacity: enough whole units for the peak GPUs at once and for H / (1 - tax), in whole
    replicas where one spans several units."""
    nodes = max(1, replica_gpus // gpus_per_unit)
    return SteppedCost(
        base=base,
        unit_month=unit_month * nodes,
        min_units=math.ceil(peak_gpus / (gpus_per_unit * nodes)),
        hours_per_unit=gpus_per_unit * nodes * HOURS_PER_MONTH * (1 - tax),
        unit_nodes=nodes,
    )
