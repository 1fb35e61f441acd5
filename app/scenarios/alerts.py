"""The price lists that moved a saved scenario's answer, as its feed announces them: the cheapest option
or its provider changed, or its month moved by more than 1 % since the last one announced, so a slow
drift is told once it adds up and a cent's wobble never."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from app.costing.quote import OptionKey, option_of
from app.costing.terms import Offer
from app.scenarios.versions import AtVersion, CostByVersion

MONTH_MOVE = Decimal("0.01")
"""A month that moves by more than this share of the last one told is news on its own."""


@dataclass(frozen=True)
class Moved:
    """A price list that moved the answer, and the answer last told (the saved one, at first)."""

    now: AtVersion
    was: AtVersion


def who_answers(row: AtVersion) -> tuple[object, ...]:
    """The answer without its figure: the cheapest option and its provider (for a split, the base on
    its base and burst offers), or why the price list cannot quote the inputs."""
    if row.split:
        offers = (row.split.base.offer if row.split.base else None, row.split.burst.offer if row.split.burst else None)
        return row.problem, row.split.split.base_gpus, tuple(_option_at(o) for o in offers)
    return row.problem, _option_at(row.best.offer if row.best else None)


def _option_at(offer: Offer | None) -> tuple[OptionKey, str] | None:
    return None if offer is None else (option_of(offer), offer.provider)


def moved(now: AtVersion, was: AtVersion) -> bool:
    if who_answers(now) != who_answers(was):
        return True
    if now.month is None or was.month is None or now.currency.code != was.currency.code:
        return False
    return abs(now.month - was.month) > MONTH_MOVE * abs(was.month)


def answer_moves(by_version: CostByVersion) -> list[Moved]:
    """Each price list quoted since saved that moved the answer, newest first as a feed lists them."""
    told = by_version.rows[0]
    moves = []
    for row in by_version.rows[1:]:
        if moved(row, told):
            moves.append(Moved(row, told))
            told = row
    return moves[::-1]
