"""The calculator's results for one request, as its results block shows them: the figures a move of
the GPU-hours slider changes, formatted per request (`Figures`), beside the parts it leaves alone,
made once in the memo of the request's inputs (`move_memo` in app/quoting/build.py).

A part is named by what it depends on beyond the memo's key (every input but GPU-hours): what the
quote chose at this move, such as the band of the axis and the offers cheapest in it, never a list
of inputs written by hand. For a move the whole block is kept so, once per such shape of the quote,
with a slot where each figure goes (`results_block`, app/skeleton.py)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import date
from functools import partial
from typing import Any

from markupsafe import Markup

from app.catalog.cache import MemoEntry
from app.costing.breakeven import Stretch, stretch_at
from app.costing.owning import OwnedBreakEven
from app.costing.quote import OfferCost
from app.quoting.build import QuoteResult
from app.quoting.detours import DetourLink
from app.quoting.params.form import query_string
from app.quoting.provider_view import ProviderView
from app.web.calculator.charts import CurrentLine
from app.web.calculator.figure_notes import billed_hours, compute_parts, term_horizon
from app.web.calculator.job_bars import job_bars, per_output
from app.web.calculator.owned_results import OwnedFigures, owned_break_evens, owned_figures
from app.web.calculator.result_charts import Drawn, current_in, gpus_drawn, options_drawn
from app.web.calculator.result_rows import (
    ProviderRow,
    RowCells,
    as_job_query,
    chosen_queries,
    inputs_query,
    option_row,
    provider_rows,
)
from app.web.calculator.skeleton import Skeleton
from app.web.calculator.split_results import SplitFigures, split_figures
from app.web.templating import amount, macros, money, money_gap, money_rate, quantity

GPU_ROWS = 20
"""Options of the any-GPU table listed; the rest are counted."""


@dataclass(frozen=True)
class Shown:
    """The parts of the results block rendered once: the charts, each option's row less its figures,
    the exchange rate, the model's memory and fit."""

    chart: Drawn | None = None
    rows: tuple[tuple[OfferCost, RowCells], ...] = ()
    gpu_chart: Drawn | None = None
    rate: Markup = Markup()
    sizing: Markup = Markup()
    job: Markup = Markup()
    """What the job's figures rest on: the benchmark or the peak, and the GPU models without a number."""
    stretch: Stretch | None = None
    """Where the cheapest option changes around the GPU-hours: the headline's last sentence (in `shape`)."""
    owning: tuple[OwnedBreakEven, ...] = ()
    """Where owning first beats each other option: the owned server's break-evens."""
    split: SplitFigures | None = None
    """The hybrid split of the demand profile, where the job states one: the same at every move."""
    as_job: str = ""
    """Where GPU models are listed but not ranked (GPU-hours): the query of the same inputs as a job."""


@dataclass(frozen=True)
class RowFigures:
    compute: str
    total: str
    horizon: str | None
    per_hour: str
    per_output: str | None = None
    """A job's cost per useful output: per million output tokens served, or the whole run."""
    compute_parts: str | None = None
    """What the assumptions add to the compute, where they add any (`compute_parts` in app/figure_notes.py)."""


@dataclass(frozen=True)
class Figures:
    """What GPU-hours change in the results block, formatted as it shows them: the block reads them
    from here alone, so that the rest of it can be kept once per shape of the quote."""

    hours: str
    every_offer: str | None = None
    """The link from one pinned offer back to all of them (it keeps the GPU-hours)."""
    rows: tuple[RowFigures, ...] = ()
    """Each option's, cheapest first: the headline names the first two."""
    gap: str | None = None
    """How much more the second option costs than the first, a month with setup fees spread over the horizon."""
    looks: str | None = None
    current: tuple[tuple[CurrentLine, ...], ...] = ()
    """The cost chart's current-hours line in each frame."""
    at_once: str | None = None
    """The GPUs at once a metered instance runs where the GPU-hours need more than asked (730 hours a GPU)."""
    at_once_billed: str | None = None
    """The GPU-hours that instance bills for the work, H / (1 - tax), where its option has a tax."""
    gpu_totals: tuple[str, ...] = ()
    gpu_per_output: tuple[str | None, ...] = ()
    gpu_current: tuple[tuple[CurrentLine, ...], ...] = ()
    gpu_chosen: tuple[str, ...] = ()
    """Where GPU models are listed but not ranked, each row's GPU model chosen: its query at these GPU-hours."""
    inputs: str = ""
    """The calculator's query for these inputs (at the version quoted, if pinned): the provider table's links."""
    workload: str = ""
    """The same, URL-encoded as one value: the explorer's links carry it as `workload`."""
    providers: tuple[ProviderRow, ...] = ()
    """Each provider's cheapest offer, in the view's order, where the view is shown."""
    owned: OwnedFigures | None = None
    """The server owned, part by part, where it is one of the options (the options' offers are in `shape`)."""
    term_horizon: str | None = None
    """The calculator's query at a horizon as long as the longest term billed past the horizon, where one is."""
    detours: tuple[DetourLink, ...] = ()
    """Where a quote with no offer leads: the nearest inputs that give offers, linked at this move's GPU-hours."""


