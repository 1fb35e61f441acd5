"""A training run's cost against the GPUs in it: one dot per size the catalog prices, GPUs across on
a log scale (each step a doubling), the run's cost on its cheapest option up from zero, each dot
labelled with its wall clock. The eye sees time fall and cost rise across nodes before it reads."""

from __future__ import annotations

import math
from dataclasses import dataclass

from app.costing.money import Currency
from app.costing.quote import OptionKey
from app.quoting.run_sizes import RunSize
from app.web.chart_kit import COMPACT, FRAMES, Frame, Scale, Ticks, apart, polyline, round_steps, ticks
from app.web.templating import duration


@dataclass(frozen=True)
class RunDot:
    x: float
    y: float
    label: str
    """Its wall clock, above it."""
    title: str
    """Every figure of the size, for a pointer that rests on it."""
    option: OptionKey
    complete: bool
    current: bool
    """The size asked for."""


@dataclass(frozen=True)
class RunChart:
    frame: Frame
    dots: tuple[RunDot, ...]
    line: str
    x_ticks: Ticks
    y_ticks: Ticks
    y_title: str


def run_chart(sizes: tuple[RunSize, ...], gpus: int, currency: Currency) -> tuple[RunChart, ...]:
    """The run at each size, in every frame; () with fewer than two sizes to set against each other."""
    if len(sizes) < 2:
        return ()
    return tuple(_drawn(frame, sizes, gpus, currency) for frame in FRAMES)


def _drawn(frame: Frame, sizes: tuple[RunSize, ...], gpus: int, currency: Currency) -> RunChart:
    lo, hi = math.log2(sizes[0].gpus), math.log2(sizes[-1].gpus)
    most = max(float(s.cost) for s in sizes) * 1.1  # room above the dearest for its label
    steps = round_steps(most)
    steps += [steps[-1] + steps[1]] if steps[-1] < most else []
    x = Scale(lo, hi, frame.left + 16, frame.right - 24)
    y = Scale(0, steps[-1], frame.bottom, frame.top + frame.text)
    xs = [x.px(math.log2(s.gpus)) for s in sizes]
    labelled = _labelled(xs, [s.gpus == gpus for s in sizes], 5.5 * frame.text)
    dots = tuple(
        RunDot(
            x_at, y.px(float(s.cost)), duration(s.wall_clock_hours) if shown else "",
            f"{s.gpus:,} GPUs: {duration(s.wall_clock_hours)}, {s.run_gpu_hours:,.0f} GPU-hours, "
            f"{currency.symbol}{s.cost:,.2f} for the run",
            s.option, s.complete, s.gpus == gpus,
        )
        for s, x_at, shown in zip(sizes, xs, labelled, strict=True)
    )  # fmt: skip
    at_x = tuple(apart(ticks(sizes, lambda s: x.px(math.log2(s.gpus)), lambda s: f"{s.gpus:,}"), 3 * frame.text))
    at_y = ticks(steps, y.px, lambda money: COMPACT(money, currency.symbol))
    return RunChart(frame, dots, polyline((d.x, d.y) for d in dots), at_x, at_y, f"{currency.code} for the run")


def _labelled(xs: list[float], current: list[bool], width: float) -> list[bool]:
    """Which dots carry their wall clock: the size asked for, then each other one clear of the labels
    kept, from the left, so that no two labels overlap."""
    kept = [x for x, now in zip(xs, current, strict=True) if now]
    shown = []
    for x, now in zip(xs, current, strict=True):
        clear = now or all(abs(x - k) >= width for k in kept)
        if clear and not now:
            kept.append(x)
        shown.append(clear)
    return shown
