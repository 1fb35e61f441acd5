"""Where a chart's labels go so that none covers another or a line, and which part of a line shows:
pure geometry, no drawing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from app.costing.quote import OptionKey


@dataclass(frozen=True)
class Frame:
    """A canvas and its text size: a wide one for screens from 700 px, a narrow one for phones, each
    scaled so that its text shows at 11 px or more."""

    name: str
    width: int
    height: int
    left: int
    right: int
    bottom: int
    text: int
    x_ticks: int


WIDE = Frame("wide", 720, 420, left=80, right=24, bottom=50, text=13, x_ticks=5)
NARROW = Frame("narrow", 360, 360, left=60, right=14, bottom=46, text=12, x_ticks=4)
FRAMES = (WIDE, NARROW)

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
