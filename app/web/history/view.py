"""What the price history page shows of a GPU model's points: one step chart and table per series
(one tenancy, billing kind, price basis and currency), a provider's own line over each where asked,
the points behind each with their sources, and apart, the prices whose source gives no date."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from app.catalog.history import HistoryFilters
from app.costing.history import Move, PriceBasis, PricePoint, Series, SeriesKey, provider_line
from app.costing.money import SYMBOLS, price_shown
from app.costing.terms import Billing, Tenancy
from app.quoting.price_series import NamedStep, PriceSeries, price_series
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


def moved_said(named: NamedStep) -> str:
    """Why a step's cheapest moved, where a provider entering or leaving the tracked set moved it;
    empty for a price change or no move."""
    if named.step.moved_by is Move.ENTRY and named.mover:
        return f"the cheapest fell as {named.mover} entered the tracked set (a first dated price), not by a cut"
    if named.step.moved_by is Move.EXIT and named.mover:
        return f"the cheapest rose as {named.mover} left the tracked set (withdrawn), not by a price rise"
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
    steps: tuple[NamedStep, ...]
    """Newest first, each with the point that sets its cheapest (its product and source)."""
    points: tuple[PricePoint, ...]
    """The asked provider's dated points in it, newest first; none where no provider was asked for."""
    own_line: tuple[tuple[date, Decimal | None], ...]
    """The asked provider's (or offer's) own line: its price from each day it changes."""
    undated: tuple[PricePoint, ...]
    """Its prices whose source gives no date (the asked provider's alone, where one is), cheapest first."""

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

    @staticmethod
    def moved(named: NamedStep) -> str:
        return moved_said(named)

    @staticmethod
    def listed(names: Sequence[str]) -> str:
        """Providers by name, as a sentence lists them."""
        return _listed(names)


def series_views(points: Sequence[PricePoint], wanted: HistoryFilters, today: date) -> list[SeriesView]:
    """List prices first, the series with the most providers first among them; where a provider (or
    one offer's product) is asked for, only the series it is in, its own line drawn over each."""
    views = [_view(found, wanted, today) for found in price_series(points) if any(map(wanted.owns, found.points))]
    return sorted(views, key=lambda v: (v.aggregated, -max((s.providers for s in v.series.steps), default=0), v.key))


def _view(found: PriceSeries, wanted: HistoryFilters, today: date) -> SeriesView:
    series, provider = found.series, wanted.provider
    own = [p for p in found.points if wanted.owns(p)]
    line = provider_line(own, series.key, provider) if provider else []
    symbol = SYMBOLS.get(series.key.currency, "")
    dated = sorted((p for p in own if p.day), key=lambda p: p.day or date.min, reverse=True) if provider else []
    return SeriesView(
        series, (Tenancy(series.key.tenancy), Billing(series.key.billing)), BASES[PriceBasis(series.key.price_basis)],
        symbol, _charts(found, symbol, line, today), found.steps[::-1], tuple(dated), tuple(line),
        tuple(p for p in series.undated if wanted.owns(p)),
    )  # fmt: skip


def _charts(
    found: PriceSeries, symbol: str, line: list[tuple[date, Decimal | None]], today: date
) -> tuple[StepChart, ...]:
    """The series' step chart in each frame, the asked provider's line over it; none where no point is dated."""
    steps = found.series.steps
    if not steps:
        return ()
    marks = [
        (
            n.step.day,
            n.step.cheapest,
            n.step.providers,
            n.step.moved_by.value,
            f"{n.step.day:%Y-%m-%d}: {moved_said(n)}",
        )
        for n in found.steps
        if n.step.moved_by in (Move.ENTRY, Move.EXIT) and n.step.cheapest is not None
    ]
    return tuple(
        step_chart([(s.day, s.cheapest) for s in steps], [(s.day, s.median) for s in steps], max(today, steps[-1].day),
                   symbol, frame, line, found.series.tracking_since, [(s.day, s.providers) for s in steps], marks)
        for frame in FRAMES
    )  # fmt: skip
