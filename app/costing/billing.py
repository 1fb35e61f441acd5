"""An offer's month against GPU-hours as its billing kind draws it: whole units reserved, instances
rented whole by the hour, serverless seconds; and the GPUs each uses and bills at some GPU-hours."""

from __future__ import annotations

import math

from app.costing.curves import CostCurve, LinearCost, MeteredCost, SteppedCost, units_curve
from app.costing.terms import HOURS_PER_MONTH, Assumptions, Billing, Offer, Tenancy, Workload


def billed_months(offer: Offer, months: int) -> int:
    """Months of compute billed over a horizon of `months`: all of a minimum term, however short the horizon."""
    return max(months, offer.min_commitment_months or 0)


def term_share(offer: Offer, months: int) -> float:
    """Months of compute billed per month of the horizon: a 12-month term over a 1-month horizon is
    billed whole, 12 months of it in that one month; 1 where the term fits the horizon."""
    return billed_months(offer, months) / months


RESERVED = (Billing.COMMITTED, Billing.MONTHLY, Billing.PURCHASED)
"""Billed by whole units whatever the hours: the tax changes how many units the hours need."""


def added_to_compute(offer: Offer, workload: Workload, assumptions: Assumptions) -> tuple[float, float]:
    """What the assumptions add to an offer's compute: its tenancy's virtualization tax t (the work
    of H GPU-hours takes H / (1 - t)), and USD of serverless cold starts per month of the horizon."""
    cold = 0.0
    if offer.tenancy is Tenancy.SERVERLESS:
        cold = assumptions.cold_start_hours * offer.usd_per_gpu_hour * term_share(offer, workload.months)
    return assumptions.tax(offer.tenancy), cold


def cost_curve(offer: Offer, workload: Workload, assumptions: Assumptions, fixed: float) -> CostCurve:
    """Total per month of the horizon against GPU-hours (a term longer than the horizon billed
    whole), with `fixed` USD of egress and storage on top."""
    tax, term = assumptions.tax(offer.tenancy), term_share(offer, workload.months)
    if offer.billing in RESERVED and workload.fixed_gpus:
        return run_months_curve(fixed, offer, workload, tax)
    if offer.billing in RESERVED:
        unit_month = offer.usd_per_unit_month * term
        return units_curve(fixed, unit_month, offer.gpus_per_unit, workload.peak_gpus, tax, workload.replica_gpus)
    per_hour = offer.usd_per_gpu_hour * term
    if offer.tenancy is Tenancy.SERVERLESS:
        return LinearCost(fixed + assumptions.cold_start_hours * per_hour, per_hour / (1 - tax))
    units = offer.gpus_per_unit
    if workload.fills_units and units >= workload.replica_gpus:
        per_unit = units // workload.replica_gpus * workload.replica_gpus
        return LinearCost(fixed, per_hour / (1 - tax) * units / per_unit)
    if units == 1:
        return LinearCost(fixed, per_hour / (1 - tax))
    hours_per_gpu = math.inf if workload.fixed_gpus else HOURS_PER_MONTH * (1 - tax)
    return MeteredCost(fixed, per_hour / (1 - tax), units, workload.peak_gpus, workload.replica_gpus, hours_per_gpu)


def run_months_curve(fixed: float, offer: Offer, workload: Workload, tax: float) -> SteppedCost:
    """A run's reserved nodes, each step one more month of all of them: the run's GPU-hours H a month
    of the horizon's M take H x M / (1 - t) hours of the run's own GPUs (a node's others idle), in whole
    months billed (at least the term), spread over the M months of the horizon."""
    nodes = math.ceil(workload.peak_gpus / offer.gpus_per_unit)
    return SteppedCost(
        base=fixed,
        unit_month=offer.usd_per_unit_month * nodes / workload.months,
        min_units=billed_months(offer, 1),
        hours_per_unit=workload.peak_gpus * HOURS_PER_MONTH * (1 - tax) / workload.months,
        run_nodes=nodes,
    )


def gpus_used_and_billed(offer: Offer, curve: CostCurve, workload: Workload) -> tuple[int, int]:
    """GPUs used at once and billed at the workload's GPU-hours: the page says "uses 5 of 8 GPUs"."""
    if isinstance(curve, MeteredCost):
        return curve.at_once(workload.gpu_hours), curve.billed(workload.gpu_hours)
    billed, units, replica = offer.gpus_billed(workload.peak_gpus), offer.gpus_per_unit, workload.replica_gpus
    if workload.fills_units and offer.tenancy is not Tenancy.SERVERLESS and units >= replica:
        return billed // units * (units // replica * replica), billed
    return workload.peak_gpus, billed
