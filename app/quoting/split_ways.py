"""The hybrid split's answer beside bursting all of it and dedicating the peak, as the quote has them:
each way's split of the profile and the offers it runs on, what the answer costs less than each, and
a serving job's answer per million output tokens. Worked out once here, and only formatted by the
page (web/calculator/split_results.py) and the API (out/split.py)."""

from __future__ import annotations

from dataclasses import dataclass

from app.costing.hybrid import Split
from app.costing.quote import PricedOffer
from app.quoting.build import QuoteResult
from app.quoting.per_output import per_million
from app.quoting.split import Alone, SplitQuote


@dataclass(frozen=True)
class Way:
    """One way of carrying the profile: its split, the base and burst offers it runs on (None where it
    has none), and whether every price it needs is published."""

    name: str
    split: Split
    base: PricedOffer | None
    burst: PricedOffer | None
    complete: bool
    saved: float
    """USD over the horizon that the answer costs less than this way: 0 for the answer itself, negative
    only where this way looks cheaper for leaving out an unpublished price (DOMAIN.md: options are
    compared on what the horizon costs)."""
    months: int

    @property
    def saved_a_month(self) -> float:
        """`saved` per month of the horizon."""
        return self.saved / self.months

    @property
    def data_at(self) -> PricedOffer:
        """The offer whose provider holds the data: the base's where there is a base, else the burst's."""
        at = self.base if self.split.units else self.burst
        assert at is not None, "a profile has a GPU in use: no base units means a burst"
        return at


@dataclass(frozen=True)
class SplitWays:
    quote: SplitQuote
    answer: Way
    """The cheapest way: the pair's best; where the filters leave no base or no burst option, the one alone."""
    all_burst: Way | None
    all_reserved: Way | None
    per_million: float | None
    """A serving job's answer: USD of its month per million output tokens; None for any other split."""

    @property
    def ways(self) -> tuple[Way, ...]:
        """The answer, then bursting all of it and dedicating the peak, where offers are left for them."""
        return tuple(w for w in (self.answer, self.all_burst, self.all_reserved) if w is not None)


def split_ways(result: QuoteResult) -> SplitWays | None:
    """None where the job states no split, or no offer is left to carry it."""
    q = result.split
    found = None if q is None else q.answer
    if q is None or found is None:
        return None
    answer = Way("The split", found.split, found.base, found.burst, found.complete, 0.0, q.months)

    def alone(name: str, way: Alone | None, reserved: bool) -> Way | None:
        if way is None:
            return None
        base, burst = (way.offer, None) if reserved else (None, way.offer)
        saved = way.split.horizon - found.split.horizon
        return Way(name, way.split, base, burst, way.offer.complete, saved, q.months)

    return SplitWays(
        q, answer, alone("All burst", q.all_burst, False), alone("All dedicated", q.all_reserved, True),
        per_million(result, found.split.total),
    )  # fmt: skip
