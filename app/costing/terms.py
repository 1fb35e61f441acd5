"""The words of the domain as types: tenancies, billing kinds, offers, workloads, assumptions."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import TypeVar

from app.costing.tiers import Tier

HOURS_PER_MONTH = 730.0
"""8,760 hours a year / 12, as cloud invoices count a month."""

PERIOD_SECONDS = {"second": 1, "hour": 3600, "month": 730 * 3600, "year": 8760 * 3600}
"""Whole seconds, so that a period's hours are exact in decimals too."""
PERIOD_HOURS = {period: seconds / 3600 for period, seconds in PERIOD_SECONDS.items()}

Price = TypeVar("Price", float, Decimal)


def per_hour(price: Price, period: str) -> Price:
    """A price for a period as a price per hour, in its own type: float for the curves, Decimal for a
    price as stored (the history's), divided by the period's exact hours."""
    if isinstance(price, Decimal):
        return price / (Decimal(PERIOD_SECONDS[period]) / 3600)
    return price / PERIOD_HOURS[period]


def per_gpu_hour(price: Price, period: str, gpus_per_unit: int) -> Price:
    """A unit's price for a period as a price per GPU-hour: every GPU of the unit carries its share."""
    return per_hour(price, period) / gpus_per_unit


class Tenancy(StrEnum):
    BARE_METAL = "bare_metal"
    VIRTUALIZED = "virtualized"
    SERVERLESS = "serverless"
    OWNED = "owned"
    """Servers the buyer buys and runs (app/costing/owning.py): no provider, no offer."""


RENTED = (Tenancy.BARE_METAL, Tenancy.VIRTUALIZED, Tenancy.SERVERLESS)
"""The tenancies an offer may have: what a provider rents out."""


class Billing(StrEnum):
    ON_DEMAND = "on_demand"
    SPOT = "spot"
    COMMITTED = "committed"
    MONTHLY = "monthly"
    PER_SECOND = "per_second"
    PURCHASED = "purchased"
    """Bought outright: the month is the purchase over a useful life, power and colocation."""


RENTAL_BILLINGS = (Billing.ON_DEMAND, Billing.SPOT, Billing.COMMITTED, Billing.MONTHLY, Billing.PER_SECOND)


class PricePeriod(StrEnum):
    SECOND = "second"
    HOUR = "hour"
    MONTH = "month"
    YEAR = "year"


@dataclass(frozen=True)
class Offer:
    """One priced way to rent GPUs, with what its provider charges for egress and storage.

    `price_usd` is per unit (instance or node) and `period`, as published; `setup_fee_usd` is
    charged once, however long the horizon. Egress is priced per GB and storage per GB-month through
    the provider's tiers; no tiers where no public price is known.
    """

    offer_id: int
    provider: str
    tenancy: Tenancy
    billing: Billing
    gpus_per_unit: int
    price_usd: float
    period: PricePeriod
    min_commitment_months: int | None = None
    egress_tiers: tuple[Tier, ...] = ()
    storage_tiers: tuple[Tier, ...] = ()
    setup_fee_usd: float = 0.0

    @property
    def usd_per_gpu_hour(self) -> float:
        return per_gpu_hour(self.price_usd, self.period, self.gpus_per_unit)

    @property
    def usd_per_unit_hour(self) -> float:
        return per_hour(self.price_usd, self.period)

    @property
    def usd_per_unit_month(self) -> float:
        return self.usd_per_unit_hour * HOURS_PER_MONTH

    def gpus_billed(self, gpus_at_once: int) -> int:
        """An instance or node is rented whole: 1 GPU used on an 8-GPU node bills 8, 12 bill 16.
        Serverless bills per GPU."""
        if self.tenancy is Tenancy.SERVERLESS:
            return gpus_at_once
        return math.ceil(gpus_at_once / self.gpus_per_unit) * self.gpus_per_unit


@dataclass(frozen=True)
class Workload:
    """One month of work: GPU-hours H, peak GPUs n at once, data moved out and kept."""

    gpu_hours: float
    peak_gpus: int = 1
    """GPUs used at once: a metered instance is billed for all of its GPUs, used or not."""
    checkpoint_gb: float = 0.0
    checkpoints_out: int = 0
    egress_gb: float = 0.0
    stored_gb: float = 0.0
    months: int = 1
    replica_gpus: int = 1
    """GPUs at once come in whole replicas of this many (a sized model's fit): more GPU-hours than
    `peak_gpus` can run in a month (730 hours a GPU) run on more replicas at once."""
    fills_units: bool = False
    """A batch, free to run as many replicas at once as an instance holds, rather than `peak_gpus`."""
    fixed_gpus: bool = False
    """A run over `months`: its GPUs at once are `peak_gpus` whatever the tax, which makes it longer, not
    wider (on reserved units, billed more months of the same nodes)."""

    @property
    def egress_volume_gb(self) -> float:
        return self.checkpoints_out * self.checkpoint_gb + self.egress_gb


DEFAULT_TAX = {Tenancy.BARE_METAL: 0.0, Tenancy.VIRTUALIZED: 0.026, Tenancy.SERVERLESS: 0.0, Tenancy.OWNED: 0.0}
"""Share of throughput lost per tenancy. Virtualized: 2.6 %, measured, the median of the shipped MLPerf
Inference v5.1 pairs of VMware and bare-metal H200 runs (app/quoting/virtualization.py, checked by a
test); bare metal, serverless and owned: 0, an assumption."""


@dataclass(frozen=True)
class Assumptions:
    """What the model cannot know about the user's stack; every one is on the page to change."""

    virt_tax: dict[Tenancy, float] = field(default_factory=lambda: dict(DEFAULT_TAX))
    invocations: int = 1000
    cold_start_s: float = 20.0
    assumed_egress_usd_per_gb: float | None = None
    """What the user takes egress to cost where the provider publishes no price (None: unknown)."""
    assumed_storage_usd_per_gb_month: float | None = None

    def tax(self, tenancy: Tenancy) -> float:
        return self.virt_tax.get(tenancy, 0.0)

    @property
    def cold_start_hours(self) -> float:
        """GPU-hours a month serverless bills for cold starts: invocations x seconds each."""
        return self.invocations * self.cold_start_s / 3600
