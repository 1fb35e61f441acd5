"""The results block's charts, drawn once per band and offers chosen in the memo of the request's
inputs (app/results.py): every frame's SVG body and the HTML around it, less the current-hours line
that a move of the slider redraws."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from app.catalog.cache import MemoEntry
from app.costing.quote import Quote
from app.quoting.build import QuoteResult
from app.quoting.choices import GpuChoice
from app.web.calculator.charts import Chart, CurrentLine, options_chart, overlay_chart, yours
from app.web.chart_kit import FRAMES
from app.web.templating import macros

GPU_LINES = 4
"""GPU models drawn on the any-GPU chart: the dash patterns tell four apart."""


@dataclass(frozen=True)
class Drawn:
    """A chart in every frame without its current-hours line, its SVG bodies and the HTML around it:
    the same for every GPU-hours within one band while the same offers are cheapest."""

    charts: tuple[Chart, ...]
    bodies: tuple[Markup, ...]
    legend: Markup
    x_max: float
    """The GPU-hours at the right end of the axis: the widest band of the quotes drawn."""
    break_evens: Markup = Markup()


def current_in(drawn: Drawn, hours: float) -> tuple[tuple[CurrentLine, ...], ...]:
    return tuple(tuple(yours(chart, hours, drawn.x_max)) for chart in drawn.charts)


def options_drawn(memo: MemoEntry, result: QuoteResult) -> Drawn:
    """Each option's cheapest offer with the break-evens marked, drawn once per band and offers chosen."""
    q = result.quote

    def draw() -> Drawn:
        charts = tuple(options_chart(q, result.currency, f) for f in FRAMES)
        parts = macros("calculator/_results_parts.html")
        legend, listed = parts.legend(charts[0].series), parts.break_evens(charts[0], q)
        return Drawn(charts, tuple(macros("_chart.html").chart_body(c) for c in charts), legend, q.hours_max, listed)

    return memo.part(("cost chart", q.hours_max, tuple(o.offer.offer_id for o in q.options)), draw)


def gpus_drawn(memo: MemoEntry, result: QuoteResult) -> Drawn:
    """The cheapest option of each of the first GPU models listed (`quoted_first`), one numbered line each."""
    lines: list[GpuChoice] = [c for c in result.choices if c.cheapest is not None][:GPU_LINES]
    quotes = [Quote([c.cheapest], [], c.quote.hours_max) for c in lines if c.cheapest is not None]

    def draw() -> Drawn:
        names = [f"{n}" for n in range(1, len(quotes) + 1)]
        charts = tuple(overlay_chart(quotes, [], currency=result.currency, frame=f, layer_names=names) for f in FRAMES)
        return Drawn(
            charts,
            tuple(macros("_chart.html").chart_body(c) for c in charts),
            macros("calculator/_results_parts.html").gpu_legend(lines),
            max(q.hours_max for q in quotes),
        )

    drawn = tuple((q.hours_max, q.options[0].offer.offer_id) for q in quotes)
    return memo.part(("gpu chart", drawn), draw)
