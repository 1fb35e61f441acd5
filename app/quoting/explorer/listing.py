"""The offers explorer: every offer of a catalog version, filtered, sorted and paged as the query
asks, and the same rows as CSV. The query is checked at the edge; a bad one gets a message per field."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Annotated, Any, Literal
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator
from pydantic_core import ErrorDetails

from app.catalog.ages import dated_from, dated_since
from app.catalog.files import csv_text
from app.catalog.selection import EU_COUNTRIES
from app.catalog.snapshot import CatalogSnapshot, OfferRecord
from app.costing.quote import OfferCost
from app.costing.terms import Billing, Tenancy
from app.quoting.explorer.rows import COLUMNS, DEFAULT_COLUMNS, FACTS, Explorable, ExplorerRow, explorable
from app.quoting.explorer.workload import COLUMNS as WORKLOAD_COLUMNS
from app.quoting.explorer.workload import ExplorerWorkload
from app.quoting.params.form import field_errors
from app.quoting.params.quote import VERSION_MAX, FieldErrors

PER_PAGE = 100
Name = Annotated[str, StringConstraints(max_length=100)]
LIST_FIELDS = frozenset({"gpu", "gpu_count", "provider", "tenancy", "billing", "country", "cols"})
"""The filters that may be given more than once: `gpu=H100&gpu=H200` lists both models' offers."""
FILTERS = ("gpu", "provider", "country", "tenancy", "billing", "gpu_count", "eu_only", "exclude_us_hq", "dated_within")
"""What the explorer's filters fold holds."""


class ExplorerParams(BaseModel):
    """What the explorer shows; every field is a query parameter of `/offers` and `/offers.csv`."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    gpu: list[Name] = Field(default_factory=list, description="GPU models (none = all)")
    gpu_count: list[Annotated[int, Field(ge=1, le=10_000)]] = Field(default_factory=list)
    provider: list[Name] = Field(default_factory=list, description="provider slugs (none = all)")
    tenancy: list[Tenancy] = Field(default_factory=list)
    billing: list[Billing] = Field(default_factory=list)
    country: list[Name] = Field(default_factory=list, description="data-centre countries, ISO codes")
    eu_only: bool = False
    exclude_us_hq: bool = False
    dated_within: int | None = Field(
        None, ge=0, le=36_500, description="only prices dated this many days before today or since (never undated)"
    )
    q: Name = Field("", description="words the provider, product, GPU or region contain")
    sort: str = "per_gpu_hour"
    dir: Literal["asc", "desc"] = "asc"
    page: int = Field(1, ge=1, le=1_000_000)
    cols: list[str] = Field(default_factory=lambda: list(DEFAULT_COLUMNS))
    at: Annotated[str, StringConstraints(max_length=400)] = Field("", description="an offer key to show and mark")
    workload: Annotated[str, StringConstraints(max_length=4000)] = Field(
        "", description="the calculator's query whose egress, storage and month each offer shows"
    )
    catalog_version: int | None = Field(None, ge=1, le=VERSION_MAX)

    @field_validator("sort")
    @classmethod
    def _a_column(cls, value: str) -> str:
        if value not in COLUMNS:
            raise ValueError(f"must be one of {', '.join(COLUMNS)}")
        return value

    @field_validator("cols")
    @classmethod
    def _columns(cls, value: list[str]) -> list[str]:
        unknown = [name for name in value if name not in COLUMNS]
        if unknown:
            raise ValueError(f"has no column {', '.join(unknown)}; the columns are {', '.join(COLUMNS)}")
        return [name for name in COLUMNS if name in value] or list(DEFAULT_COLUMNS)

    @property
    def chosen(self) -> int:
        """How many ticks narrow the list: what the folded filters' summary counts."""
        values = [getattr(self, name) for name in FILTERS]
        return sum(len(value) if isinstance(value, list) else _ticked(value) for value in values)

    def query(self, **changes: Any) -> str:
        """This state as a query string with `changes`, leaving out what is at its default."""
        state = self.model_dump(mode="json") | changes
        changed = {name: value for name, value in state.items() if value != DEFAULTS[name]}
        return urlencode({name: "on" if value is True else value for name, value in changed.items()}, doseq=True)

    def sort_query(self, column: str) -> str:
        """Sort by `column`, ascending first; the sorted column's link turns the order round."""
        ascending = column != self.sort or self.dir == "desc"
        return self.query(sort=column, dir="asc" if ascending else "desc", page=1, at="")


def _ticked(value: bool | int | None) -> int:
    """A flag counts when on; a number of days when given, 0 too."""
    return int(value) if isinstance(value, bool) else int(value is not None)


DEFAULTS = ExplorerParams().model_dump(mode="json")

LABELS = {
    "gpu": "GPU model",
    "gpu_count": "GPUs per unit",
    "provider": "Provider",
    "tenancy": "Tenancy",
    "billing": "Billing",
    "country": "Country",
    "eu_only": "EU member state only",
    "exclude_us_hq": "Provider not headquartered in the US",
    "dated_within": "Only prices dated within (days)",
    "q": "Search",
    "sort": "Sort by",
    "dir": "Order",
    "page": "Page",
    "cols": "Columns",
    "at": "Offer",
    "workload": "Workload from the calculator",
    "catalog_version": "Catalog version",
}
"""Each parameter as the page labels it, for messages."""

_MESSAGES = {
    "int_parsing": "must be a whole number",
    "greater_than_equal": "must be at least {ge}",
    "less_than_equal": "must be at most {le}",
    "string_too_long": "is too long (at most {max_length} characters)",
    "bool_parsing": "must be on or off",
    "enum": "must be one of {expected}",
    "literal_error": "must be one of {expected}",
}


