"""Numbers -> SVG geometry for the monthly-cost chart: scales, ticks, paths, labels placed so that
none overlaps another or a line. No HTTP."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from app.costing.breakeven import BreakEven, listed_and_folded, nice_ceiling
from app.costing.curves import CostCurve
from app.costing.money import USD, Currency
from app.costing.quote import OptionKey, Quote
from app.web.chart_layout import (
    BADGE_PITCH,
    BADGE_R,
    END_LABEL_GAP,
    WIDE,
    EndLabel,
    Frame,
    badge_rows,
    end_labels,
    path_below,
    place_badges,
    spread,
    text_width,
)

SHOWN_ABOVE_CHEAPEST = 4
"""The money axis ends near this many times the cheapest line's end: dearer lines leave through
the top rather than flatten the cheap ones a buyer compares."""
NUMBERED = 5
"""Break-evens numbered on the calculator's chart, those that matter first; the rest are folded."""
END_LABEL_ROOM = 30
"""Least right margin for the scenario numbers at the lines' ends, when a chart overlays scenarios;
wider where one label names several lines ending together."""


@dataclass(frozen=True)
class Series:
    option: OptionKey
    path: str
    layer: int = 0
    """Which quote of an overlay the line belongs to (drawn with its own dash pattern)."""

    @property
    def off_top(self) -> bool:
        """Dearer everywhere than the money axis reaches: the legend says so, as nothing is drawn."""
        return not self.path


@dataclass(frozen=True)
class BreakEvenMark:
    """Where a pair of options cost the same: dots at each crossing and one numbered badge above the
    plot, joined to the first crossing; the list under the chart reads the same number."""

    number: int
    a: OptionKey
    b: OptionKey
    layers: tuple[int, ...]
    """The overlaid quotes where this pair crosses just so: one mark for all of them."""
    crossings: list[tuple[float, float, float, OptionKey]]
    """Per crossing: GPU-hours, x, y and the option cheaper above it."""
    more: bool
    badge_x: float
    badge_y: float


@dataclass(frozen=True)
class CurrentLine:
    x: float
    label: str
    label_x: float


@dataclass(frozen=True)
class Chart:
    frame: Frame
    x_ticks: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    y_title: str
    series: list[Series]
    break_evens: list[BreakEvenMark]
    end_labels: list[EndLabel]
    plot_left: float
    plot_right: float
    plot_top: float
    plot_bottom: float
    current: list[CurrentLine] = field(default_factory=list)
    folded: list[BreakEven] = field(default_factory=list)
    """Break-evens listed under the fold, not drawn (`listed_and_folded`)."""

    @property
    def width(self) -> int:
        return self.frame.width

    @property
    def height(self) -> int:
        return self.frame.height


def _money_label(value: float, symbol: str) -> str:
    if value >= 1_000_000:
        return f"{symbol}{value / 1_000_000:g}M"
    if value >= 1000:
        return f"{symbol}{value / 1000:g}k"
    return f"{symbol}{value:g}"


def current_lines(chart: Chart, hours: Sequence[float], labels: Sequence[str], x_max: float) -> list[CurrentLine]:
    """The GPU-hours lines of this request and their labels above the plot, apart from each other."""
    span = chart.plot_right - chart.plot_left
    xs = [round(chart.plot_left + span * min(h, x_max) / x_max, 1) for h in hours]
    widths = [text_width(label, chart.frame.text) for label in labels]
    label_xs = spread(xs, widths, 2, chart.frame.width - 2, gap=8)
    return [CurrentLine(x, label, lx) for x, label, lx in zip(xs, labels, label_xs, strict=True)]


def hours_label(hours: float) -> str:
    return f"{hours:,.0f} GPU-h"


def yours(chart: Chart, hours: float, x_max: float) -> list[CurrentLine]:
    """This request's GPU-hours line and its label, "yours": all that a move of the slider within a
    band redraws (the rest depends only on the curves and the axis, which stay put)."""
    return current_lines(chart, [hours], [f"yours: {hours_label(hours)}"], x_max)


def options_chart(quote: Quote, currency: Currency = USD, frame: Frame = WIDE) -> Chart:
    """Monthly total against GPU-hours for each option's offer, with the break-evens that matter marked."""
    return overlay_chart([quote], [], break_evens=True, currency=currency, frame=frame, numbered=NUMBERED)


def cost_chart(quote: Quote, current_hours: float, currency: Currency = USD, frame: Frame = WIDE) -> Chart:
    drawn = options_chart(quote, currency, frame)
    return replace(drawn, current=yours(drawn, current_hours, quote.hours_max))


