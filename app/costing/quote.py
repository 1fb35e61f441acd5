"""A quote: the monthly cost of each offer for one workload, the cheapest per option, break-evens."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cached_property

from app.costing.billing import added_to_compute, billed_months, cost_curve, gpus_used_and_billed
from app.costing.breakeven import BreakEven, Turn, crossovers
from app.costing.curves import CostCurve, SteppedCost
from app.costing.fixed_costs import FixedCosts, fixed_costs
from app.costing.money import USD, Currency
from app.costing.ranking import by_option, cheapest_by
from app.costing.terms import Assumptions, Billing, Offer, Tenancy, Workload

OptionKey = tuple[Tenancy, Billing]
"""An option is a way of renting: a tenancy with a billing kind (e.g. virtualized on spot)."""


@dataclass(frozen=True)
class OfferCost:
    """USD per month of the horizon for the workload on one offer, its setup fee apart (paid once
    over the horizon); egress or storage None where not published. A term longer than the horizon is
    billed whole: `compute` and `total` carry all of it, `billed_month` is a month of it as billed."""

    offer: Offer
    compute: float
    egress: float | None
    storage: float | None
    total: float
    effective_per_gpu_hour: float | None
    curve: CostCurve
    gpus_used: int = 1
    gpus_billed: int = 1
    """Whole units cover the GPUs used at once: the page says "uses 1 of 8 GPUs" where they differ."""
    assumed: tuple[str, ...] = ()
    """"egress" and/or "storage" where part of that cost is at the user's assumed price, not a published one."""
    compute_months: int = 1
    """Months of compute billed over the horizon: all of a minimum commitment, however short the horizon."""
    months: int = 1
    tax: float = 0.0
    """The virtualization tax assumed for the offer's tenancy: 0.05 for 5 %."""
    tax_usd: float = 0.0
    """USD of the compute the tax adds: the hours lost to it, billed by the hour, or the units more it
    takes (`tax_units`)."""
    tax_units: int = 0
    """Whole units (nodes, reserved GPUs) the tax adds to those the work needs."""
    tax_months: int = 0
    """A run on reserved nodes: the months the tax adds to those it is billed (its nodes are fixed)."""
    cold_start_usd: float = 0.0
    """USD of the compute the serverless cold starts assumed add."""

    @property
    def gpu_time_usd(self) -> float:
        """The compute less what the assumptions add: what the work's GPU-hours cost as the offer
        bills them (whole instances and units, idle GPUs included)."""
        return self.compute - self.tax_usd - self.cold_start_usd

    @cached_property
    def option(self) -> OptionKey:
        return option_of(self.offer)

    @cached_property
    def complete(self) -> bool:
        return not self.unpublished

    def horizon_in(self, currency: Currency = USD) -> Decimal:
        """The horizon's total as its invoices add up: a month's compute and its egress plus storage,
        each rounded to the cent in `currency`, times the horizon's months (a term longer than the horizon,
        or a run billed months past it: its whole compute, rounded once), and the setup fee, rounded once."""
        fixed = (self.egress or 0.0) + (self.storage or 0.0)
        if self.term_past_horizon or self.tax_months:
            compute = currency.cents(self.compute * self.months)
        else:
            compute = currency.cents(self.compute) * self.months
        return compute + currency.cents(fixed) * self.months + currency.cents(self.offer.setup_fee_usd)

    @property
    def billed_month(self) -> float:
        """USD of compute a month as the offer bills it: a term's monthly share, or of a run's nodes."""
        return self.compute * self.months / (self.compute_months + self.tax_months)

    @property
    def term_past_horizon(self) -> int | None:
        """The months of a minimum term longer than the horizon, billed whole; None where it fits."""
        return self.compute_months if self.compute_months > self.months else None

    @property
    def horizon_total(self) -> float:
        return float(self.horizon_in())

    @property
    def horizon_month(self) -> float:
        """A month of the horizon, a term past it billed whole and the setup fee spread over its months:
        what options are ranked by."""
        return self.total + self.offer.setup_fee_usd / self.months

    @cached_property
    def unpublished(self) -> tuple[str, ...]:
        """The costs left out of the total: no published price, and none assumed."""
        return tuple(name for name, usd in (("egress", self.egress), ("storage", self.storage)) if usd is None)

    @property
    def idle_gpus(self) -> bool:
        """Billed for GPUs the workload leaves idle: a whole instance for fewer GPUs at once."""
        return self.gpus_billed > self.gpus_used

    @property
    def interruptible(self) -> bool:
        """Spot capacity is reclaimed when the provider needs it: work may stop and repeat."""
        return self.offer.billing is Billing.SPOT


@dataclass(frozen=True)
class Quote:
    """The cheapest offer of each option, cheapest first, and where each pair of them crosses."""

    options: list[OfferCost]
    break_evens: list[BreakEven]
    hours_max: float
    cheaper_looking: OfferCost | None = None
    """An offer whose total looks below the cheapest fully priced one only because it leaves out a
    cost its provider does not publish: named beside the answer, never as the answer."""
    turns: tuple[Turn, ...] = ()
    """Where the cheapest option changes up to hours_max."""


