"""The calculator's results for one request, as its results block shows them beside the quote: the
charts drawn, each option's row, the links' queries and what the figures need Python to work out. The
template formats the rest; a move of the GPU-hours slider renders it as any other request does."""

from __future__ import annotations

from dataclasses import dataclass

from app.catalog.ages import rests_on_said
from app.catalog.fabric import FabricRecord
from app.catalog.offer_records import OfferRecord
from app.catalog.rates import RateRecord
from app.catalog.snapshot import Catalogs
from app.costing.breakeven import Stretch, stretch_at
from app.costing.owning import OwnedBreakEven
from app.costing.quote import OfferCost
from app.quoting.build import QuoteResult
from app.quoting.choices import GpuChoice
from app.quoting.owning import OwnedRecord
from app.quoting.params.form import query_string
from app.quoting.provider_view import Bill, ProviderView, provider_bills
from app.quoting.run_sizes import run_sizes
from app.web.calculator.across import LeftOut, left_out
from app.web.calculator.charts import Chart
from app.web.calculator.estimate_checks import ChecksPlot, estimate_checks
from app.web.calculator.figure_notes import billed_hours, compute_parts, term_horizon
from app.web.calculator.job_bars import Bars, job_bars, per_output
from app.web.calculator.owned_results import OwnedFigures, owned_break_evens, owned_figures
from app.web.calculator.result_charts import gpu_lines, gpus_drawn, options_drawn
from app.web.calculator.result_rows import as_job_query, chosen_queries, inputs_query
from app.web.calculator.run_chart import RunChart, run_chart
from app.web.calculator.split_results import SplitFigures, split_figures

GPU_ROWS = 20
"""Options of the any-GPU table listed; the rest are counted."""


@dataclass(frozen=True)
class OptionRow:
    """An option's row: its cost, what the catalog states of its offer (or of the server owned), and
    what its figures need beyond the cost."""

    cost: OfferCost
    record: OfferRecord | OwnedRecord
    converted: RateRecord | None
    """The rate its price is converted at, where it is published in another currency than shown."""
    per_output: str | None
    """A job's cost per useful output: per million output tokens served, or the whole run."""
    compute_parts: str | None
    """What the assumptions add to the compute, where they add any (`compute_parts` in figure_notes.py)."""
    fabric: FabricRecord | None = None
    """A run across nodes: the fabric between its nodes, as a source states it."""


@dataclass(frozen=True)
class Shown:
    """What the results block shows beyond the quote (`result`), which it formats itself."""

    inputs: str
    """The calculator's query for these inputs (at the version quoted, if pinned): the results' links."""
    workload: str
    """The same, URL-encoded as one value: the explorer's links carry it as `workload`."""
    every_offer: str | None = None
    """The link from one pinned offer back to all of them (it keeps the GPU-hours)."""
    job_bars: tuple[Bars, ...] = ()
    """A job on any GPU: each GPU model's cheapest option for it, as bars."""
    chart: tuple[Chart, ...] = ()
    """The cost chart in every frame, with this move's current-hours line."""
    rows: tuple[OptionRow, ...] = ()
    """Each option's, cheapest first: the headline names the first two."""
    stretch: Stretch | None = None
    """Where the cheapest option changes around the GPU-hours: the headline's last sentence."""
    at_once_billed: str | None = None
    """The GPU-hours the option that runs more GPUs at once than asked bills for the work, H / (1 - tax)."""
    term_horizon: str | None = None
    """The calculator's query at a horizon as long as the longest term billed past the horizon, where one is."""
    gpu_chart: tuple[Chart, ...] = ()
    """Where GPU models are listed but not ranked: the cheapest option of each of `gpu_lines`."""
    gpu_lines: tuple[GpuChoice, ...] = ()
    gpu_chosen: tuple[str, ...] = ()
    """Where GPU models are listed but not ranked, each row's GPU model chosen: its query at these GPU-hours."""
    gpu_per_output: tuple[str | None, ...] = ()
    """Each row of the any-GPU table's cost per useful output of the job."""
    as_job: str = ""
    """Where GPU models are listed but not ranked: the query of the same inputs as a job."""
    owned: OwnedFigures | None = None
    """The server owned, part by part, where it is one of the options."""
    owning: tuple[OwnedBreakEven, ...] = ()
    """Where owning first beats each other option: the owned server's break-evens."""
    split: SplitFigures | None = None
    """The hybrid split of the demand profile, where the job states one."""
    providers: tuple[Bill, ...] = ()
    """Each provider's cheapest offer, in the view's order, where the view is shown."""
    estimate_checks: tuple[ChecksPlot, ...] = ()
    """Where the job rests on the estimate: the benchmarks it was checked on, estimated against published."""
    left_out: tuple[LeftOut, ...] = ()
    """A run across nodes: the offers of its GPU model whose nodes may not run it together, by why."""
    run_chart: tuple[RunChart, ...] = ()
    """A run: its cost and wall clock at the other sizes the catalog prices on its GPU model."""
    price_age: str = ""
    """Where the answer rests on an undated price or an old one: what the headline adds, after the answer."""


