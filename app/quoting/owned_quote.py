"""The server owned as the quote has it at its GPU-hours: worked out once here, and only formatted by
the page (app/owned_results.py) and the API (owned_schemas.py)."""

from __future__ import annotations

from dataclasses import dataclass

from app.costing.curves import SteppedCost
from app.costing.owning import (
    OWNED_OFFER_ID,
    OwnedBreakEven,
    OwnedMonth,
    busy_share,
    full_use_rate,
    owning_beats,
    undepreciated,
)
from app.costing.quote import OfferCost
from app.costing.terms import Tenancy
from app.quoting.build import QuoteResult
from app.quoting.owning import OwnedRecord


@dataclass(frozen=True)
class OwnedAt:
    """USD: the servers' month by part, how busy their GPUs are, a GPU-hour of work at full use, and
    the purchase not yet written off at the horizon's end (0 once the horizon covers the life)."""

    record: OwnedRecord
    cost: OfferCost
    curve: SteppedCost
    servers: int
    month: OwnedMonth
    busy: float
    full_use: float
    left: float


def owned_at(result: QuoteResult) -> OwnedAt | None:
    """None where no server is owned, or it is not among the quote's options."""
    owned = result.owned
    found = next((o for o in result.quote.options if o.offer.offer_id == OWNED_OFFER_ID), None)
    if owned is None or found is None or not isinstance(found.curve, SteppedCost):
        return None
    p, gpus = result.params, found.offer.gpus_per_unit
    servers = found.curve.nodes(p.gpu_hours)
    return OwnedAt(
        owned, found, found.curve, servers, owned.month.times(servers), busy_share(p.gpu_hours, servers, gpus),
        full_use_rate(owned.month.total, gpus, p.assumptions().tax(Tenancy.OWNED)),
        undepreciated(owned.price_usd, owned.running.life_months, p.months) * servers,
    )  # fmt: skip


def owned_beats(result: QuoteResult, at: OwnedAt) -> list[OwnedBreakEven]:
    """Where owning first becomes cheaper than each other option, up to the quote's end."""
    return owning_beats(result.quote.break_evens, at.curve, at.cost.offer.gpus_per_unit)
