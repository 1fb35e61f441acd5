"""The calculator's results for one request, as its results block shows them: the figures a move of
the GPU-hours slider changes, worked out per request, beside the parts it leaves alone, made once in
the memo of the request's inputs (`move_memo` in app/quoting/build.py) and handed to the template.

A part is named by what it depends on beyond the memo's key (every input but GPU-hours): what the
quote chose at this move, such as the band of the axis and the offers cheapest in it, never a list
of inputs written by hand."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import partial
from typing import Any

from markupsafe import Markup

from app.catalog.cache import MemoEntry
from app.catalog.snapshot import OfferRecord
from app.charts import FRAMES, Chart, at_hours, overlay_chart
from app.costing.money import Currency
from app.costing.quote import OfferCost, Quote
from app.quoting.build import GpuChoice, QuoteResult
from app.templating import templates

GPU_LINES = 4
"""GPU models drawn on the any-GPU chart: the dash patterns tell four apart."""


@dataclass(frozen=True)
class RowCells:
    """An option's row less the figures GPU-hours change: its option and offer, egress and storage, source."""

    offer: Markup
    fixed: Markup
    source: Markup


Row = tuple[OfferCost, RowCells]


@dataclass(frozen=True)
class Drawn:
    """A chart in every frame without its current-hours line, its SVG bodies and the HTML around it:
    the same for every GPU-hours within one band while the same offers are cheapest."""

    charts: tuple[Chart, ...]
    bodies: tuple[Markup, ...]
    legend: Markup
    break_evens: Markup = Markup()


@dataclass(frozen=True)
class Shown:
    """What the results block shows beyond the quote itself: the charts at this move's GPU-hours, and
    the parts rendered once (each offer's row less its money, the rate, the model's memory and fit)."""

    chart: Drawn | None = None
    rows: tuple[Row, ...] = ()
    gpu_chart: Drawn | None = None
    rate: Markup = Markup()
    sizing: Markup = Markup()


def _macros(template: str) -> Any:
    """A template's macros, to render a part from Python: templates/_results_parts.html, _chart.html."""
    return templates.env.get_template(template).module


def shown(result: QuoteResult, today: date) -> Shown:
    memo = result.memo
    assert memo is not None, "build_quote gives every result its memo"
    parts, p, catalog = _macros("_results_parts.html"), result.params, result.catalog
    sizing = Markup()
    if result.sizing is not None:
        make = partial(parts.sizing, result.sizing, p.gpu, p.checkpoint_gb)
        sizing = memo.part(("sizing", p.gpu, p.checkpoint_gb), make)
    if not result.quote.options:
        return Shown(sizing=sizing)
    rate = Markup()
    if result.rate is not None:
        rate = memo.part("rate", partial(parts.rate_note, result.rate, result.currency, catalog.version))
    rows = tuple(_row(memo, parts, o, r, result.currency, catalog.version, today) for o, r in result.options)
    chart = _cost_chart(memo, result)
    gpu_chart = _gpu_chart(memo, result) if result.choices else None
    return Shown(chart, rows, gpu_chart, rate, sizing)


def _row(memo: MemoEntry, parts: Any, o: OfferCost, r: OfferRecord, cur: Currency, version: int, today: date) -> Row:
    """An option's cost beside the cells of its row that GPU-hours leave alone: they read the offer,
    the GPUs used and billed, and its egress and storage (priced for the workload less its hours)."""

    def cells() -> RowCells:
        offer, fixed = parts.offer_cells(o, r, version), parts.fixed_cells(o, r, cur)
        return RowCells(offer, fixed, parts.source_cell(r, today))

    return o, memo.part(("row", r.priced.offer_id, o.gpus_used, o.gpus_billed, today), cells)


def _at_hours(drawn: Drawn, hours: float, x_max: float) -> Drawn:
    return Drawn(tuple(at_hours(c, hours, x_max) for c in drawn.charts), drawn.bodies, drawn.legend, drawn.break_evens)


def _cost_chart(memo: MemoEntry, result: QuoteResult) -> Drawn:
    """Each option's cheapest offer with the break-evens marked, drawn once per band and offers chosen."""
    q = result.quote

    def draw() -> Drawn:
        charts = tuple(overlay_chart([q], [], break_evens=True, currency=result.currency, frame=f) for f in FRAMES)
        parts = _macros("_results_parts.html")
        legend, listed = parts.legend(charts[0].series), parts.break_evens(charts[0], q)
        return Drawn(charts, tuple(_macros("_chart.html").chart_body(c) for c in charts), legend, listed)

    drawn = memo.part(("cost chart", q.hours_max, tuple(o.offer.offer_id for o in q.options)), draw)
    return _at_hours(drawn, result.params.gpu_hours, q.hours_max)


def _gpu_chart(memo: MemoEntry, result: QuoteResult) -> Drawn:
    """The cheapest option of each of the cheapest GPU models that fit, one numbered line each."""
    lines: list[GpuChoice] = [c for c in result.choices[:GPU_LINES] if c.cheapest is not None]
    quotes = [Quote([c.cheapest], [], c.quote.hours_max) for c in lines if c.cheapest is not None]
    x_max = max(q.hours_max for q in quotes)

    def draw() -> Drawn:
        names = [f"{n}" for n in range(1, len(quotes) + 1)]
        charts = tuple(overlay_chart(quotes, [], currency=result.currency, frame=f, layer_names=names) for f in FRAMES)
        return Drawn(
            charts,
            tuple(_macros("_chart.html").chart_body(c) for c in charts),
            _macros("_results_parts.html").gpu_legend(lines),
        )

    drawn = memo.part(("gpu chart", x_max, tuple(q.options[0].offer.offer_id for q in quotes)), draw)
    return _at_hours(drawn, result.params.gpu_hours, x_max)
