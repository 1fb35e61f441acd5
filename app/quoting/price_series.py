"""A GPU model's price history as both outputs state it: each step series of its points (costing/history.py)
with, at every step, the point that sets its cheapest and, by name, the providers that entered or left
and the one whose entry or exit moved the cheapest. Worked out once here, and only drawn and worded
by the page (web/history/view.py) and written by the API (out/history.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from app.costing.history import PricePoint, Series, SeriesKey, Step, cheapest_points, series_of


@dataclass(frozen=True)
class NamedStep:
    step: Step
    setter: PricePoint | None
    """The point whose price is the step's cheapest (its product and source); None where no provider is left."""
    entered: tuple[str, ...]
    left: tuple[str, ...]
    mover: str | None
    """The provider whose entry or exit moved the cheapest; None where a price change moved it, or nothing."""


@dataclass(frozen=True)
class PriceSeries:
    series: Series
    points: tuple[PricePoint, ...]
    """The points it is made of, dated and undated."""
    steps: tuple[NamedStep, ...]
    """Oldest first, one for each of the series' steps."""


def provider_names(points: Iterable[PricePoint]) -> dict[str, str]:
    """Each provider's name by key."""
    return {p.provider: p.who for p in points}


def price_series(points: Sequence[PricePoint]) -> list[PriceSeries]:
    """One for each series of `points`, in the series' key order."""
    names = provider_names(points)
    by_key: dict[SeriesKey, list[PricePoint]] = {}
    for point in points:
        by_key.setdefault(point.series_key, []).append(point)

    def named(step: Step, setter: PricePoint | None) -> NamedStep:
        mover = names[step.mover] if step.mover else None
        return NamedStep(step, setter, tuple(names[k] for k in step.entered), tuple(names[k] for k in step.left), mover)

    found = []
    for series in series_of(points):
        own = by_key[series.key]
        steps = tuple(named(s, p) for s, p in zip(series.steps, cheapest_points(own, series), strict=True))
        found.append(PriceSeries(series, tuple(own), steps))
    return found
