"""What the results say of the hybrid split: the answer in figures, the load-duration curve with the
base drawn on it, and the month against the base, each as the results block draws it."""

from __future__ import annotations

from dataclasses import dataclass

from app.catalog.snapshot import OfferRecord
from app.costing.hybrid import Split, busy_share
from app.costing.jobs import per_million_tokens
from app.costing.money import Currency
from app.costing.quote import PricedOffer
from app.costing.terms import Billing
from app.quoting.build import QuoteResult
from app.quoting.owning import OwnedRecord
from app.quoting.split import Alone, Pair, SplitQuote
from app.web.calculator.split_charts import FRAME, Curve, Line, curve_drawn, line_drawn, month_of
from app.web.chart_kit import Frame
from app.web.templating import money, money_rate, quantity

FLAT = 0.01
"""Bases within this share of the best month are "about as cheap": how flat the optimum is."""


@dataclass(frozen=True)
class Way:
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
    """How much less than bursting all of it a month (over the horizon where it is longer), None where
    the split is all burst."""
    saves_reserved: str | None
    ways: tuple[Way, ...]
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
    q = result.split
    answer = None if q is None else q.answer
    if q is None or answer is None:
        return None
    cur, months, pair = result.currency, q.months, q.pair
    best, base_p, burst_p = answer.split, answer.base, answer.burst
    base_record = result.record_of(base_p.offer) if base_p else None
    burst_record = result.record_of(burst_p.offer) if burst_p else None
    carried = best.base_gpus * (1 - result.params.assumptions().tax(base_p.offer.tenancy)) if base_p else 0.0
    return SplitFigures(
        quote=q,
        base_record=base_record,
        burst_record=burst_record,
        best=best,
        total=money(best.total, cur),
        horizon=money(best.horizon, cur),
        saves_burst=_saves(q.all_burst, best, months, cur),
        saves_reserved=_saves(q.all_reserved, best, months, cur),
        ways=_ways(result, q, best, cur),
        curve=curve_drawn(q, carried),
        line=line_drawn(pair, months, cur) if pair else None,
        flat=_flat(pair, months) if pair else (best.base_gpus, best.base_gpus),
        rule_units=pair.rule_units if pair else 0,
        why_not_rule=_why_not_rule(pair, months) if pair else (),
        busiest=f"{busy_share(q.profile, best.base_gpus + 1):.0%}",
        threshold=f"{pair.rule_share:.0%}" if pair else None,
        per_million=money_rate(per_million_tokens(best.total, result.params.output_tokens), cur)
        if result.job and result.job.serving
        else None,
    )


def _saves(alone: Alone | None, best: Split, months: int, cur: Currency) -> str | None:
    if alone is None or alone.split.units == best.units and alone.split.base_gpus == best.base_gpus:
        return None
    gap = (alone.split.horizon - best.horizon) / months
    return money(gap, cur) if gap > 0.005 else None


def _ways(result: QuoteResult, q: SplitQuote, best: Split, cur: Currency) -> tuple[Way, ...]:
    found: list[tuple[str, PricedOffer | None, PricedOffer | None, Split, bool]] = []
    if q.pair is not None:
        found.append(("The split", q.pair.base, q.pair.burst, best, q.pair.complete))
    if q.all_burst is not None:
        found.append(("All burst", None, q.all_burst.offer, q.all_burst.split, q.all_burst.offer.complete))
    if q.all_reserved is not None:
        found.append(("All dedicated", q.all_reserved.offer, None, q.all_reserved.split, q.all_reserved.offer.complete))
    ways = []
    for name, base, burst, split, complete in found:
        base_text = "none"
        if base is not None and split.units:
            record = result.record_of(base.offer)
            g = base.offer.gpus_per_unit
            units = f"{split.units} × {g} GPU{'s' if g > 1 else ''}"
            base_text = f"{units}, {money(split.base, cur)} ({record.provider.name})"
        burst_text = "none"
        if burst is not None and split.burst_gpu_hours > 0:
            record = result.record_of(burst.offer)
            hours = quantity(round(split.burst_gpu_hours, 1))
            burst_text = f"{hours} GPU-hours, {money(split.burst, cur)} ({record.provider.name})"
        ways.append(
            Way(
                name,
                base_text,
                burst_text,
                money(split.data, cur),
                money(split.total, cur),
                money(split.horizon, cur),
                complete,
            )  # fmt: skip
        )
    return tuple(ways)


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
