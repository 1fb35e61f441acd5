"""What a serving job's useful output costs: a month per million output tokens. Worked out once here,
and only formatted by the page (web/calculator/job_bars.py, split_results.py) and the API
(out/quote.py, out/split.py); a run's cost per output is the run's, its horizon total."""

from __future__ import annotations

from app.costing.jobs import per_million_tokens
from app.quoting.build import QuoteResult


def per_million(result: QuoteResult, total: float) -> float | None:
    """USD per million output tokens of a serving job whose month costs `total` USD; None for a run or
    GPU-hours, which state no tokens."""
    if result.job is None or result.job.serving is None:
        return None
    return per_million_tokens(total, result.params.output_tokens)
