"""The results block's charts in every frame: drawn once per band and offers chosen in the memo of the
request's inputs (app/quoting/moves.py), the current-hours line added per move of the slider."""

from __future__ import annotations

from dataclasses import replace

from app.catalog.cache import MemoEntry
from app.costing.quote import Quote
from app.quoting.build import QuoteResult
from app.quoting.choices import GpuChoice
from app.web.calculator.charts import Chart, options_chart, overlay_chart, yours
from app.web.chart_kit import FRAMES

GPU_LINES = 4
"""GPU models drawn on the any-GPU chart: the dash patterns tell four apart."""


def at_hours(drawn: tuple[Chart, ...], hours: float, x_max: float) -> tuple[Chart, ...]:
    """The charts drawn with this move's current-hours line on an axis that ends at `x_max`."""
    return tuple(replace(chart, current=yours(chart, hours, x_max)) for chart in drawn)


def options_drawn(memo: MemoEntry, result: QuoteResult) -> tuple[Chart, ...]:
    """Each option's cheapest offer with the break-evens marked, at this move's GPU-hours."""
    q = result.quote
    chosen = tuple(o.offer.offer_id for o in q.options)
    drawn = memo.part(("cost chart", q.hours_max, chosen), lambda: _options(q, result))
    return at_hours(drawn, result.params.gpu_hours, q.hours_max)


def _options(q: Quote, result: QuoteResult) -> tuple[Chart, ...]:
    return tuple(options_chart(q, result.currency, f) for f in FRAMES)


def gpu_lines(result: QuoteResult) -> list[GpuChoice]:
    """The first GPU models listed (`quoted_first`) that have a cheapest option: one numbered line each."""
    return [c for c in result.choices if c.cheapest is not None][:GPU_LINES]


def gpus_drawn(memo: MemoEntry, result: QuoteResult) -> tuple[Chart, ...]:
    """The cheapest option of each of `gpu_lines`, at this move's GPU-hours."""
    quotes = [Quote([c.cheapest], [], c.quote.hours_max) for c in gpu_lines(result) if c.cheapest is not None]

    def draw() -> tuple[Chart, ...]:
        names = [str(n) for n in range(1, len(quotes) + 1)]
        return tuple(overlay_chart(quotes, [], currency=result.currency, frame=f, layer_names=names) for f in FRAMES)

    drawn = memo.part(("gpu chart", tuple((q.hours_max, q.options[0].offer.offer_id) for q in quotes)), draw)
    return at_hours(drawn, result.params.gpu_hours, max(q.hours_max for q in quotes))
