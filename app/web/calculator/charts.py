"""The monthly-cost chart in numbers: each option's month against GPU-hours, one quote or several
overlaid, with the break-evens marked and numbered, drawn with the chart kit. No HTTP."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from app.costing.breakeven import BreakEven, listed_and_folded, nice_ceiling
from app.costing.curves import CostCurve
from app.costing.money import USD, Currency
from app.costing.quote import OptionKey, Quote
from app.web.chart_kit import (
    BADGE_PITCH,
    BADGE_R,
    COMPACT,
    END_LABEL_GAP,
    WIDE,
    EndLabel,
    Frame,
    Ticks,
    badge_rows,
    end_labels,
    even_steps,
    path_below,
    place_badges,
    spread,
    text_width,
    ticks,
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
    x_ticks: Ticks
    y_ticks: Ticks
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


Layered = tuple[tuple[int, ...], BreakEven]
"""A pair of options that cross, with the overlaid quotes it crosses in just so."""


@dataclass(frozen=True)
class _Plot:
    """The plot's box and its axes' ends: where GPU-hours and a month's USD fall, to a tenth of a pixel.
    Multiplied before divided, unlike a `Scale`: rounded to a tenth, the two differ where a place
    falls on a half, and the chart's coordinates stay as they were drawn."""

    left: int
    right: int
    top: int
    bottom: int
    x_max: float
    y_max: float
    currency: Currency

    def x(self, hours: float) -> float:
        return round(self.left + (self.right - self.left) * hours / self.x_max, 1)

    def y(self, usd: float) -> float:
        return round(self.bottom - (self.bottom - self.top) * self.currency.of(usd) / self.y_max, 1)

    def path(self, curve: CostCurve) -> str:
        """Exact corners; steps narrower than a pixel are read once per pixel column instead."""
        steps, width, x_max = curve.steps(self.x_max), self.right - self.left, self.x_max
        if len(steps) * 2 > width:
            columns = range(int(width) + 1)
            points = [(self.x(x_max * c / width), self.y(curve.at(x_max * c / width))) for c in columns]
        else:
            points = []
            for lo, hi in pairwise([0.0, *steps, x_max]):
                intercept, slope = curve.piece(lo, hi)
                points += [(self.x(lo), self.y(intercept + slope * lo)), (self.x(hi), self.y(intercept + slope * hi))]
        return path_below(points, self.top)


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
    y_max = _money_top(quotes, x_max, currency)
    pairs = _shared_pairs(quotes) if break_evens else []
    folded: list[BreakEven] = []
    if numbered is not None:
        listed, folded = listed_and_folded(quotes[0], numbered, y_max * currency.usd_per_unit)
        pairs = [((0,), pair) for pair in listed]
    rows = badge_rows(len(pairs), frame.right - frame.left)
    plot = _Plot(frame.left, frame.right, frame.top + rows * BADGE_PITCH, frame.bottom, x_max, y_max, currency)
    curves = {(layer, o.option): o.curve for layer, q in enumerate(quotes) for o in q.options}
    at_ends = _end_labels(curves, layer_names, plot, frame)
    if layer_names:
        widest = max((text_width(label.text, frame.text) for label in at_ends), default=0)
        room = max(END_LABEL_ROOM, math.ceil(END_LABEL_GAP + widest + 2 - frame.right_margin))
        plot = replace(plot, right=frame.right - room)
    chart = Chart(
        frame=frame,
        x_ticks=ticks(even_steps(x_max, frame.x_ticks), plot.x, lambda hours: f"{hours:,.0f}"),
        y_ticks=ticks(
            even_steps(y_max, 5),
            lambda money: plot.y(money * currency.usd_per_unit),
            lambda money: COMPACT(money, currency.symbol),
        ),
        y_title=f"{currency.code} per month",
        series=[Series(option, plot.path(curve), layer) for (layer, option), curve in curves.items()],
        break_evens=_marks(pairs, curves, plot, rows, frame.text + 10 + BADGE_R),
        end_labels=at_ends,
        plot_left=plot.left,
        plot_right=plot.right,
        plot_top=plot.top,
        plot_bottom=plot.bottom,
        folded=folded,
    )
    labels = [
        f"{layer_names[i]}: {hours_label(h)}" if len(current_hours) > 1 else f"yours: {hours_label(h)}"
        for i, h in enumerate(current_hours)
    ]
    return replace(chart, current=current_lines(chart, current_hours, labels, x_max))


def _money_top(quotes: list[Quote], x_max: float, currency: Currency) -> float:
    """The money axis's end, in `currency`: round, above the lines a buyer compares (SHOWN_ABOVE_CHEAPEST)."""
    at_end = [currency.of(o.curve.at(x_max)) for q in quotes for o in q.options]
    return nice_ceiling(max(1.0, min(max(at_end, default=0), SHOWN_ABOVE_CHEAPEST * min(at_end, default=0))))


def _shared_pairs(quotes: list[Quote]) -> list[Layered]:
    """Each pair of options that cross, once for all the quotes where it crosses just so, leftmost first."""
    shared: dict[tuple[object, ...], tuple[BreakEven, list[int]]] = {}
    for layer, q in enumerate(quotes):
        for pair in q.break_evens:
            if pair.crossings:
                same = (pair.a, pair.b, pair.more, *(c.hours for c in pair.crossings))
                shared.setdefault(same, (pair, []))[1].append(layer)
    return sorted(((tuple(layers), pair) for pair, layers in shared.values()), key=lambda f: f[1].crossings[0].hours)


def _end_labels(
    curves: dict[tuple[int, OptionKey], CostCurve], layer_names: Sequence[str], plot: _Plot, frame: Frame
) -> list[EndLabel]:
    """Each layer's name where its lines end, at the axis's right end (a line off the top ends at the top)."""
    named = curves.items() if layer_names else []
    ends = [(layer_names[layer], option, max(plot.top, plot.y(c.at(plot.x_max)))) for (layer, option), c in named]
    return end_labels(ends, frame.text, plot.top, plot.bottom)


def _marks(
    pairs: list[Layered], curves: dict[tuple[int, OptionKey], CostCurve], plot: _Plot, rows: int, first_y: float
) -> list[BreakEvenMark]:
    """Each pair's dots where it crosses (on the top edge where that is above the plot) and its badge."""
    crossings = [
        [
            (
                c.hours,
                plot.x(c.hours),
                max(plot.top, plot.y(curves[layers[0], pair.a].at(c.hours))),
                pair.cheaper_above(c),
            )
            for c in pair.crossings
        ]
        for layers, pair in pairs
    ]
    badges = place_badges([marks[0][1] for marks in crossings], plot.left, plot.right, rows, first_y)
    return [
        BreakEvenMark(n, pair.a, pair.b, layers, found, pair.more, *badge)
        for n, ((layers, pair), found, badge) in enumerate(zip(pairs, crossings, badges, strict=True), start=1)
    ]
