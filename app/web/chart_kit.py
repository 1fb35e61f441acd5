"""What every chart of the site is drawn with, in its viewBox's coordinates: the frame and the plot in
it, scales, ticks and their labels (money among them), series paths, bars, and labels and badges
placed so that none covers another or a line. Pure geometry: the templates write the SVG."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TypeVar

from app.costing.quote import OptionKey

T = TypeVar("T")
Ticks = tuple[tuple[float, str], ...]
"""Each tick's place along its axis and its label."""


@dataclass(frozen=True)
class Frame:
    """A viewBox, the plot inside it (by its margins) and the size of its text. A chart drawn for
    screens and for phones has a frame for each, the stylesheet shows the one whose text stays at 11 px
    or more; its `name` is the class that tells them apart."""

    name: str
    width: int
    height: int
    left: int
    top: int
    right_margin: int
    bottom_margin: int
    text: int
    x_ticks: int = 5
    """Steps of an x-axis ticked evenly."""

    @property
    def right(self) -> int:
        return self.width - self.right_margin

    @property
    def bottom(self) -> int:
        return self.height - self.bottom_margin

    @property
    def middle(self) -> float:
        return (self.left + self.right) / 2


WIDE = Frame("wide", 720, 420, left=80, top=29, right_margin=24, bottom_margin=50, text=13, x_ticks=5)
NARROW = Frame("narrow", 360, 360, left=60, top=28, right_margin=14, bottom_margin=46, text=12, x_ticks=4)
FRAMES = (WIDE, NARROW)
"""The calculator's frames: each plot's top leaves a line of text above it for the current-hours labels."""


class Scale:
    """Values from `lo` to `hi` onto `start` to `end` in the viewBox (y grows downwards, so a y-scale
    runs from the plot's bottom to its top); a scale of no width puts every value at `start`."""

    def __init__(self, lo: float, hi: float, start: float, end: float) -> None:
        self.lo, self.span, self.start, self.length = lo, (hi - lo) or 1.0, start, end - start

    def __call__(self, value: float) -> float:
        return self.start + (value - self.lo) / self.span * self.length

    def px(self, value: float) -> float:
        """The place to a tenth of a unit, as a marker is drawn."""
        return round(self(value), 1)


def ticks(values: Iterable[T], at: Callable[[T], float], label: Callable[[T], str]) -> Ticks:
    """A tick at each value: where `at` places it and what `label` writes."""
    return tuple((at(value), label(value)) for value in values)


def even_steps(top: float, steps: int) -> list[float]:
    """From 0 to `top` in `steps` equal steps, both ends included."""
    return [top * i / steps for i in range(steps + 1)]


def round_steps(top: float) -> list[float]:
    """About four round values from 0 to the top: steps of 1, 2 or 5 times a power of ten."""
    raw = top / 4
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 0.1 if raw >= 0.1 else 0.01
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return [i * step for i in range(int(top / step) + 1)]


def apart(wanted: Sequence[tuple[float, str]], gap: float) -> list[tuple[float, str]]:
    """The first tick, then each more than `gap` after the last one kept, so that no two labels overlap."""
    kept = list(wanted[:1])
    for at, label in wanted[1:]:
        if at - kept[-1][0] > gap:
            kept.append((at, label))
    return kept


@dataclass(frozen=True)
class MoneyFormat:
    """How a money axis writes an amount after the currency's symbol: divided by the first of `units`
    (size, suffix) it reaches, in the `scaled` format spec; below them all, as it is in the `plain` one."""

    units: tuple[tuple[int, str], ...]
    scaled: str
    plain: str

    def __call__(self, value: float, symbol: str) -> str:
        for size, suffix in self.units:
            if value >= size:
                return f"{symbol}{value / size:{self.scaled}}{suffix}"
        return f"{symbol}{value:{self.plain}}"


COMPACT = MoneyFormat(((1_000_000, "M"), (1000, "k")), "g", "g")
"""$300, $2.5k, $1M: a month's cost on an axis of round steps."""
TENTHS_OF_K = MoneyFormat(((1000, "k"),), ",.1f", ",.0f")
"""$850, $12.3k: a month on an axis of uneven steps."""
CENTS = MoneyFormat((), "", ",.2f")
"""$2.49: a price per GPU-hour."""


def path_below(points: Sequence[tuple[float, float]], top: float) -> str:
    """An SVG path through `points`, cut where it rises above `top` (y grows downwards) and taken
    up again where it comes back: a line off the chart leaves through the top, never runs along it."""
    if not points:
        return ""
    x0, y0 = points[0]
    parts = [f"M{x0},{y0}"] if y0 >= top else []
    for (xa, ya), (xb, yb) in pairwise(points):
        edge = round(xa + (xb - xa) * (top - ya) / (yb - ya), 1) if (ya < top) != (yb < top) else None
        if ya >= top and yb >= top:
            parts.append(f"L{xb},{yb}")
        elif ya >= top:
            parts.append(f"L{edge},{top}")
        elif yb >= top:
            parts.append(f"M{edge},{top} L{xb},{yb}")
    return " ".join(parts)


