"""Numbers -> SVG geometry for the monthly-cost chart: scales, ticks, paths, markers. No HTTP."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import pairwise

from app.costing.breakeven import nice_ceiling
from app.costing.curves import CostCurve
from app.costing.money import USD, Currency
from app.costing.quote import OptionKey, Quote
from app.lru import Lru

WIDTH, HEIGHT = 720, 380
LEFT, RIGHT, TOP, BOTTOM = 72, 20, 16, 44


@dataclass(frozen=True)
class Series:
    option: OptionKey
    path: str
    layer: int = 0
    """Which quote of an overlay the line belongs to (drawn with its own dash pattern)."""


@dataclass(frozen=True)
class Marker:
    x: float
    y: float
    label: str
    show_label: bool


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    x_ticks: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    series: list[Series]
    break_evens: list[Marker]
    current_xs: list[float]
    plot_left: float
    plot_right: float
    plot_top: float
    plot_bottom: float
    key: tuple[object, ...] | None = field(default=None, compare=False)
    """Names a remembered drawing (its curves and axis); None for one drawn once."""


def _ticks(top: float, count: int = 5) -> list[float]:
    return [top * i / count for i in range(count + 1)]


def _money_label(value: float, symbol: str) -> str:
    if value >= 1_000_000:
        return f"{symbol}{value / 1_000_000:g}M"
    if value >= 1000:
        return f"{symbol}{value / 1000:g}k"
    return f"{symbol}{value:g}"


_drawn: Lru[tuple[object, ...], Chart] = Lru()
"""Charts by their curves and axis, the last 256; the key fixes the drawing, so nothing goes stale."""


def cost_chart(quote: Quote, current_hours: float, currency: Currency = USD) -> Chart:
    """Monthly total against GPU-hours for each option's offer, with the break-evens marked.

    Everything but the current-hours line depends only on the curves and the axis, which stay the
    same while the slider moves within a band: drawn once, remembered (the last 256 charts)."""
    key = (quote.hours_max, currency, *((o.option, o.curve) for o in quote.options))
    chart = _drawn.get(key)
    if chart is None:
        drawn = overlay_chart([quote], [current_hours], break_evens=True, currency=currency)
        chart = _drawn.put(key, replace(drawn, key=key))
    x = chart.plot_left + (chart.plot_right - chart.plot_left) * min(current_hours, quote.hours_max) / quote.hours_max
    return replace(chart, current_xs=[round(x, 1)])


def overlay_chart(
    quotes: list[Quote], current_hours: list[float], break_evens: bool = False, currency: Currency = USD
) -> Chart:
    """Several quotes' curves on one pair of axes, from 0 to the widest quote's hours_max; money in
    `currency` (the curves are USD)."""
    x_max = max(q.hours_max for q in quotes)
    y_max = nice_ceiling(max([currency.of(o.curve.at(x_max)) for q in quotes for o in q.options] + [1.0]))
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def x(hours: float) -> float:
        return round(left + (right - left) * hours / x_max, 1)

    def y(usd: float) -> float:
        return round(bottom - (bottom - top) * min(currency.of(usd), y_max) / y_max, 1)

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
        return "M" + " L".join(f"{px},{py}" for px, py in points)

    series = [
        Series(option.option, path(option.curve), layer)
        for layer, quote in enumerate(quotes)
        for option in quote.options
    ]

    markers: list[Marker] = []
    for quote in quotes if break_evens else []:
        curves = {o.option: o.curve for o in quote.options}
        for pair in quote.break_evens:
            for c in pair.crossings:
                px, py = x(c.hours), y(curves[pair.a].at(c.hours))
                crowded = any(m.show_label and abs(m.x - px) < 44 and abs(m.y - py) < 14 for m in markers)
                markers.append(Marker(px, py, f"{c.hours:,.0f} h", show_label=not crowded))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        x_ticks=[(x(h), f"{h:,.0f}") for h in _ticks(x_max)],
        y_ticks=[(y(v * currency.usd_per_unit), _money_label(v, currency.symbol)) for v in _ticks(y_max)],
        series=series,
        break_evens=markers,
        current_xs=[x(min(h, x_max)) for h in current_hours],
        plot_left=left,
        plot_right=right,
        plot_top=top,
        plot_bottom=bottom,
    )
