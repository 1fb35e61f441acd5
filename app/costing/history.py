"""How prices moved: dated price points made into step series (DOMAIN.md, "Currencies, one-off fees,
history"). A price holds from its date until its product's next point, never interpolated; a series
holds one GPU model, one tenancy, one billing kind, one price basis and one currency, so spot, on
demand, committed and monthly are never in one line, and an aggregator's minimum never joins a list
price.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from enum import StrEnum


class PriceBasis(StrEnum):
    """What a point's price is: a provider's list price, one announced to take effect on its date, an
    aggregator's minimum over the provider's configurations (may include spot or community capacity),
    or a marketplace's median of offers."""

    LIST = "list"
    ANNOUNCED = "announced"
    AGGREGATOR_MINIMUM = "aggregator_minimum"
    MARKETPLACE_MEDIAN = "marketplace_median"


class DateBasis(StrEnum):
    """Where a point's date comes from: the source (as the shipped history states it), an offer's
    as-of date, or, for an offer without one, the date of the catalog version that set the price."""

    SOURCE = "source"
    AS_OF = "as_of"
    CATALOG_VERSION = "catalog_version"


@dataclass(frozen=True)
class PricePoint:
    """One dated price of one product, in `currency` per GPU-hour, with where it was read.

    `price`, `price_period` and `gpus_per_unit` are the price as published (per instance or GPU, per
    hour, second or month); `per_gpu_hour` is worked out from them, or as the source worked it out.
    """

    gpu: str
    provider: str
    product: str
    region: str
    tenancy: str
    billing: str
    day: date
    per_gpu_hour: Decimal
    price: Decimal
    price_period: str
    gpus_per_unit: int
    currency: str
    price_basis: PriceBasis
    source: str
    date_basis: DateBasis
    date_stated: str = ""
    """How the source states the date, in its words, or which catalog version set the price."""
    basis_as_published: str = ""
    """The source's own words for what the price is ("on-demand list (Linux, Shared tenancy)")."""
    derivation: str = ""
    quote: str = ""
    source_kind: str = ""
    catalog_version: int | None = None
    """The catalog version that added the point: a shipped update, or the change that set the price."""
    withdrawn: date | None = None
    """On a product's last point, the day the catalog retired it: its price holds until then."""

    @property
    def series_key(self) -> SeriesKey:
        return SeriesKey(self.gpu, self.tenancy, self.billing, self.price_basis, self.currency)

    @property
    def line(self) -> tuple[str, str, str]:
        """A product's own line: its price holds until this line's next point."""
        return (self.provider, self.product, self.region)


@dataclass(frozen=True, order=True)
class SeriesKey:
    """What one series holds: never two tenancies, billing kinds, bases or currencies."""

    gpu: str
    tenancy: str
    billing: str
    price_basis: str
    currency: str


@dataclass(frozen=True)
class Step:
    """From `day` until the next step: the cheapest and the median of the providers' prices per
    GPU-hour (each provider's cheapest product that day), and how many providers are behind them;
    None and 0 once every product was withdrawn."""

    day: date
    cheapest: Decimal | None
    median: Decimal | None
    providers: int


@dataclass(frozen=True)
class Series:
    key: SeriesKey
    steps: tuple[Step, ...]

    @property
    def tracking_since(self) -> date:
        return self.steps[0].day


def median(values: list[Decimal]) -> Decimal:
    """The middle value; of an even count, the mean of the two middle ones."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _replay(points: Iterable[PricePoint]) -> Iterable[tuple[date, dict[tuple[str, str, str], PricePoint]]]:
    """Each day a point of `points` (one series) is dated or a product withdrawn, and each product's
    latest point so far, less those withdrawn (until a later point of theirs). Points of one product
    on one day: the last given wins."""
    by_day: dict[date, list[PricePoint]] = {}
    withdrawn: dict[date, list[tuple[str, str, str]]] = {}
    for point in points:
        by_day.setdefault(point.day, []).append(point)
        if point.withdrawn is not None:
            withdrawn.setdefault(point.withdrawn, []).append(point.line)
    current: dict[tuple[str, str, str], PricePoint] = {}
    for day in sorted(by_day.keys() | withdrawn.keys()):
        current.update((p.line, p) for p in by_day.get(day, []))
        for line in withdrawn.get(day, []):
            current.pop(line, None)
        yield day, current


def _provider_prices(points: Iterable[PricePoint]) -> Iterable[tuple[date, dict[str, Decimal]]]:
    """Each day of `_replay`, and every provider's price from then on: its cheapest product."""
    for day, current in _replay(points):
        prices: dict[str, Decimal] = {}
        for point in current.values():
            prices[point.provider] = min(point.per_gpu_hour, prices.get(point.provider, point.per_gpu_hour))
        yield day, prices


def series_of(points: Iterable[PricePoint]) -> list[Series]:
    """One series per SeriesKey, in key order, each a step where the cheapest, the median or the
    number of providers changes."""
    by_key: dict[SeriesKey, list[PricePoint]] = {}
    for point in points:
        by_key.setdefault(point.series_key, []).append(point)
    made = []
    for key in sorted(by_key):
        steps: list[Step] = []
        for day, prices in _provider_prices(by_key[key]):
            values = list(prices.values())
            step = Step(day, min(values, default=None), median(values) if values else None, len(values))
            if not steps or replace(steps[-1], day=day) != step:
                steps.append(step)
        made.append(Series(key, tuple(steps)))
    return made


def provider_line(points: Iterable[PricePoint], key: SeriesKey, provider: str) -> list[tuple[date, Decimal | None]]:
    """A provider's own step line in one series: its cheapest product's price per GPU-hour from each
    day it changes; None from the day its last product was withdrawn."""
    own = [p for p in points if p.series_key == key and p.provider == provider]
    line: list[tuple[date, Decimal | None]] = []
    for day, prices in _provider_prices(own):
        if not line or line[-1][1] != prices.get(provider):
            line.append((day, prices.get(provider)))
    return line


def cheapest_points(points: Iterable[PricePoint], series: Series) -> list[PricePoint | None]:
    """For each step of `series`, made of `points` (its own), the point whose price is its cheapest:
    the product that sets it, with its source; None where no provider is left. The same replay as the
    series', so that the two never disagree."""
    setters = {
        day: min(current.values(), key=lambda p: (p.per_gpu_hour, p.provider, p.line), default=None)
        for day, current in _replay(points)
    }
    return [setters[step.day] for step in series.steps]
