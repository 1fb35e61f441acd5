"""A job's figures in the results: what a useful output costs on an option, and the any-GPU ranking
drawn as one bar per GPU model, as long as its cheapest option's cost for the same job (or the same
work, GPU-hours converted by speed), so that the eye finds the cheapest GPU before it reads the table."""

from __future__ import annotations

from dataclasses import dataclass

from app.costing.quote import OfferCost, OptionKey
from app.quoting.build import QuoteResult
from app.quoting.choices import GpuChoice
from app.quoting.per_output import per_million
from app.web.chart_kit import FRAMES, Frame, text_width
from app.web.templating import amount, money, money_rate

ROW = 30
"""Height of one bar's row, in the frame's units."""
BARS = 8
"""GPU models drawn: the cheapest; the table lists them all."""


def per_output(result: QuoteResult, o: OfferCost) -> str | None:
    """What the job's useful output costs on this option: a million output tokens, or the run."""
    cur = result.currency
    if result.job is None:
        return None
    if result.job.run is not None:
        return amount(o.horizon_in(cur), cur)
    return money_rate(per_million(result, o.total), cur)


def _cost(result: QuoteResult, o: OfferCost) -> float:
    """USD the bar's length is drawn to (a ratio between bars, so the same in any currency)."""
    return o.horizon_total if result.job is not None and result.job.run is not None else o.total


@dataclass(frozen=True)
class Bar:
    label: str
    option: OptionKey
    value: str
    y: int
    width: float
    complete: bool


@dataclass(frozen=True)
class Bars:
    """The bars in one frame: labels left of `left`, bars from it, their value after each."""

    frame: Frame
    height: int
    left: int
    bars: tuple[Bar, ...]


def _approx(choice: GpuChoice) -> str:
    """ "≈" before a figure that rests on the estimate rather than a benchmark or the buyer's throughput."""
    if choice.speed is not None:
        return "≈" if choice.speed.rate is not None and choice.speed.rate.estimated is not None else ""
    return "≈" if choice.job is not None and choice.job.estimated is not None else ""


def job_bars(result: QuoteResult) -> tuple[Bars, ...]:
    """Each GPU model's cheapest option for the job or the work, cheapest first, in every frame; () unless
    any GPU is quoted on equal work."""
    cheapest = [(c, c.cheapest) for c in result.choices if c.cheapest is not None][:BARS]
    if result.job is None and result.equal_work is None or not cheapest:
        return ()
    top, cur = max(_cost(result, o) for _, o in cheapest) or 1.0, result.currency
    drawn = []
    longest = max(len(f"{c.gpus} x {c.gpu}") for c, _ in cheapest)
    for frame in FRAMES:
        left = max(9 * frame.text, round(text_width("x" * longest, frame.text)) + 8)
        room = frame.width - left - 7 * frame.text
        bars = tuple(
            Bar(f"{c.gpus} x {c.gpu}", o.option, _approx(c) + (per_output(result, o) or money(o.total, cur)),
                i * ROW + 4, max(1.0, room * _cost(result, o) / top), o.complete)
            for i, (c, o) in enumerate(cheapest)
        )  # fmt: skip
        drawn.append(Bars(frame, len(bars) * ROW + 4, left, bars))
    return tuple(drawn)
