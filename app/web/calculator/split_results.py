"""What the results say of the hybrid split: the answer in figures, the load-duration curve with the
base drawn on it, and the month against the base, each as the results block draws it."""

from __future__ import annotations

from dataclasses import dataclass

from app.catalog.snapshot import OfferRecord
from app.costing.hybrid import Split, busy_share
from app.costing.money import Currency
from app.costing.terms import Billing
from app.quoting.build import QuoteResult
from app.quoting.owning import OwnedRecord
from app.quoting.split import Pair, SplitQuote
from app.quoting.split_ways import Way, split_ways
from app.web.calculator.split_charts import FRAME, Curve, Line, curve_drawn, line_drawn, month_of
from app.web.chart_kit import Frame
from app.web.templating import money, money_rate, quantity

FLAT = 0.01
"""Bases within this share of the best month are "about as cheap": how flat the optimum is."""


@dataclass(frozen=True)
class WayRow:
    """One way of carrying the profile, as the comparison table shows it."""

    name: str
    base: str
    burst: str
    data: str
    month: str
    horizon: str
    complete: bool


@dataclass(frozen=True)
class SplitFigures:
    quote: SplitQuote
    base_record: OfferRecord | OwnedRecord | None
    burst_record: OfferRecord | OwnedRecord | None
    best: Split
    total: str
    horizon: str
    saves_burst: str | None
    """How much less than bursting all of it a month (of the horizon, where it is longer), None where
    the split saves less than a cent as shown."""
    saves_reserved: str | None
    ways: tuple[WayRow, ...]
    curve: Curve
    line: Line | None
    flat: tuple[int, int]
    """The fewest and most base GPUs within `FLAT` of the best month."""
    rule_units: int
    why_not_rule: tuple[str, ...]
    """What makes the simulation's base differ from the rule's, where it does."""
    busiest: str
    """The share of the month the (best base + 1)-th GPU is busy."""
    threshold: str | None
    """How busy a GPU must be for the base to pay by the simple rule: its GPU-month over 730 burst hours."""
    per_million: str | None = None
    """A serving job's split, per million output tokens."""
    frame: Frame = FRAME


def split_figures(result: QuoteResult) -> SplitFigures | None:
    found = split_ways(result)
    if found is None:
        return None
    q, cur, answer = found.quote, result.currency, found.answer
    best, base_p, burst_p, pair = answer.split, answer.base, answer.burst, q.pair
    carried = best.base_gpus * (1 - result.params.assumptions().tax(base_p.offer.tenancy)) if base_p else 0.0
    return SplitFigures(
        quote=q,
        base_record=result.record_of(base_p.offer) if base_p else None,
        burst_record=result.record_of(burst_p.offer) if burst_p else None,
        best=best,
        total=money(best.total, cur),
        horizon=money(best.horizon, cur),
        saves_burst=_saves(found.all_burst, cur),
        saves_reserved=_saves(found.all_reserved, cur),
        ways=tuple(_way(result, way) for way in found.ways),
        curve=curve_drawn(q, carried),
        line=line_drawn(pair, q.months, cur) if pair else None,
        flat=_flat(pair, q.months) if pair else (best.base_gpus, best.base_gpus),
        rule_units=pair.rule_units if pair else 0,
        why_not_rule=_why_not_rule(pair, q.months) if pair else (),
        busiest=f"{busy_share(q.profile, best.base_gpus + 1):.0%}",
        threshold=f"{pair.rule_share:.0%}" if pair else None,
        per_million=None if found.per_million is None else money_rate(found.per_million, cur),
    )


def _saves(way: Way | None, cur: Currency) -> str | None:
    """What the answer saves a month against `way`, where that is at least a cent as shown."""
    if way is None or cur.cents(way.saved_a_month) <= 0:
        return None
    return money(way.saved_a_month, cur)


def _way(result: QuoteResult, way: Way) -> WayRow:
    cur, split = result.currency, way.split
    base_text = "none"
    if way.base is not None and split.units:
        g = way.base.offer.gpus_per_unit
        units = f"{split.units} × {g} GPU{'s' if g > 1 else ''}"
        base_text = f"{units}, {money(split.base, cur)} ({result.record_of(way.base.offer).provider.name})"
    burst_text = "none"
    if way.burst is not None and split.burst_gpu_hours > 0:
        hours = quantity(round(split.burst_gpu_hours, 1))
        burst_text = f"{hours} GPU-hours, {money(split.burst, cur)} ({result.record_of(way.burst.offer).provider.name})"
    return WayRow(
        way.name, base_text, burst_text, money(split.data, cur), money(split.total, cur), money(split.horizon, cur),
        way.complete,
    )  # fmt: skip


def _flat(pair: Pair, months: int) -> tuple[int, int]:
    least = month_of(pair.best, months)
    near = [s.base_gpus for s in pair.splits if month_of(s, months) <= least * (1 + FLAT) + 0.005]
    return min(near), max(near)


def _why_not_rule(pair: Pair, months: int) -> tuple[str, ...]:
    if pair.rule_units == pair.best.units:
        return ()
    o, why = pair.base.offer, []
    if o.gpus_per_unit > 1:
        why.append(f"the base comes in whole units of {o.gpus_per_unit} GPUs")
    if pair.burst.offer.gpus_per_unit > 1 and pair.burst.offer.billing is not Billing.PER_SECOND:
        why.append(f"the burst is billed in whole instances of {pair.burst.offer.gpus_per_unit} GPUs")
    if (o.min_commitment_months or 1) > months:
        why.append(f"a {o.min_commitment_months}-month term is billed whole over your {months}-month horizon")
    if o.setup_fee_usd:
        why.append("each unit's setup fee counts over the horizon")
    if pair.base.fixed.usd != pair.burst.fixed.usd:
        why.append("egress and storage are priced with the base's provider where there is a base")
    return tuple(why)
