"""Where a job rests on the estimate, how the estimate compares with the published benchmarks it was
checked on: one dot per benchmark, published output tokens per second per GPU across, the estimate
made without that benchmark up, both on log scales, with the line where they would be equal. Dots
near the line are benchmarks the estimate met; the eye sees the spread before it reads the numbers."""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.quoting.build import QuoteResult
from app.quoting.estimates import Checked, group_checks
from app.web.chart_kit import FRAMES, Frame, Scale, Ticks, ticks


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    title: str
    """The benchmark and both figures, for a pointer that rests on it."""


@dataclass(frozen=True)
class ChecksPlot:
    frame: Frame
    dots: tuple[Dot, ...]
    equal: tuple[float, float, float, float]
    """The line estimate = published, from its lower left to its upper right end."""
    x_ticks: Ticks
    y_ticks: Ticks


def _decades(lo: float, hi: float) -> list[float]:
    """The powers of ten from below `lo` to above `hi`."""
    return [10.0**e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)]


def _per_gpu(value: float) -> str:
    return f"{value / 1000:g}k" if value >= 1000 else f"{value:g}"


def estimate_checks(result: QuoteResult) -> tuple[ChecksPlot, ...]:
    """The checks of the calibration the job's estimate used, in every frame; () unless it rests on one."""
    job = result.job
    if job is None or job.estimated is None:
        return ()
    checks = group_checks(result.catalog, job.estimated.group)
    if not checks:
        return ()
    points = [
        (c.check.published / c.benchmarked.record.gpus, c.check.estimated / c.benchmarked.record.gpus, c)
        for c in checks
    ]
    decades = _decades(min(min(p, e) for p, e, _ in points), max(max(p, e) for p, e, _ in points))
    return tuple(_plot(frame, points, decades) for frame in FRAMES)


def _plot(frame: Frame, points: list[tuple[float, float, Checked]], decades: list[float]) -> ChecksPlot:
    lo, hi = math.log10(decades[0]), math.log10(decades[-1])
    x, y = Scale(lo, hi, frame.left, frame.right), Scale(lo, hi, frame.bottom, frame.top)
    dots = tuple(
        Dot(x.px(math.log10(p)), y.px(math.log10(e)),
            f"{c.check.key}: published {p:,.0f}, estimated {e:,.0f} tokens/s per GPU ({c.check.error:+.0%})")
        for p, e, c in points
    )  # fmt: skip
    at_x = ticks(decades, lambda d: x.px(math.log10(d)), _per_gpu)
    at_y = ticks(decades, lambda d: y.px(math.log10(d)), _per_gpu)
    return ChecksPlot(frame, dots, (x.px(lo), y.px(lo), x.px(hi), y.px(hi)), at_x, at_y)
