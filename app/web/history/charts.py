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

LEFT, RIGHT, TOP, BOTTOM = 56, 24, 14, 36
TICK_GAP = 84
"""The least room between the dates under the axis, so that no two overlap."""
COUNT_BAND, COUNT_GAP, COUNT_FOOT = 60, 30, 8
"""The providers' band under the dates: its height with the gap above it (the dates' row) and below it."""


@dataclass(frozen=True)
class Frame:
    """A viewBox: a wide one for screens, a narrow one a phone shows at about its own size, so that its
    text stays readable."""

    name: str
    width: int
    height: int
    left: int = LEFT
    top: int = TOP

    @property
    def right(self) -> int:
        return self.width - RIGHT

    @property
    def bottom(self) -> int:
        """The prices' axis; the dates under it, the providers' band under those."""
        return self.height - BOTTOM - COUNT_BAND

    @property
    def count_top(self) -> int:
        return self.bottom + COUNT_GAP

    @property
    def count_bottom(self) -> int:
        return self.height - COUNT_FOOT


FRAMES = (Frame("wide", 640, 300), Frame("narrow", 360, 280))


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
    y_ticks: tuple[tuple[float, str], ...]
    x_ticks: tuple[tuple[float, str], ...]
    frame: Frame
    count: str = ""
    """SVG path of how many providers have a dated price, in the band under the dates."""
    count_ticks: tuple[tuple[float, str], ...] = ()
    marks: tuple[Mark, ...] = ()


Line = Sequence[tuple[date, Decimal | None]]
"""From each date, a price per GPU-hour until the next; None: no price from then on."""


def _step_path(line: Line, x: _Scale, y: _Scale, until: date) -> str:
    """Horizontal from each point to the next, vertical at the change; a gap where the price is None."""
    path, drawn = [], False
    for (day, price), nxt in zip(line, [*(d for d, _ in line[1:]), until], strict=False):
        if price is None:
            drawn = False
            continue
        at = f"{y(float(price)):.1f}"
        path.append(f"{'V' if drawn else f'M{x(day.toordinal()):.1f},'}{at}H{x(nxt.toordinal()):.1f}")
        drawn = True
    return "".join(path)


class _Scale:
    def __init__(self, lo: float, hi: float, start: float, end: float) -> None:
        self.lo, self.span, self.start, self.length = lo, (hi - lo) or 1.0, start, end - start

    def __call__(self, value: float) -> float:
        return self.start + (value - self.lo) / self.span * self.length


def _price_ticks(top: float) -> list[float]:
    """About four round prices from 0 to the top: steps of 1, 2 or 5 times a power of ten."""
    raw = top / 4
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 0.1 if raw >= 0.1 else 0.01
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return [i * step for i in range(int(top / step) + 1)]


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
    x = _Scale(first.toordinal(), until.toordinal(), frame.left, frame.right)
    y = _Scale(0, top, frame.bottom, frame.top)
    x_ticks = [(x(first.toordinal()), f"{first:%Y-%m}")]
    for tick, label in [*((date(year, 1, 1), str(year)) for year in range(first.year + 1, until.year + 1)),
                        (until, f"{until:%Y-%m}")]:  # fmt: skip
        if x(tick.toordinal()) - x_ticks[-1][0] > TICK_GAP:
            x_ticks.append((x(tick.toordinal()), label))
    most = max((n for _, n in counts), default=0)
    count_y = _Scale(0, most or 1, frame.count_bottom, frame.count_top)
    return StepChart(
        _step_path(cheapest, x, y, until),
        _step_path(median, x, y, until),
        _step_path(provider, x, y, until),
        tuple((round(x(day.toordinal()), 1), round(y(float(p)), 1)) for day, p in cheapest if p is not None),
        tuple((round(y(v), 1), f"{symbol}{v:,.2f}") for v in _price_ticks(top)),
        tuple((round(at, 1), label) for at, label in x_ticks),
        frame,
        _step_path([(day, Decimal(n)) for day, n in counts], x, count_y, until),
        tuple((round(count_y(n), 1), str(n)) for n in sorted({0, most})) if counts else (),
        tuple(
            Mark(round(x(day.toordinal()), 1), round(y(float(price)), 1), round(count_y(n), 1), kind, said)
            for day, price, n, kind, said in marks
        ),
    )
