"""What the price history page shows of a GPU model's points: one step chart and table per series
(one tenancy, billing kind, price basis and currency), a provider's own line over each where asked,
and the points behind each with their sources."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from app.catalog.history import HistoryFilters
from app.costing.history import (
    PriceBasis,
    PricePoint,
    Series,
    SeriesKey,
    Step,
    cheapest_points,
    provider_line,
    series_of,
)
from app.costing.money import SYMBOLS
from app.costing.terms import Billing, Tenancy
from app.history_charts import FRAMES, StepChart, step_chart

BASES = {
    PriceBasis.LIST: "list prices",
    PriceBasis.ANNOUNCED: "prices announced for their date",
    PriceBasis.AGGREGATOR_MINIMUM: "an aggregator's minimum of each provider's offers (may include spot), "
    "not a list price",
    PriceBasis.MARKETPLACE_MEDIAN: "a marketplace's median of its offers, not a list price",
}


@dataclass(frozen=True)
class SeriesView:
    series: Series
    option: tuple[Tenancy, Billing]
    basis: str
    symbol: str
    """The currency's sign; empty where the sources state no currency."""
    charts: tuple[StepChart, ...]
    """The same chart in each frame (FRAMES)."""
    steps: tuple[tuple[Step, PricePoint | None], ...]
    """Newest first, each with the point that sets its cheapest (its product and source)."""
    points: tuple[PricePoint, ...]
    """The asked provider's points in it, newest first; none where no provider was asked for."""
    own_line: tuple[tuple[date, Decimal | None], ...]
    """The asked provider's (or offer's) own line: its price from each day it changes."""

    @property
    def key(self) -> SeriesKey:
        return self.series.key

    @property
    def aggregated(self) -> bool:
        """Not a list price: drawn apart, never joined to one."""
        return self.key.price_basis in (PriceBasis.AGGREGATOR_MINIMUM, PriceBasis.MARKETPLACE_MEDIAN)

    def price(self, amount: Decimal | None) -> str:
        if amount is None:
            return "—"
        whole, part = f"{amount:,.4f}".split(".")
        text = f"{whole}.{part.rstrip('0').ljust(2, '0')}"
        return f"{self.symbol}{text}" if self.symbol else f"{text} (currency not stated)"


def series_views(points: Sequence[PricePoint], wanted: HistoryFilters, today: date) -> list[SeriesView]:
    """List prices first, the series with the most providers first among them; where a provider (or
    one offer's product) is asked for, only the series it is in, its own line drawn over each."""
    provider = wanted.provider
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
        until = max(today, series.steps[-1].day)
        charts = tuple(
            step_chart([(s.day, s.cheapest) for s in series.steps], [(s.day, s.median) for s in series.steps],
                       until, symbol, frame, line, series.tracking_since)
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
                tuple(sorted(own, key=lambda p: p.day, reverse=True)) if provider else (),
                tuple(line),
            )  # fmt: skip
        )
    return sorted(views, key=lambda v: (v.aggregated, -max(s.providers for s in v.series.steps), v.key))
