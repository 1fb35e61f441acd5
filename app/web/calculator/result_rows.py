"""The rows of the calculator's results tables: each option's cells that GPU-hours leave alone, made
once per offer with a hole where the move's inputs go (its link to the explorer carries them), and
each provider's cheapest offer (app/quoting/provider_view.py), whose rows change with GPU-hours."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from app.catalog.cache import MemoEntry
from app.catalog.offer_records import OfferRecord
from app.catalog.snapshot import CatalogSnapshot
from app.costing.memory import Mode
from app.costing.money import Currency
from app.costing.quote import OfferCost
from app.quoting.build import ANY_GPU, QuoteResult
from app.quoting.moves import MOVED
from app.quoting.owning import OwnedRecord
from app.quoting.params.form import query_string
from app.quoting.params.job import Job
from app.quoting.provider_view import ProviderView, provider_bills
from app.web.templating import macros, money

HOLE = "\x00workload\x00"
"""Where this move's inputs go in a part made once: the explorer's links carry them, GPU-hours too."""


@dataclass(frozen=True)
class Holed:
    """HTML made once with a hole where the move's inputs go, URL-encoded (`Figures.workload`)."""

    head: Markup
    tail: Markup

    @classmethod
    def cut(cls, made: Markup) -> Holed:
        head, tail = made.split(HOLE)
        return cls(head, tail)

    def __call__(self, workload: str) -> Markup:
        return Markup("".join((self.head, escape(workload), self.tail)))  # one Markup, not two concatenations


@dataclass(frozen=True)
class RowCells:
    """An option's row less the figures GPU-hours change: its option and offer, egress and storage, source."""

    offer: Holed
    fixed: Markup
    source: Markup


@dataclass(frozen=True)
class ProviderRow:
    """A provider's cheapest offer as its row shows it: the cells GPU-hours leave alone (made once per
    offer) are figures too, as which offer each provider bills and their order change with GPU-hours."""

    offer: Markup
    compute: str
    fixed: Markup
    total: str
    marks: Markup
    """After the total: the mark of a cost left out, a setup fee once."""


def inputs_query(result: QuoteResult, memo: MemoEntry) -> tuple[str, str]:
    """The inputs as the calculator's query (those at their default left out), and URL-encoded as one
    value: all but GPU-hours made once per memo (a query string costs a move more than all its
    figures), GPU-hours put first per move."""
    p = result.params

    def rest() -> tuple[str, str]:
        kept = p.model_copy(update={"gpu": ANY_GPU} if result.choices else {})
        query = query_string(kept, frozenset(MOVED), changed_only=True)
        return query, quote(query, safe="")

    query, encoded = memo.part("inputs query", rest)
    hours = hours_param(p.gpu_hours)
    if not query:
        return hours, quote(hours, safe="")
    return f"{hours}&{query}", f"{quote(hours, safe='')}%26{encoded}"


def hours_param(gpu_hours: float) -> str:
    return f"gpu_hours={int(gpu_hours) if float(gpu_hours).is_integer() else gpu_hours}"  # 500, not 500.0


def chosen_queries(result: QuoteResult, memo: MemoEntry) -> tuple[str, ...]:
    """Where GPU models are listed but not ranked (GPU-hours), each listed GPU model chosen at these
    inputs: the query that quotes the GPU-hours as that GPU model's. All but GPU-hours made once per memo."""
    if not result.not_ranked_why:
        return ()

    def rest() -> tuple[str, ...]:
        chosen = (result.params.model_copy(update={"gpu": c.gpu}) for c, _ in result.gpu_rows)
        return tuple(query_string(p, frozenset(MOVED), changed_only=True) for p in chosen)

    hours = hours_param(result.params.gpu_hours)
    return tuple(f"{hours}&{query}" for query in memo.part("chosen queries", rest))


def as_job_query(result: QuoteResult) -> str:
    """The same inputs stated as the job the model runs for (serving for inference, else its training
    run), any GPU kept and GPU-hours left to the job: the calculator's query that compares GPU models
    on equal work."""
    p = result.params
    job = {"job": Job.SERVE} if p.mode is Mode.INFERENCE else {"job": Job.TRAIN, "train_mode": p.mode}
    return query_string(p.model_copy(update={"gpu": ANY_GPU} | job), frozenset(MOVED), changed_only=True)


def provider_rows(result: QuoteResult, memo: MemoEntry, view: ProviderView, workload: str) -> tuple[ProviderRow, ...]:
    """Each provider's cheapest offer at this move, sorted as the view asks, each row's cells made once."""
    catalog, cur = result.catalog, result.currency
    parts = macros("calculator/_results_parts.html")
    rows = []
    for o, r in provider_bills(result, view):

        def cells(o: OfferCost = o, r: OfferRecord = r) -> tuple[Holed, Markup, Markup]:
            made = parts.provider_cells(o, r, catalog.version, HOLE)
            return Holed.cut(made), parts.fixed_cells(o, r, cur), parts.total_marks(o, cur)

        offer, fixed, marks = memo.part(("provider row", r.priced.offer_id, o.gpus_used, o.gpus_billed), cells)
        rows.append(ProviderRow(offer(workload), money(o.compute, cur), fixed, money(o.total, cur), marks))
    return tuple(rows)


def option_row(
    memo: MemoEntry, parts: Any, o: OfferCost, r: OfferRecord | OwnedRecord, cur: Currency, catalog: CatalogSnapshot,
    today: date,
) -> tuple[OfferCost, RowCells]:  # fmt: skip
    """An option's cost beside the cells of its row that GPU-hours leave alone: they read the offer
    (and the rate it is converted at, if published in another currency than shown), the GPUs used
    and billed, and its egress and storage (priced for the workload less its hours)."""

    def cells() -> RowCells:
        converted = (
            None if r.row.currency == cur.code else catalog.rates.get(r.row.currency, catalog.rates.get(cur.code))
        )
        offer = Holed.cut(parts.offer_cells(o, r, catalog.version, converted, HOLE, cur))
        return RowCells(offer, parts.fixed_cells(o, r, cur), parts.source_cell(r, today))

    return o, memo.part(("row", r.priced.offer_id, o.gpus_used, o.gpus_billed, today), cells)