def option_of(offer: Offer) -> OptionKey:
    return offer.tenancy, offer.billing


@dataclass(frozen=True)
class PricedOffer:
    """All of an offer's month that does not depend on GPU-hours: egress, storage and the curve."""

    offer: Offer
    option: OptionKey
    fixed: FixedCosts
    curve: CostCurve
    setup_share: float = 0.0
    """The setup fee spread over the horizon's months, in the curve's base: ranking and break-evens count it."""
    added: tuple[float, float] = (0.0, 0.0)
    """The virtualization tax and the USD of cold starts the assumptions add (`added_to_compute`)."""

    @property
    def complete(self) -> bool:
        return self.fixed.complete


def price_offers(offers: list[Offer], workload: Workload, assumptions: Assumptions) -> list[PricedOffer]:
    """Each offer's curve for the workload; its GPU-hours are not read, so moving the GPU-hours
    slider can reuse the result. Egress and storage are priced once per provider's tier tables."""
    fixed_by_prices: dict[tuple[int, int], FixedCosts] = {}
    priced = []
    for offer in offers:
        prices = id(offer.egress_tiers), id(offer.storage_tiers)
        fixed = fixed_by_prices.get(prices)
        if fixed is None:
            fixed = fixed_by_prices[prices] = fixed_costs(offer, workload, assumptions)
        share = offer.setup_fee_usd / workload.months
        curve = cost_curve(offer, workload, assumptions, fixed.usd + share)
        added = added_to_compute(offer, workload, assumptions)
        priced.append(PricedOffer(offer, option_of(offer), fixed, curve, share, added))
    return priced


def breakdown(priced: PricedOffer, workload: Workload) -> OfferCost:
    used, billed = gpus_used_and_billed(priced.offer, priced.curve, workload)
    total = priced.curve.at(workload.gpu_hours) - priced.setup_share
    compute = total - priced.fixed.usd
    per_hour = total / workload.gpu_hours if workload.gpu_hours > 0 else math.inf  # past every float: no rate
    compute_months = billed_months(priced.offer, workload.months)
    tax, cold_start = priced.added
    tax_units, tax_months, tax_usd = 0, 0, (compute - cold_start) * tax
    if isinstance(priced.curve, SteppedCost):
        untaxed = replace(priced.curve, hours_per_unit=priced.curve.hours_per_unit / (1 - tax))
        more = priced.curve.units(workload.gpu_hours) - untaxed.units(workload.gpu_hours)
        tax_usd = more * priced.curve.unit_month
        tax_units, tax_months = (0, more) if workload.fixed_gpus else (more * priced.curve.unit_nodes, 0)
    return OfferCost(
        offer=priced.offer,
        compute=compute,
        egress=priced.fixed.egress,
        storage=priced.fixed.storage,
        total=total,
        effective_per_gpu_hour=per_hour if math.isfinite(per_hour) else None,
        curve=priced.curve,
        gpus_used=used,
        gpus_billed=billed,
        assumed=priced.fixed.assumed,
        compute_months=compute_months,
        months=workload.months,
        tax=tax,
        tax_usd=tax_usd,
        tax_units=tax_units,
        tax_months=tax_months,
        cold_start_usd=cold_start,
    )


def cost_offer(offer: Offer, workload: Workload, assumptions: Assumptions) -> OfferCost:
    return breakdown(price_offers([offer], workload, assumptions)[0], workload)


def quote_priced(priced: list[PricedOffer], workload: Workload, hours_max: float) -> Quote:
    """Each option's cheapest offer at the workload's GPU-hours and where they cross up to hours_max."""
    options, cheaper_looking = cheapest_at(priced, workload)
    pairs, turns = crossovers(options, hours_max)
    return Quote(options, pairs, hours_max, cheaper_looking, turns)


def cheapest_at(priced: list[PricedOffer], workload: Workload) -> tuple[list[OfferCost], OfferCost | None]:
    """Cheapest offer per option at the workload's GPU-hours, options cheapest first (as `Rank`), and
    the cheapest offer with an unpublished cost where it looks cheaper than the answer (else None)."""
    ranked, looks_cheapest = cheapest_by(priced, workload.gpu_hours, by_option)
    options = [breakdown(p, workload) for _, p in ranked]
    cheaper_looking = None
    if options and options[0].complete and looks_cheapest is not None and looks_cheapest[0][1] < ranked[0][0][1]:
        cheaper_looking = breakdown(looks_cheapest[1], workload)
    return options, cheaper_looking


def quote(offers: list[Offer], workload: Workload, assumptions: Assumptions, hours_max: float) -> Quote:
    return quote_priced(price_offers(offers, workload, assumptions), workload, hours_max)