def shown(result: QuoteResult, today: date) -> Shown:
    memo = _memo(result)
    parts, p, catalog = macros("calculator/_results_parts.html"), result.params, result.catalog
    sizing = Markup()
    if result.sizing is not None:
        make = partial(parts.sizing, result.sizing, p.gpu, p.checkpoint_gb, p.peak_gpus, p.context is None)
        sizing = memo.part(("sizing", p.gpu, p.checkpoint_gb, p.peak_gpus), make)
    job = Markup()
    if result.sizing is not None and (result.job is not None or result.unmatched):
        job = memo.part(
            "job", lambda: parts.job_basis(result.job, result.sizing, p, result.unmatched, job_bars(result), today)
        )
    if not result.quote.options:
        return Shown(sizing=sizing, job=job)
    rate = Markup()
    if result.rate is not None:
        rate = memo.part("rate", partial(parts.rate_note, result.rate, result.currency))
    rows = tuple(option_row(memo, parts, o, r, result.currency, catalog, today) for o, r in result.options)
    gpu_chart = gpus_drawn(memo, result) if result.choices and result.job is None else None
    stretch = stretch_at(result.quote, p.gpu_hours)
    as_job = memo.part("as job", lambda: as_job_query(result)) if result.not_ranked_why else ""
    return Shown(
        options_drawn(memo, result), rows, gpu_chart, rate, sizing, job, stretch, owned_break_evens(result),
        split_figures(result), as_job,
    )  # fmt: skip


def figures(result: QuoteResult, view: ProviderView | None = None, detours: tuple[DetourLink, ...] = ()) -> Figures:
    q, p, cur = result.quote, result.params, result.currency
    hours = quantity(p.gpu_hours)
    every_offer = query_string(p.model_copy(update={"offer": ""})) if p.offer else None
    inputs, workload = inputs_query(result, _memo(result))
    if not q.options:
        return Figures(hours, every_offer, inputs=inputs, workload=workload, detours=detours)
    rows = tuple(
        RowFigures(
            money(o.compute, cur),
            money(o.total, cur),
            amount(o.horizon_in(cur), cur) if p.months > 1 or o.term_past_horizon else None,
            money_rate(o.effective_per_gpu_hour, cur),
            per_output(result, o),
            compute_parts(o, cur),
        )
        for o in q.options
    )
    memo = _memo(result)
    gpu_totals: tuple[str, ...] = ()
    gpu_per_output: tuple[str | None, ...] = ()
    gpu_current: tuple[tuple[CurrentLine, ...], ...] = ()
    if result.choices:
        gpu_totals = tuple(money(o.total, cur) for _, o in result.gpu_rows[:GPU_ROWS])
        gpu_per_output = tuple(per_output(result, o) for _, o in result.gpu_rows[:GPU_ROWS])
        if result.job is None:
            gpu_current = current_in(gpus_drawn(memo, result), p.gpu_hours)
    return Figures(
        hours,
        every_offer,
        rows,
        money_gap(q.options[1].horizon_month, q.options[0].horizon_month, cur) if len(q.options) > 1 else None,
        money(q.cheaper_looking.total, cur) if q.cheaper_looking else None,
        current_in(options_drawn(memo, result), p.gpu_hours),
        quantity(result.raised_at_once) if result.raised_at_once else None,
        billed_hours(result),
        gpu_totals,
        gpu_per_output,
        gpu_current,
        chosen_queries(result, memo),
        inputs,
        workload,
        provider_rows(result, _memo(result), view, workload) if view is not None and view.shown else (),
        owned_figures(result),
        term_horizon(result, memo),
    )


def _memo(result: QuoteResult) -> MemoEntry:
    assert result.memo is not None, "build_quote gives every result its memo"
    return result.memo


def shape(result: QuoteResult) -> Hashable:
    """What the results block shows at a move beyond its figures: the band of the axis, the offers chosen
    and their order (every GPU model's too, for any GPU), the one that only looks cheaper, the turns."""
    q = result.quote
    looks = q.cheaper_looking.offer.offer_id if q.cheaper_looking else None
    gpus = tuple((c.gpu, c.cheapest.offer.offer_id if c.cheapest else None, c.quote.hours_max) for c in result.choices)
    listed = tuple((c.gpu, o.offer.offer_id) for c, o in result.gpu_options)
    used = tuple((o.gpus_used, o.tax_units > 0) for o in q.options)
    stretch = stretch_at(q, result.params.gpu_hours)
    return q.hours_max, tuple(o.offer.offer_id for o in q.options), used, looks, gpus, listed, stretch


def results_block(result: QuoteResult, context: dict[str, Any], render: Callable[[dict[str, Any]], str]) -> bytes:
    """The results block at this move: its skeleton, rendered by `render` once per memo, shape of the
    quote, view of the providers and day (the sources' ages), with this move's figures (and the pinned
    inputs) filled in."""
    view: ProviderView = context["view"]
    today, moved = date.today(), (context["pinned_inputs"], figures(result, view, context["detours"]))
    providers = view, len(moved[1].providers)

    def cut() -> Skeleton:
        return Skeleton.cut(
            lambda slots: render(
                context | {"pinned_inputs": slots[0], "figures": slots[1], "shown": shown(result, today)}
            ),
            moved,
        )

    return _memo(result).part(("results", shape(result), providers, today), cut).filled(moved)
