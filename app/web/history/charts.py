"""A price history's step chart as the history page draws it: the cheapest and the median price per
GPU-hour of one series over time, and a provider's own line where asked, in the viewBox's coordinates;
under them, on the same dates, a band of how many providers have a dated price, so that a step of the
cheapest that is a provider entering or leaving is seen as one. A price holds until the next step, so
every line is horizontal then vertical, never a slope."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from app.web.chart_kit import CENTS, Frame, Scale, Step, Ticks, apart, round_steps, step_path, ticks

TICK_GAP = 84
"""The least room between the dates under the axis, so that no two overlap."""
COUNT_BAND, COUNT_GAP, COUNT_FOOT = 60, 30, 8
"""The providers' band under the dates: its height with the gap above it (the dates' row) and below it."""


def _frame(name: str, width: int, height: int) -> Frame:
    """The prices' plot, the dates under its axis, the providers' band under those."""
    return Frame(name, width, height, left=56, top=14, right_margin=24, bottom_margin=36 + COUNT_BAND, text=12)


FRAMES = (_frame("wide", 640, 300), _frame("narrow", 360, 280))
"""A wide frame for screens, a narrow one a phone shows at about its own size, so that its text stays readable."""


@dataclass(frozen=True)
class Mark:
    """A step where the cheapest moved because a provider entered or left: on the cheapest line (`y`)
    and on the providers' band (`count_y`), with what happened in words."""

    x: float
    y: float
    count_y: float
    kind: str
    """A costing.history.Move: `entry` or `exit`."""
    said: str


@dataclass(frozen=True)
class StepChart:
    cheapest: str
    """SVG path of the cheapest price; empty where it has none."""
    median: str
    provider: str
    """The provider's own line, where one was asked for."""
    dots: tuple[tuple[float, float], ...]
    """The cheapest at each step: each a row of the table, with the offer that sets it and its source."""
    y_ticks: Ticks
    x_ticks: Ticks
    frame: Frame
    count: str = ""
    """SVG path of how many providers have a dated price, in the band under the dates."""
    count_ticks: Ticks = ()
    marks: tuple[Mark, ...] = ()


Line = Sequence[tuple[date, Decimal | None]]
"""From each date, a price per GPU-hour until the next; None: no price from then on."""


def _levels(line: Line, x: Scale, y: Scale, until: date) -> list[Step]:
    """Each price from its date to the next one's (the last to `until`), in the viewBox."""
    ends = [*(day for day, _ in line[1:]), until]
    return [
        (x(day.toordinal()), x(end.toordinal()), None if price is None else y(float(price)))
        for (day, price), end in zip(line, ends, strict=False)
    ]


def _date_ticks(first: date, until: date, x: Scale) -> Ticks:
    """The first month, each new year and the last month, those that fit apart."""
    wanted = [
        (first, f"{first:%Y-%m}"),
        *((date(year, 1, 1), str(year)) for year in range(first.year + 1, until.year + 1)),
        (until, f"{until:%Y-%m}"),
    ]
    placed = apart([(x(day.toordinal()), label) for day, label in wanted], TICK_GAP)
    return tuple((round(at, 1), label) for at, label in placed)


def step_chart(
    cheapest: Line,
    median: Line,
    until: date,
    symbol: str,
    frame: Frame,
    provider: Line = (),
    start: date | None = None,
    counts: Sequence[tuple[date, int]] = (),
    marks: Sequence[tuple[date, Decimal, int, str, str]] = (),
) -> StepChart:
    """`until`: where the last prices end (today); `start`: the first day drawn (the series' first);
    `counts`: the providers with a dated price from each day; `marks`: (day, the cheapest, providers,
    entry or exit, what happened) of each step the cheapest took because a provider entered or left."""
    first = start or min(day for day, _ in [*cheapest, *provider])
    prices = [float(p) for _, p in [*cheapest, *median, *provider] if p is not None]
    top = max(prices, default=1.0) * 1.1
    x = Scale(first.toordinal(), until.toordinal(), frame.left, frame.right)
    y = Scale(0, top, frame.bottom, frame.top)
    most = max((n for _, n in counts), default=0)
    band = Scale(0, most or 1, frame.height - COUNT_FOOT, frame.bottom + COUNT_GAP)
    return StepChart(
        step_path(_levels(cheapest, x, y, until)),
        step_path(_levels(median, x, y, until)),
        step_path(_levels(provider, x, y, until)),
        tuple((x.px(day.toordinal()), y.px(float(p))) for day, p in cheapest if p is not None),
        ticks(round_steps(top), y.px, lambda price: CENTS(price, symbol)),
        _date_ticks(first, until, x),
        frame,
        step_path(_levels([(day, Decimal(n)) for day, n in counts], x, band, until)),
        ticks(sorted({0, most}), band.px, str) if counts else (),
        tuple(
            Mark(x.px(day.toordinal()), y.px(float(price)), band.px(n), kind, said)
            for day, price, n, kind, said in marks
        ),
    )
