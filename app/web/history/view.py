"""What the price history page shows of a GPU model's points: one step chart and table per series
(one tenancy, billing kind, price basis and currency), a provider's own line over each where asked,
the points behind each with their sources, and apart, the prices whose source gives no date."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from app.catalog.history import HistoryFilters
from app.costing.history import (
    Move,
    PriceBasis,
    PricePoint,
    Series,
    SeriesKey,
    Step,
    cheapest_points,
    provider_line,
    series_of,
)
from app.costing.money import SYMBOLS, price_shown
from app.costing.terms import Billing, Tenancy
from app.web.history.charts import FRAMES, StepChart, step_chart

BASES = {
    PriceBasis.LIST: "list prices",
    PriceBasis.ANNOUNCED: "prices announced for their date",
    PriceBasis.AGGREGATOR_MINIMUM: "an aggregator's minimum of each provider's offers (may include spot), "
    "not a list price",
    PriceBasis.MARKETPLACE_MEDIAN: "a marketplace's median of its offers, not a list price",
}


def _listed(names: Sequence[str]) -> str:
    """Names as a sentence lists them: a, b and c."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def moved_said(step: Step, names: Mapping[str, str]) -> str:
    """Why a step's cheapest moved, where a provider entering or leaving the tracked set moved it;
    empty for a price change or no move."""
    if step.moved_by is Move.ENTRY and step.mover:
        return f"the cheapest fell as {names[step.mover]} entered the tracked set (a first dated price), not by a cut"
    if step.moved_by is Move.EXIT and step.mover:
        return f"the cheapest rose as {names[step.mover]} left the tracked set (withdrawn), not by a price rise"
    return ""


@dataclass(frozen=True)
class SeriesView:
    series: Series
    option: tuple[Tenancy, Billing]
    basis: str
    symbol: str
    """The currency's sign; empty where the sources state no currency."""
    charts: tuple[StepChart, ...]
    """The same chart in each frame (FRAMES); none where no point of the series is dated."""
    steps: tuple[tuple[Step, PricePoint | None], ...]
    """Newest first, each with the point that sets its cheapest (its product and source)."""
    points: tuple[PricePoint, ...]
    """The asked provider's dated points in it, newest first; none where no provider was asked for."""
    own_line: tuple[tuple[date, Decimal | None], ...]
    """The asked provider's (or offer's) own line: its price from each day it changes."""
    undated: tuple[PricePoint, ...]
    """Its prices whose source gives no date (the asked provider's alone, where one is), cheapest first."""
    names: Mapping[str, str]
    """Each provider's name by key."""

    @property
    def key(self) -> SeriesKey:
        return self.series.key

    @property
    def undated_offered(self) -> tuple[PricePoint, ...]:
        """The undated prices still offered, cheapest first: what a headline may call the lowest."""
        return tuple(p for p in self.undated if p.withdrawn is None)

    @property
    def aggregated(self) -> bool:
        """Not a list price: drawn apart, never joined to one."""
        return self.key.price_basis in (PriceBasis.AGGREGATOR_MINIMUM, PriceBasis.MARKETPLACE_MEDIAN)

    @property
    def moves(self) -> int:
        """How many times the cheapest moved."""
        return sum(1 for s in self.series.steps if s.moved_by is not None)

    @property
    def membership_moves(self) -> int:
        """How many of those came as a provider entered or left the tracked set."""
        return sum(1 for s in self.series.steps if s.moved_by in (Move.ENTRY, Move.EXIT))

    def price(self, amount: Decimal | None) -> str:
        """A price per GPU-hour in cents, three significant figures below 1: $1.82, $0.123."""
        if amount is None:
            return "—"
        text = f"{price_shown(amount):,}"
        return f"{self.symbol}{text}" if self.symbol else f"{text} (currency not stated)"

    def moved(self, step: Step) -> str:
        return moved_said(step, self.names)

    def who(self, keys: Sequence[str]) -> str:
        """Providers by name, as a sentence lists them."""
        return _listed([self.names[k] for k in keys])


def series_views(points: Sequence[PricePoint], wanted: HistoryFilters, today: date) -> list[SeriesView]:
    """List prices first, the series with the most providers first among them; where a provider (or
    one offer's product) is asked for, only the series it is in, its own line drawn over each."""
    provider = wanted.provider
    names = {p.provider: p.who for p in points}
    views = []
    by_key: dict[SeriesKey, list[PricePoint]] = {}
    for point in points:
        by_key.setdefault(point.series_key, []).append(point)
    for series in series_of(points):
        key, points_of = series.key, by_key[series.key]
        own = [p for p in points_of if wanted.owns(p)]
        if not own:
            continue
        steps = tuple(zip(series.steps, cheapest_points(points_of, series), strict=True))[::-1]
        line = provider_line(own, key, provider) if provider else []
        symbol = SYMBOLS.get(key.currency, "")
        charts: tuple[StepChart, ...] = ()
        if series.steps:
            until = max(today, series.steps[-1].day)
            marks = [
                (s.day, s.cheapest, s.providers, s.moved_by.value, f"{s.day:%Y-%m-%d}: {moved_said(s, names)}")
                for s in series.steps
                if s.moved_by in (Move.ENTRY, Move.EXIT) and s.cheapest is not None
            ]
            charts = tuple(
                step_chart([(s.day, s.cheapest) for s in series.steps], [(s.day, s.median) for s in series.steps],
                           until, symbol, frame, line, series.tracking_since,
                           [(s.day, s.providers) for s in series.steps], marks)
                for frame in FRAMES
            )  # fmt: skip
        views.append(
            SeriesView(
                series,
                (Tenancy(key.tenancy), Billing(key.billing)),
                BASES[PriceBasis(key.price_basis)],
                symbol,
                charts,
                steps,
                tuple(sorted((p for p in own if p.day), key=lambda p: p.day or date.min, reverse=True))
                if provider
                else (),
                tuple(line),
                tuple(p for p in series.undated if wanted.owns(p)),
                names,
            )  # fmt: skip
        )
    return sorted(views, key=lambda v: (v.aggregated, -max((s.providers for s in v.series.steps), default=0), v.key))
