"""Each offer of a catalog version as the explorer lists it: its prices on a common footing, and
the columns a person can show, sort by and download."""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from operator import itemgetter

from app.catalog.currencies import beside_a_number, currency_words
from app.catalog.offer_records import OfferRecord, UnpricedRecord
from app.catalog.selection import EU_COUNTRIES
from app.catalog.snapshot import CatalogSnapshot
from app.catalog.wording import country_name
from app.costing.money import cents, rate
from app.costing.terms import HOURS_PER_MONTH

Value = str | int | Decimal | date | None


@dataclass(frozen=True)
class ExplorerRow:
    """One offer with what the explorer works out once per catalog version: USD per hour of the
    whole unit and per GPU-hour (to 1/100 of a cent), and per month of 730 hours (to the cent), at
    the version's rate; none where the offer's currency is not stated."""

    record: OfferRecord | UnpricedRecord
    offer_id: int
    usd_per_hour: Decimal | None
    usd_per_gpu_hour: Decimal | None
    usd_per_month: Decimal | None
    usd_setup_fee: Decimal | None
    """What the published columns sort by: one currency, so EUR 212.30 and USD 247.10 compare."""
    gpu_memory_gib: int | None
    search_text: str
    """Provider, product, GPU and region, case-folded: what the free-text search looks in."""

    @property
    def total_memory_gib(self) -> int | None:
        return None if self.gpu_memory_gib is None else self.gpu_memory_gib * self.record.row.gpus_per_unit

    @property
    def anchor(self) -> str:
        return f"offer-{self.offer_id}"


def explorer_row(record: OfferRecord | UnpricedRecord, gpus: dict[str, int]) -> ExplorerRow:
    """A price per second or hour is scaled to an hour and 730 of them; a monthly or yearly one is
    spread over its period's hours, so every offer reads in the same units."""
    priced = record.priced
    per_hour = None if priced is None else priced.usd_per_unit_hour
    row = record.row
    return ExplorerRow(
        record=record,
        offer_id=record.offer_id,
        usd_per_hour=None if per_hour is None else rate(per_hour),
        usd_per_gpu_hour=None if priced is None else rate(priced.usd_per_gpu_hour),
        usd_per_month=None if per_hour is None else cents(per_hour * HOURS_PER_MONTH),
        usd_setup_fee=None if priced is None or row.setup_fee is None else cents(priced.setup_fee_usd),
        gpu_memory_gib=gpus.get(row.gpu),
        search_text=" ".join((record.provider.name, row.product, row.gpu, row.region)).casefold(),
    )


@dataclass(frozen=True)
class Column:
    """A column: its heading, its value in the CSV (and what it sorts by, unless `sort` says else)."""

    label: str
    value: Callable[[ExplorerRow], Value]
    numeric: bool = False
    sort: Callable[[ExplorerRow], Value] | None = None

    def sort_value(self, row: ExplorerRow) -> Value:
        found = (self.sort or self.value)(row)
        return found.casefold() if isinstance(found, str) else found


def _published(row: ExplorerRow) -> str:
    offer = row.record.row
    return f"{offer.price.normalize():f} {beside_a_number(offer.currency)} per {offer.price_period}"


COLUMNS: dict[str, Column] = {
    "provider": Column("Provider", lambda r: r.record.provider.name),
    "product": Column("Product", lambda r: r.record.row.product),
    "gpu": Column("GPU", lambda r: r.record.row.gpu),
    "gpus": Column("GPUs per unit", lambda r: r.record.row.gpus_per_unit, numeric=True),
    "gpu_memory": Column("GiB per GPU", lambda r: r.gpu_memory_gib, numeric=True),
    "total_memory": Column("GPU GiB in all", lambda r: r.total_memory_gib, numeric=True),
    "vcpus": Column("vCPUs", lambda r: r.record.row.vcpus, numeric=True),
    "ram": Column("RAM, GiB", lambda r: r.record.row.ram_gib, numeric=True),
    "tenancy": Column("Tenancy", lambda r: r.record.row.tenancy),
    "billing": Column("Billing", lambda r: r.record.row.billing),
    "price": Column("Price as published", _published, numeric=True, sort=lambda r: r.usd_per_hour),
    "currency": Column("Published in", lambda r: currency_words(r.record.row.currency)),
    "setup_fee": Column(
        "Setup fee once, as published", lambda r: r.record.row.setup_fee, numeric=True, sort=lambda r: r.usd_setup_fee
    ),  # fmt: skip
    "per_hour": Column("USD per hour", lambda r: r.usd_per_hour, numeric=True),
    "per_gpu_hour": Column("USD per GPU-hour", lambda r: r.usd_per_gpu_hour, numeric=True),
    "per_month": Column("USD per month", lambda r: r.usd_per_month, numeric=True),
    "region": Column("Region", lambda r: r.record.row.region),
    "country": Column("Country", lambda r: r.record.row.region_country),
    "hq": Column("Provider HQ", lambda r: r.record.provider.hq_country),
    "source": Column("Source", lambda r: r.record.row.source_url),
    "as_of": Column("Price date", lambda r: r.record.row.as_of),
}
"""Every column, in the order the table shows them; the keys are the `sort=` and `cols=` values."""

