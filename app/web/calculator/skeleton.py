"""A block of a template rendered once with a slot where each figure goes, and filled in per request:
what the calculator's results block costs a move of the slider, once the rest of it is kept."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, is_dataclass, replace
from itertools import count
from secrets import token_hex
from typing import Any

from markupsafe import Markup, escape

_SLOT = f"\x00{token_hex(8)}:"
"""Marks a figure's place in a skeleton: no text from the catalog or an input holds it."""


@dataclass(frozen=True)
class Skeleton:
    """A block rendered once, cut where its figures go: the same for every request of one shape."""

    pieces: tuple[bytes, ...]
    """UTF-8, as it is sent."""
    slots: tuple[int, ...]
    """After each piece but the last, the figure that follows it, by its place in `_leaves`."""

    @classmethod
    def cut(cls, render: Callable[[Any], str], figures: object) -> Skeleton:
        """`render` given `figures` with a marked slot for each figure in them (as `_walked` finds
        them), cut at the slots. The block must read what changes per request from `figures` alone."""
        slot = count()
        rendered = render(_walked(figures, lambda _: Markup(f"{_SLOT}{next(slot)}\x00")))
        parts = re.split(f"{re.escape(_SLOT)}(\\d+)\x00", rendered)
        return cls(tuple(piece.encode() for piece in parts[0::2]), tuple(int(n) for n in parts[1::2]))

    def filled(self, figures: object) -> bytes:
        """The block with these figures (shaped as the ones it was cut with), each escaped."""
        found = _leaves(figures, [])
        out = [self.pieces[0]]
        for slot, piece in zip(self.slots, self.pieces[1:], strict=True):
            out += (escape(found[slot]).encode(), piece)
        return b"".join(out)


def _walked(value: Any, leaf: Callable[[object], object]) -> Any:
    """`value` with each figure in it (a string or a number in its dataclasses and tuples) put through
    `leaf`, in the order of `_leaves`."""
    if value is None:
        return None
    if isinstance(value, tuple):
        return tuple(_walked(item, leaf) for item in value)
    if is_dataclass(value):
        return replace(value, **{name: _walked(item, leaf) for name, item in vars(value).items()})  # type: ignore[type-var]
    return leaf(value)


def _leaves(value: object, found: list[object]) -> list[object]:
    """The figures in `value`, in order: what `_walked` visits, without rebuilding anything (per move)."""
    if isinstance(value, tuple):
        for item in value:
            _leaves(item, found)
    elif hasattr(value, "__dataclass_fields__"):
        for item in vars(value).values():
            _leaves(item, found)
    elif value is not None:
        found.append(value)
    return found