Step = tuple[float, float, float | None]
"""A level held from one x to the next: x from, x to, y; None where there is none."""


def _steps(steps: Iterable[Step], drawn: bool) -> str:
    path = []
    for start, end, y in steps:
        if y is None:
            drawn = False
            continue
        path.append(f"{'V' if drawn else f'M{start:.1f},'}{y:.1f}H{end:.1f}")
        drawn = True
    return "".join(path)


def step_path(steps: Iterable[Step]) -> str:
    """An SVG path of levels: horizontal along each, vertical at a change, a gap where there is none."""
    return _steps(steps, drawn=False)


def step_area(steps: Iterable[Step], start: float, base: float) -> str:
    """The area under levels down to `base`, from x = `start`, closed: to fill and to clip by."""
    return f"M{start:.1f},{base:.1f}{_steps(steps, drawn=True)}V{base:.1f}Z"


def polyline(points: Iterable[tuple[float, ...]]) -> str:
    """An SVG polyline's points through each point's x and y."""
    return " ".join(f"{p[0]},{p[1]}" for p in points)


def stacked(parts: Iterable[float], scale: float) -> list[tuple[float, float]]:
    """Where each part of a stacked bar starts and how long it is, `scale` units to a value."""
    drawn, at = [], 0.0
    for part in parts:
        drawn.append((at, part * scale))
        at += part * scale
    return drawn


BADGE_R = 10
"""Radius of a break-even's numbered badge."""
BADGE_PITCH = 2 * BADGE_R + 4
"""Distance between badge centres, across and down."""
END_LABEL_GAP = 8
"""From the plot's right edge to the text of a line's end label."""
SAME_END = 2.0
"""Line ends closer than this (px, about a line's width) look like one: they share one label."""


def text_width(text: str, size: int) -> float:
    """A generous estimate of a label's width in a sans-serif face, for keeping labels apart."""
    return len(text) * size * 0.62


def spread(wanted: Sequence[float], widths: Sequence[float], lo: float, hi: float, gap: float = 4) -> list[float]:
    """Centres for labels on one line, each as near its wanted place as the others allow: sorted by
    place, pushed apart by their half widths, then pulled back inside [lo, hi]. Order is kept."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    edge = lo
    for i in order:
        placed[i] = max(wanted[i], edge + widths[i] / 2)
        edge = placed[i] + widths[i] / 2 + gap
    edge = hi
    for i in reversed(order):
        placed[i] = min(placed[i], edge - widths[i] / 2)
        edge = placed[i] - widths[i] / 2 - gap
    return [round(p, 1) for p in placed]


def shared_ends(ys: Sequence[float]) -> list[list[int]]:
    """The line ends that meet, as groups of indices into `ys` (top to bottom, each in index
    order): a chain of ends each within SAME_END of the next is one group, which one label names."""
    groups: list[list[int]] = []
    last = None
    for i in sorted(range(len(ys)), key=lambda i: ys[i]):
        if last is None or ys[i] - last >= SAME_END:
            groups.append([])
        groups[-1].append(i)
        last = ys[i]
    return [sorted(group) for group in groups]


@dataclass(frozen=True)
class EndLabel:
    """The layers' names beside a line's end ("1, 2" where their lines end together), moved up or
    down just enough to clear the others."""

    text: str
    option: OptionKey
    line_y: float
    y: float


def end_labels(ends: Sequence[tuple[str, OptionKey, float]], size: int, top: float, bottom: float) -> list[EndLabel]:
    """A label for each point where lines end (each line's layer name, option and end's y): one for
    the lines that end together, naming each of their layers once, each label (`size` px text)
    clear of the others between `top` and `bottom`."""
    groups = [[ends[i] for i in group] for group in shared_ends([end_y for _, _, end_y in ends])]
    ys = spread([group[0][2] for group in groups], [size + 1] * len(groups), top, bottom + size / 2, gap=1)
    return [
        EndLabel(", ".join(dict.fromkeys(name for name, _, _ in group)), group[0][1], group[0][2], label_y)
        for group, label_y in zip(groups, ys, strict=True)
    ]


def badge_rows(count: int, width: float) -> int:
    """Rows of badges above the plot: as many as it takes for every badge to sit apart."""
    return -(-count // int(width // BADGE_PITCH)) if count else 0


def place_badges(xs: Sequence[float], lo: float, hi: float, rows: int, first_y: float) -> list[tuple[float, float]]:
    """Badge centres for marks at `xs` (left to right), in `rows` rows from `first_y` down: taken
    in turn, so that neighbours sit in different rows and move aside as little as possible."""
    centres: list[tuple[float, float]] = [(0.0, 0.0)] * len(xs)
    for row in range(rows):
        members = list(range(row, len(xs), rows))
        placed = spread([xs[i] for i in members], [2 * BADGE_R] * len(members), lo, hi)
        for i, x in zip(members, placed, strict=True):
            centres[i] = x, first_y + row * BADGE_PITCH
    return centres