def overlay_chart(
    quotes: list[Quote],
    current_hours: list[float],
    break_evens: bool = False,
    currency: Currency = USD,
    frame: Frame = WIDE,
    layer_names: Sequence[str] = (),
    numbered: int | None = None,
) -> Chart:
    """Several quotes' curves on one pair of axes, from 0 to the widest quote's hours_max; money in
    `currency` (the curves are USD). With `layer_names`, each line's end carries its layer's name.
    With `numbered` (one quote), its break-evens that matter come first and only so many are drawn."""
    x_max = max(q.hours_max for q in quotes)
    at_end = [currency.of(o.curve.at(x_max)) for q in quotes for o in q.options]
    y_max = nice_ceiling(max(1.0, min(max(at_end, default=0), SHOWN_ABOVE_CHEAPEST * min(at_end, default=0))))
    shared: dict[tuple[object, ...], tuple[BreakEven, list[int]]] = {}
    for layer, q in enumerate(quotes if break_evens else []):
        for pair in q.break_evens:
            if pair.crossings:
                same = (pair.a, pair.b, pair.more, *(c.hours for c in pair.crossings))
                shared.setdefault(same, (pair, []))[1].append(layer)
    pairs = sorted(((tuple(layers), pair) for pair, layers in shared.values()), key=lambda f: f[1].crossings[0].hours)
    folded: list[BreakEven] = []
    if numbered is not None:
        listed, folded = listed_and_folded(quotes[0], numbered, y_max * currency.usd_per_unit)
        pairs = [((0,), pair) for pair in listed]
    rows = badge_rows(len(pairs), frame.width - frame.left - frame.right)
    top = frame.text + 10 + rows * BADGE_PITCH + 6
    bottom = frame.height - frame.bottom

    def y(usd: float) -> float:
        return round(bottom - (bottom - top) * currency.of(usd) / y_max, 1)

    curves = {(layer, o.option): o.curve for layer, q in enumerate(quotes) for o in q.options}
    named = curves.items() if layer_names else []
    ends = [(layer_names[layer], option, max(top, y(c.at(x_max)))) for (layer, option), c in named]
    at_ends = end_labels(ends, frame.text, top, bottom)
    widest = max((text_width(label.text, frame.text) for label in at_ends), default=0)
    room = max(END_LABEL_ROOM, math.ceil(END_LABEL_GAP + widest + 2 - frame.right)) if layer_names else 0
    left, right = frame.left, frame.width - frame.right - room

    def x(hours: float) -> float:
        return round(left + (right - left) * hours / x_max, 1)

    def path(curve: CostCurve) -> str:
        """Exact corners; steps narrower than a pixel are read once per pixel column instead."""
        steps = curve.steps(x_max)
        if len(steps) * 2 > right - left:
            columns = range(int(right - left) + 1)
            points = [(x(x_max * c / (right - left)), y(curve.at(x_max * c / (right - left)))) for c in columns]
        else:
            points = []
            for lo, hi in pairwise([0.0, *steps, x_max]):
                intercept, slope = curve.piece(lo, hi)
                points += [(x(lo), y(intercept + slope * lo)), (x(hi), y(intercept + slope * hi))]
        return path_below(points, top)

    series = [Series(option, path(curve), layer) for (layer, option), curve in curves.items()]

    crossings = [
        [
            (c.hours, x(c.hours), max(top, y(curves[layers[0], pair.a].at(c.hours))), pair.cheaper_above(c))
            for c in pair.crossings
        ]
        for layers, pair in pairs
    ]
    badges = place_badges([marks[0][1] for marks in crossings], left, right, rows, frame.text + 10 + BADGE_R)
    marks = [
        BreakEvenMark(n, pair.a, pair.b, layers, found, pair.more, *badge)
        for n, ((layers, pair), found, badge) in enumerate(zip(pairs, crossings, badges, strict=True), start=1)
    ]

    chart = Chart(
        frame=frame,
        x_ticks=[(x(x_max * i / frame.x_ticks), f"{x_max * i / frame.x_ticks:,.0f}") for i in range(frame.x_ticks + 1)],
        y_ticks=[
            (y(y_max * i / 5 * currency.usd_per_unit), _money_label(y_max * i / 5, currency.symbol)) for i in range(6)
        ],
        y_title=f"{currency.code} per month",
        series=series,
        break_evens=marks,
        end_labels=at_ends,
        plot_left=left,
        plot_right=right,
        plot_top=top,
        plot_bottom=bottom,
        folded=folded,
    )
    labels = [
        f"{layer_names[i]}: {hours_label(h)}" if len(current_hours) > 1 else f"yours: {hours_label(h)}"
        for i, h in enumerate(current_hours)
    ]
    return replace(chart, current=current_lines(chart, current_hours, labels, x_max))