def shown(result: QuoteResult, view: ProviderView, catalogs: Catalogs) -> Shown:
    assert result.memo is not None, "build_quote gives every result its memo"
    memo, p, q = result.memo, result.params, result.quote
    inputs, workload = inputs_query(result, memo)
    every_offer = query_string(p.model_copy(update={"offer": ""} | result.as_stated)) if p.offer else None
    if not q.options:
        return Shown(inputs, workload, every_offer, job_bars(result))
    ranked = result.not_ranked_why is None
    split = split_figures(result)
    return Shown(
        inputs,
        workload,
        every_offer,
        job_bars(result),
        chart=options_drawn(memo, result),
        rows=_option_rows(result),
        stretch=stretch_at(q, p.gpu_hours),
        at_once_billed=billed_hours(result),
        term_horizon=term_horizon(result, memo),
        gpu_chart=() if ranked else gpus_drawn(memo, result),
        gpu_lines=() if ranked else tuple(gpu_lines(result)),
        gpu_chosen=chosen_queries(result, memo),
        gpu_per_output=tuple(per_output(result, o) for _, o in result.gpu_rows[:GPU_ROWS]),
        as_job="" if ranked else memo.part("as job", lambda: as_job_query(result)),
        owned=owned_figures(result),
        owning=owned_break_evens(result),
        split=split,
        providers=tuple(provider_bills(result, view)) if view.shown else (),
        estimate_checks=memo.part("estimate checks", lambda: estimate_checks(result)),
        left_out=memo.part("left out across nodes", lambda: left_out(result)),
        run_chart=memo.part("run sizes", lambda: run_chart(run_sizes(catalogs, result), p.run_gpus, result.currency)),
        price_age=_price_age(result.options[0][1]) if split is None else _split_price_age(split),
    )


def _price_age(record: OfferRecord | OwnedRecord, whose: str = "its") -> str:
    """The answer's price, as old as its source dates it; a server of the buyer's own figures has no source."""
    if isinstance(record, OwnedRecord) and record.server is None:
        return ""
    return rests_on_said(record.row.as_of, whose)


def _split_price_age(split: SplitFigures) -> str:
    """The split's answer rests on its base's price where it dedicates any GPU, on its burst's where it
    bursts any hour: each one old or undated, said."""
    best = split.best
    used = [
        (split.base_record, "the base's") if best.units else (None, ""),
        (split.burst_record, "the burst's") if not best.units or best.burst_gpu_hours > 0 else (None, ""),
    ]
    return "; ".join(filter(None, (_price_age(record, whose) for record, whose in used if record is not None)))


def _option_rows(result: QuoteResult) -> tuple[OptionRow, ...]:
    cur, rates, catalog = result.currency, result.catalog.rates, result.catalog
    across = result.job is not None and result.job.across is not None
    run = result.job.run if result.job is not None else None
    return tuple(
        OptionRow(
            o,
            r,
            None if r.row.currency == cur.code else rates.get(r.row.currency, rates.get(cur.code)),
            per_output(result, o),
            compute_parts(o, cur, run),
            catalog.fabric_of(r) if across and isinstance(r, OfferRecord) else None,
        )
        for o, r in result.options
    )
