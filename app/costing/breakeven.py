"""Where two monthly cost curves cross: exact roots on linear stretches, and jumps at steps."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from app.costing.curves import CostCurve


@dataclass(frozen=True)
class Crossing:
    """At `hours` GPU-hours a month the cheaper of two options changes; `a_cheaper_after` says to which."""

    hours: float
    a_cheaper_after: bool


def nice_ceiling(value: float, steps: tuple[float, ...] = (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8)) -> float:
    """The least of steps x 10^k at or above value (at least 1). The default leaves little empty
    space above a curve and splits into five readable ticks."""
    scale = 1.0
    while True:
        for step in steps:
            if step * scale >= value:
                return step * scale
        scale *= 10


def hours_searched(gpu_hours: float, reach: float = 0.0) -> float:
    """How far up break-evens are searched: 1,000, 2,000, 5,000, ... past twice H, so that the range
    (and the chart's axis, which reads it) stays put while the slider moves within a band; and at
    least `reach`, the GPU-hours the workload's own capacity runs (all its GPUs at once, an owned
    server busy all month), which moving the slider leaves alone, rounded up more finely (1,500,
    6,000) so that it is not dwarfed by empty axis."""
    return max(nice_ceiling(max(2 * gpu_hours, 1000.0), steps=(1, 2, 5)), nice_ceiling(reach))


def _sign(x: float) -> int:
    return (x > 1e-9) - (x < -1e-9)


def crossings(a: CostCurve, b: CostCurve, until: float, limit: int | None = None) -> list[Crossing]:
    """Every GPU-hour figure in [0, until] where the cheaper of a and b changes (the first `limit`
    of them); [] means never.

    Between the steps of either curve both are linear, so the difference has at most one root
    there; a step can also flip the sign, which puts the crossing at the step itself. The search
    runs one GPU-hour past `until`, so that a crossing exactly at `until` is seen as one.
    """
    end = until + 1
    bounds = sorted({0.0, end, *a.steps(end), *b.steps(end)})
    found: list[Crossing] = []
    last_sign = 0
    for lo, hi in pairwise(bounds):
        ia, sa = a.piece(lo, hi)
        ib, sb = b.piece(lo, hi)
        d0, slope = ia - ib, sa - sb
        d_lo, d_hi = d0 + slope * lo, d0 + slope * hi
        s_lo, s_hi = _sign(d_lo), _sign(d_hi)
        if s_lo and last_sign and s_lo != last_sign:
            found.append(Crossing(lo, a_cheaper_after=s_lo < 0))
        if s_lo and s_hi and s_lo != s_hi:
            found.append(Crossing(-d0 / slope, a_cheaper_after=s_hi < 0))
        elif not s_lo and s_hi and last_sign and s_hi != last_sign:
            found.append(Crossing(lo, a_cheaper_after=s_hi < 0))
        last_sign = s_hi or s_lo or last_sign
        if limit is not None and len(found) >= limit:
            break
    return [c for c in found if c.hours <= until][:limit]
