"""What the results say of the server the buyer would own: its month by part at these GPU-hours, how
busy its GPUs are, and what a horizon shorter than its useful life leaves of the purchase."""

from __future__ import annotations

from dataclasses import dataclass

from app.costing.owning import OWNED_OFFER_ID, OwnedBreakEven, OwnedMonth
from app.quoting.build import QuoteResult
from app.quoting.owned_quote import owned_at, owned_beats
from app.web.chart_kit import stacked
from app.web.templating import money, money_rate


@dataclass(frozen=True)
class OwnedFigures:
    """The owned option at this move, formatted as the results block shows it."""

    servers: str
    capex: str
    energy: str
    colocation: str
    operations: str
    total: str
    busy: str
    full_use: str
    """Per GPU-hour of work with every GPU busy all month: owning's floor."""
    left: str | None
    """The purchase not yet written off at the horizon's end; None where the horizon covers the useful life
    (an input of the memo's key, so the same at every move)."""
    bars: tuple[str, ...] = ()
    """Where each part's bar starts and how wide it is (capex, power, colocation, operations), then the
    width of the cheapest rental option's month, on a scale of 100 for the larger month; () if none rents."""
    rental: str = ""
    """The cheapest rental option's month, beside its bar."""


def owned_figures(result: QuoteResult) -> OwnedFigures | None:
    at = owned_at(result)
    if at is None:
        return None
    cur, gpus, parts = result.currency, at.cost.offer.gpus_per_unit, at.month
    shorter = result.params.months < at.record.running.life_months
    rented = next((r for r in result.quote.options if r.offer.offer_id != OWNED_OFFER_ID and r.complete), None)
    return OwnedFigures(
        servers=f"{at.servers} server{'s' if at.servers != 1 else ''} of {gpus}",
        capex=money(parts.capex, cur),
        energy=money(parts.energy, cur),
        colocation=money(parts.colocation, cur),
        operations=money(parts.operations, cur),
        total=money(parts.total, cur),
        busy=f"{at.busy:.0%}",
        full_use=money_rate(at.full_use, cur),
        left=money(at.left, cur) if shorter else None,
        bars=() if rented is None else _bars(parts, rented.total),
        rental="" if rented is None else money(rented.total, cur),
    )


def _bars(parts: OwnedMonth, rental: float) -> tuple[str, ...]:
    scale = 100 / max(parts.total, rental, 1e-9)
    owned = stacked((parts.capex, parts.energy, parts.colocation, parts.operations), scale)
    return (*(f"{n:.2f}" for bar in owned for n in bar), f"{rental * scale:.2f}")


def owned_break_evens(result: QuoteResult) -> tuple[OwnedBreakEven, ...]:
    """Where owning first beats each other option, up to the chart's end: the same at every move of one shape."""
    at = owned_at(result)
    return () if at is None else tuple(owned_beats(result, at))