def _message(error: ErrorDetails) -> str:
    context = error.get("ctx", {})
    if error["type"] == "value_error":
        return str(context["error"])
    return _MESSAGES.get(error["type"], error["msg"]).format(**context)


def parse_explorer(query: dict[str, str | list[str]]) -> ExplorerParams | FieldErrors:
    """The query as params, or a plain message per bad field; an empty field means its default."""
    data = {k: v for k, v in query.items() if v not in ("", [], [""]) or k == "q"}
    try:
        return ExplorerParams.model_validate(data)
    except ValidationError as e:
        return field_errors(e, _message)


def _matching(options: Explorable, p: ExplorerParams) -> set[int] | None:
    """Whether a row passes every filter that is set (None: no filter is). Each filter is a set of
    offer ids from the catalog's index, so a request intersects sets instead of testing 10,000 rows
    against each filter. Unknown facts (no country, no headquarters) never pass a filter needing them."""

    def any_of(name: str, values: Iterable[object]) -> set[int]:
        return set().union(*(options.index[name].get(v, ()) for v in values))

    chosen = [any_of(name, getattr(p, name)) for name in FACTS if getattr(p, name)]
    if p.eu_only:
        chosen.append(any_of("country", EU_COUNTRIES))
    if p.exclude_us_hq:
        chosen.append(set(options.outside_us_hq))
    return set.intersection(*chosen) if chosen else None


@dataclass(frozen=True)
class Explored:
    """The rows the query asks for, all of them in order, and the page of them to show."""

    params: ExplorerParams
    catalog: CatalogSnapshot
    options: Explorable
    rows: list[ExplorerRow]
    page: int
    focus: str | None
    """The `at` offer's key, if it is in the list."""
    workload: ExplorerWorkload | None = None
    """The calculator's inputs the explorer was opened with, if any: each offer's egress, storage and month."""

    @cached_property
    def costs(self) -> dict[int, OfferCost]:
        """The shown rows' months for the workload, by offer id."""
        return {} if self.workload is None else self.workload.costs(self.shown)

    def workload_figures(self, row: ExplorerRow) -> tuple[Decimal | str, ...]:
        assert self.workload is not None
        return self.workload.figures(self.costs.get(row.offer_id))

    def calculator_url(self, row: ExplorerRow) -> str:
        """The calculator pinned to this offer, with every input of the workload if there is one."""
        if self.workload is not None:
            return self.workload.calculator_url(row)
        return "/?" + urlencode([("gpu", row.record.row.gpu), ("offer", row.record.row.key)])

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.rows) // PER_PAGE))

    @property
    def first(self) -> int:
        """The 1-based position of the page's first row; 0 when nothing matches."""
        return min(len(self.rows), (self.page - 1) * PER_PAGE + 1)

    @property
    def shown(self) -> list[ExplorerRow]:
        return self.rows[(self.page - 1) * PER_PAGE : self.page * PER_PAGE]

    @property
    def columns(self) -> list[str]:
        return self.params.cols


def explore(catalog: CatalogSnapshot, params: ExplorerParams, workload: ExplorerWorkload | None = None) -> Explored:
    """The filtered and sorted offers; the page is the one holding the `at` offer, if given, else
    the asked page, or the last one where the list is shorter than that."""
    options = explorable(catalog)
    ids, words = _matching(options, params), params.q.casefold().split()
    rows = list(options.ordered(params.sort, params.dir == "desc"))
    if ids is not None:
        rows = [r for r in rows if r.offer_id in ids]
    for word in words:
        rows = [r for r in rows if word in r.search_text]
    if params.dated_within is not None:
        since = dated_since(params.dated_within)
        rows = [r for r in rows if dated_from(r.record.row.as_of, since)]
    at = next((i for i, r in enumerate(rows) if r.record.row.key == params.at), None) if params.at else None
    last_page = max(1, -(-len(rows) // PER_PAGE))
    page = at // PER_PAGE + 1 if at is not None else min(params.page, last_page)
    return Explored(params, catalog, options, rows, page, params.at if at is not None else None, workload)


def explored_csv(explored: Explored) -> str:
    """Every matching row, in the page's order, with the chosen columns under their headings, and
    with a workload its egress, storage and month, the currency beside each heading."""
    columns = [COLUMNS[name] for name in explored.columns]
    header = [c.label for c in columns]
    w = explored.workload
    if w is None:
        return csv_text(header, ([c.value(row) for c in columns] for row in explored.rows))
    costs = w.costs(explored.rows)
    header += [f"{label}, {w.currency.code}" for label in WORKLOAD_COLUMNS]
    return csv_text(
        header, ([c.value(row) for c in columns] + [*w.figures(costs.get(row.offer_id))] for row in explored.rows)
    )


def explorer_url(record: OfferRecord, version: int | None = None, workload: str = "") -> str:
    """Where an offer stands among its GPU's offers from its provider: the explorer opens at the
    page holding it, marked, and scrolled to; at catalog `version` if given (a saved scenario's),
    else at the newest, where the same key may name a later version of the offer. `workload`: the
    calculator's query, URL-encoded as one value, whose egress and storage each offer then shows."""
    row = record.row
    pairs = [("gpu", row.gpu), ("provider", record.provider.slug), ("at", row.key)]
    query = urlencode(pairs + ([("catalog_version", str(version))] if version else []))
    return f"/offers?{query}{'&workload=' + workload if workload else ''}#offer-{record.offer_id}"