DEFAULT_COLUMNS = ("provider", "product", "gpu", "gpus", "billing", "per_gpu_hour", "per_month", "country", "as_of")
"""What fits a 1,280-pixel screen without scrolling sideways; the picker adds the rest."""


FACTS: dict[str, Callable[[ExplorerRow], object]] = {
    "gpu": lambda r: r.record.row.gpu,
    "gpu_count": lambda r: r.record.row.gpus_per_unit,
    "provider": lambda r: r.record.provider.slug,
    "tenancy": lambda r: r.record.row.tenancy,
    "billing": lambda r: r.record.row.billing,
    "country": lambda r: r.record.row.region_country,
}
"""What each filter of the same name looks at."""

Choice = tuple[str, str]
"""A filter's value in the query and its text in the form."""


@dataclass(frozen=True)
class Explorable:
    """A catalog version's rows in offer order, and the choices each filter offers."""

    rows: tuple[ExplorerRow, ...]
    gpus: tuple[Choice, ...]
    gpu_counts: tuple[Choice, ...]
    providers: tuple[Choice, ...]
    countries: tuple[Choice, ...]
    index: dict[str, dict[object, frozenset[int]]]
    """Per filter, the ids of the offers with each value of its fact."""
    outside_us_hq: frozenset[int]
    """Offers of providers known to be headquartered outside the US."""
    grew: Callable[[int], None]
    """Told the bytes of each order worked out (the rows it lists are counted with the explorable)."""
    _orders: dict[tuple[str, bool], tuple[ExplorerRow, ...]] = field(default_factory=dict, compare=False)
    """The rows sorted by each column and direction asked for so far: at most two per column."""

    def ordered(self, sort: str, descending: bool) -> tuple[ExplorerRow, ...]:
        """All rows sorted by one column, worked out once per catalog version, so a request only
        filters. Rows without a value (unknown) come last either way, in offer order."""
        found = self._orders.get((sort, descending))
        if found is None:
            column = COLUMNS[sort]
            keyed = [(column.sort_value(r), r) for r in self.rows]
            known = sorted((kr for kr in keyed if kr[0] is not None), key=itemgetter(0), reverse=descending)
            found = self._orders[sort, descending] = tuple(r for _, r in known) + tuple(
                r for value, r in keyed if value is None
            )
            self.grew(sys.getsizeof(found))
        return found


def explorable(catalog: CatalogSnapshot) -> Explorable:
    """The explorer's rows and filter index of a catalog version: made on first use, kept with it."""
    return catalog.derived.memo("explorable", lambda: _explorable(catalog))


def _explorable(catalog: CatalogSnapshot) -> Explorable:
    offers = catalog.listed
    listed_gpus = {o.row.gpu for o in offers}
    providers = sorted({(o.provider.slug, o.provider.name) for o in offers}, key=lambda p: p[1].casefold())
    rows = tuple(explorer_row(o, catalog.gpus) for o in offers)
    return Explorable(
        rows=rows,
        gpus=tuple((g, f"{g} ({memory} GiB)") for g, memory in catalog.gpus.items() if g in listed_gpus),
        gpu_counts=tuple((str(n), str(n)) for n in sorted({o.row.gpus_per_unit for o in offers})),
        providers=tuple(providers),
        countries=_country_choices(offers),
        index=_fact_index(rows),
        outside_us_hq=frozenset(r.offer_id for r in rows if r.record.provider.hq_country not in (None, "US")),
        grew=catalog.derived.grew,
    )


def _country_choices(offers: list[OfferRecord | UnpricedRecord]) -> tuple[Choice, ...]:
    """Each country an offer is in, by its name, with the EU's marked (the EU filter's members)."""
    countries = sorted({o.row.region_country for o in offers if o.row.region_country}, key=country_name)
    return tuple((c, f"{country_name(c)} (EU)" if c in EU_COUNTRIES else country_name(c)) for c in countries)


def _fact_index(rows: tuple[ExplorerRow, ...]) -> dict[str, dict[object, frozenset[int]]]:
    """Per filter, each value of its fact to the ids of the offers with it: a filter is a set lookup."""
    index: dict[str, dict[object, set[int]]] = {name: defaultdict(set) for name in FACTS}
    for r in rows:
        for name, fact in FACTS.items():
            index[name][fact(r)].add(r.offer_id)
    return {name: {value: frozenset(ids) for value, ids in found.items()} for name, found in index.items()}
