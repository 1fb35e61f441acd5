"""How prices moved: dated price points made into step series (DOMAIN.md, "Currencies, one-off fees,
history"). A price holds from its date until its product's next point, never interpolated; a series
holds one GPU model, one tenancy, one billing kind, one price basis and one currency, so spot, on
demand, committed and monthly are never in one line, and an aggregator's minimum never joins a list
price."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
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
    """Where a point's date comes from: the source (as the shipped history states it) or an offer's
    as-of date; an offer without one is undated. The day a catalog version was made (an install's day,
    for the shipped catalog) is when the catalog recorded a price, not when the price held."""

    SOURCE = "source"
    AS_OF = "as_of"
    UNDATED = "undated"


class Move(StrEnum):
    """Why the cheapest moved at a step: a provider's price changed, a provider entered the tracked set
    (its first dated price, or its first since it left) below the cheapest, or the provider that set
    the cheapest left it (its last product withdrawn)."""

    PRICE = "price"
    ENTRY = "entry"
    EXIT = "exit"


@dataclass(frozen=True)
class PricePoint:
    """One price of one product, in `currency` per GPU-hour, with where it was read, and the day its
    source dates it (None: the source gives no date, so it is on no step line).

    `price`, `price_period` and `gpus_per_unit` are the price as published (per instance or GPU, per
    hour, second or month); `per_gpu_hour` is worked out from them, or as the source worked it out.
    """

    gpu: str
    provider: str
    product: str
    region: str
    tenancy: str
    billing: str
    day: date | None
    per_gpu_hour: Decimal
    price: Decimal
    price_period: str
    gpus_per_unit: int
    currency: str
    price_basis: PriceBasis
    source: str
    date_basis: DateBasis
    date_stated: str = ""
    """How the source states the date, in its words; for an undated price, which catalog version set it."""
    provider_name: str = ""
    """The provider's name as the catalog has it; empty where the catalog has no such provider."""
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
    def who(self) -> str:
        """The provider as a person reads it: its name, else (a provider the catalog lacks) its key."""
        return self.provider_name or self.provider

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
    None and 0 once every product was withdrawn. `entered` and `left`: the providers (keys) that
    entered or left the tracked set since the step before; `moved_by`: why the cheapest moved from the
    step before's (None on the first step and where it did not move), and `mover` the provider whose
    entry or exit moved it."""

    day: date
    cheapest: Decimal | None
    median: Decimal | None
    providers: int
    entered: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    moved_by: Move | None = None
    mover: str | None = None


@dataclass(frozen=True)
class Series:
    key: SeriesKey
    steps: tuple[Step, ...]
    """Of the dated points only."""
    undated: tuple[PricePoint, ...] = ()
    """The points whose source gives no date, cheapest first: on no step, listed apart."""

    @property
    def tracking_since(self) -> date | None:
        """The first dated point's day; None where every point is undated."""
        return self.steps[0].day if self.steps else None


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
        if point.day is None:
            continue
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
    """Each day of `_replay` (dated points only), and every provider's price from then on: its
    cheapest product."""
    for day, current in _replay(points):
        prices: dict[str, Decimal] = {}
        for point in current.values():
            prices[point.provider] = min(point.per_gpu_hour, prices.get(point.provider, point.per_gpu_hour))
        yield day, prices


def _cheapest_provider(prices: dict[str, Decimal]) -> str | None:
    """The provider whose price is the cheapest (of a tie, the first by key), as cheapest_points picks."""
    return min(prices, key=lambda provider: (prices[provider], provider), default=None)


def _moved_by(before: dict[str, Decimal], after: dict[str, Decimal]) -> tuple[Move | None, str | None]:
    """Why the cheapest went from `before`'s to `after`'s (see Move), and the provider that entered
    below it or, setting it, left; (None, None) where it stayed. A fall (or a price after none) set by
    a provider with no price before is an entry; a rise (or no price left) after its setter left, an exit."""
    was, now = min(before.values(), default=None), min(after.values(), default=None)
    if was == now:
        return None, None
    setter, previous = _cheapest_provider(after), _cheapest_provider(before)
    if now is not None and setter not in before and (was is None or now < was):
        return Move.ENTRY, setter
    if (now is None or (was is not None and now > was)) and previous not in after:
        return Move.EXIT, previous
    return Move.PRICE, None


def _steps(points: Iterable[PricePoint]) -> tuple[Step, ...]:
    """A step where the cheapest, the median or the set of providers changes."""
    steps: list[Step] = []
    before: dict[str, Decimal] = {}
    for day, prices in _provider_prices(points):
        values = list(prices.values())
        cheapest, middle = min(values, default=None), median(values) if values else None
        if not steps or (cheapest, middle, prices.keys()) != (steps[-1].cheapest, steps[-1].median, before.keys()):
            entered, left = sorted(prices.keys() - before.keys()), sorted(before.keys() - prices.keys())
            moved_by, mover = _moved_by(before, prices) if steps else (None, None)
            steps.append(Step(day, cheapest, middle, len(values), tuple(entered), tuple(left), moved_by, mover))
        before = dict(prices)
    return tuple(steps)


def series_of(points: Iterable[PricePoint]) -> list[Series]:
    """One series per SeriesKey, in key order: the steps of its dated points, and its undated points."""
    by_key: dict[SeriesKey, list[PricePoint]] = {}
    for point in points:
        by_key.setdefault(point.series_key, []).append(point)
    return [
        Series(
            key,
            _steps(by_key[key]),
            tuple(sorted((p for p in by_key[key] if p.day is None), key=lambda p: (p.per_gpu_hour, p.who, p.line))),
        )
        for key in sorted(by_key)
    ]


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
