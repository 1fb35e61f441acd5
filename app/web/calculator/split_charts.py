"""The hybrid split's two charts as the results block draws them: the load-duration curve with the
base on it, and the month against the base, in the coordinates of their viewBox."""

from __future__ import annotations

from dataclasses import dataclass

from app.costing.hybrid import Split
from app.costing.money import Currency
from app.costing.terms import HOURS_PER_MONTH
from app.quoting.split import Pair, SplitQuote
from app.web.templating import quantity

WIDTH, HEIGHT = 480, 210
LEFT, RIGHT, TOP, BOTTOM = 54, 20, 14, 40


@dataclass(frozen=True)
class Frame:
    """Where the charts' plot area lies in their viewBox, for the template's axes and labels."""

    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    middle: float = (LEFT + WIDTH - RIGHT) / 2


FRAME = Frame()


@dataclass(frozen=True)
class Curve:
    """The load-duration curve (GPUs in use against the hours of the month, busiest first) in the
    chart's coordinates, the base's line on it, and the axis ticks."""

    area: str
    base_y: float
    y_ticks: tuple[tuple[float, str], ...]
    x_ticks: tuple[tuple[float, str], ...]


@dataclass(frozen=True)
class Line:
    """The month against the base, one point per number of units, with the best and the rule's marked."""

    points: str
    dots: tuple[tuple[float, float, int, bool, bool], ...]
    """x, y, units, the best, the rule's."""
    y_ticks: tuple[tuple[float, str], ...]
    x_ticks: tuple[tuple[float, str], ...]


def _x(hours: float) -> float:
    return LEFT + hours / HOURS_PER_MONTH * (WIDTH - LEFT - RIGHT)


def _y(value: float, top: float) -> float:
    return TOP + (1 - value / top) * (HEIGHT - TOP - BOTTOM) if top > 0 else HEIGHT - BOTTOM


def curve_drawn(q: SplitQuote, carried: float) -> Curve:
    top = max(1, q.profile[0][0] if q.profile else 1)
    path, at = [f"M{_x(0):.1f},{_y(0, top):.1f}"], 0.0
    for gpus, hours in q.profile:
        path.append(f"V{_y(gpus, top):.1f}H{_x(at + hours):.1f}")
        at += hours
    path.append(f"V{_y(0, top):.1f}Z")
    y_ticks = tuple((_y(v, top), quantity(v)) for v in sorted({0, top // 2, top}))
    x_ticks = tuple((_x(HOURS_PER_MONTH * share), f"{share:.0%}") for share in (0, 0.25, 0.5, 0.75, 1))
    return Curve("".join(path), round(_y(min(carried, top), top), 1), y_ticks, x_ticks)


def line_drawn(pair: Pair, months: int, currency: Currency) -> Line:
    totals = [month_of(s, months) for s in pair.splits]
    top, most = max(totals) * 1.05, max(1, len(totals) - 1)

    def x(units: int) -> float:
        return LEFT + units / most * (WIDTH - LEFT - RIGHT)

    dots = tuple(
        (round(x(s.units), 1), round(_y(t, top), 1), s.units, s.units == pair.best.units, s.units == pair.rule_units)
        for s, t in zip(pair.splits, totals, strict=True)
    )
    step = max(1, most // 8)
    x_ticks = tuple((x(u), str(u)) for u in range(0, most + 1, step))
    y_ticks = tuple((_y(v, top), _short(v, currency)) for v in (0, top / 2, top / 1.05))
    return Line(" ".join(f"{d[0]},{d[1]}" for d in dots), dots, y_ticks, x_ticks)


def _short(usd: float, currency: Currency) -> str:
    """An axis label: $12.3k, not $12,300.00."""
    value = currency.of(usd)
    return f"{currency.symbol}{value / 1000:,.1f}k" if value >= 1000 else f"{currency.symbol}{value:,.0f}"


def month_of(split: Split, months: int) -> float:
    """The month with the base's term and setup fees spread over the horizon: what the split is chosen by."""
    return split.horizon / months
