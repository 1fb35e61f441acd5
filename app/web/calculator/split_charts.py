"""The hybrid split's two charts as the results block draws them: the load-duration curve with the
base on it, and the month against the base, in the coordinates of their viewBox."""

from __future__ import annotations

from dataclasses import dataclass

from app.costing.hybrid import Split
from app.costing.money import Currency
from app.costing.terms import HOURS_PER_MONTH
from app.quoting.split import Pair, SplitQuote
from app.web.chart_kit import TENTHS_OF_K, Frame, Scale, Ticks, polyline, step_area, ticks
from app.web.templating import quantity

FRAME = Frame("wide", 480, 210, left=54, top=14, right_margin=20, bottom_margin=40, text=13)
"""One frame, which the page lays out beside the other chart or under it."""


@dataclass(frozen=True)
class Curve:
    """The load-duration curve (GPUs in use against the hours of the month, busiest first) in the
    chart's coordinates, the base's line on it, and the axis ticks."""

    area: str
    base_y: float
    y_ticks: Ticks
    x_ticks: Ticks


@dataclass(frozen=True)
class Line:
    """The month against the base, one point per number of units, with the best and the rule's marked."""

    points: str
    dots: tuple[tuple[float, float, int, bool, bool], ...]
    """x, y, units, the best, the rule's."""
    y_ticks: Ticks
    x_ticks: Ticks


def _y(value: float, top: float) -> float:
    """From the plot's bottom (0) up to its top (`top`); every value at the bottom where `top` is 0.
    Its own arithmetic rather than a `Scale`'s, whose last digit differs: the ticks are written unrounded."""
    return FRAME.top + (1 - value / top) * (FRAME.bottom - FRAME.top) if top > 0 else FRAME.bottom


def curve_drawn(q: SplitQuote, carried: float) -> Curve:
    top = max(1, q.profile[0][0] if q.profile else 1)
    x = Scale(0, HOURS_PER_MONTH, FRAME.left, FRAME.right)
    levels, at = [], 0.0
    for gpus, hours in q.profile:
        levels.append((x(at), x(at + hours), _y(gpus, top)))
        at += hours
    return Curve(
        step_area(levels, x(0), _y(0, top)),
        round(_y(min(carried, top), top), 1),
        ticks(sorted({0, top // 2, top}), lambda gpus: _y(gpus, top), quantity),
        ticks((0, 0.25, 0.5, 0.75, 1), lambda share: x(HOURS_PER_MONTH * share), "{:.0%}".format),
    )


def line_drawn(pair: Pair, months: int, currency: Currency) -> Line:
    totals = [month_of(s, months) for s in pair.splits]
    top, most = max(totals) * 1.05, max(1, len(totals) - 1)
    x = Scale(0, most, FRAME.left, FRAME.right)
    dots = tuple(
        (x.px(s.units), round(_y(t, top), 1), s.units, s.units == pair.best.units, s.units == pair.rule_units)
        for s, t in zip(pair.splits, totals, strict=True)
    )
    return Line(
        polyline(dots),
        dots,
        ticks(
            (0, top / 2, top / 1.05),
            lambda usd: _y(usd, top),
            lambda usd: TENTHS_OF_K(currency.of(usd), currency.symbol),
        ),
        ticks(range(0, most + 1, max(1, most // 8)), x, str),
    )


def month_of(split: Split, months: int) -> float:
    """The month with the base's term and setup fees spread over the horizon: what the split is chosen by."""
    return split.horizon / months
