"""Owning the hardware, a fourth way to get GPUs: a server's month from its parts (the purchase
over a useful life, energy, colocation, operations), priced like a dedicated node in whole servers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.costing.breakeven import BreakEven
from app.costing.curves import SteppedCost
from app.costing.terms import HOURS_PER_MONTH, Billing, Offer, PricePeriod, Tenancy
from app.costing.tiers import Tier

OWNED_OFFER_ID = -1
"""The owned server in a quote: never an offer's id, which the database counts from 1."""
OWNED_OPTION = (Tenancy.OWNED, Billing.PURCHASED)
NOTHING_PUBLISHED_APART = (Tier(0.0, None, 0.0),)
"""An owned server's egress and storage are the buyer's own to add under operations: not a
provider's price left unpublished."""


@dataclass(frozen=True)
class Server:
    """One server as bought: its GPUs, what it cost (setup included) and its maximum power."""

    gpus: int
    price_usd: float
    power_kw: float


@dataclass(frozen=True)
class Running:
    """What running a server costs besides buying it: every figure is the buyer's, with a sourced default."""

    life_months: int
    usd_per_kwh: float
    colocation_usd_per_kw_month: float
    draw: float = 0.75
    """Share of the maximum power drawn on average."""
    pue: float = 1.54
    """Power usage effectiveness: the facility's power per watt the server draws."""
    capital_rate: float = 0.0
    """Cost of capital, a year: the purchase is paid back like a loan over the useful life."""
    operations_usd: float = 0.0
    """Support, staff, bandwidth, spares: a month, per server."""


@dataclass(frozen=True)
class OwnedMonth:
    """USD a month of one or more servers, by part."""

    capex: float
    energy: float
    colocation: float
    operations: float

    @property
    def total(self) -> float:
        return self.capex + self.energy + self.colocation + self.operations

    def times(self, servers: int) -> OwnedMonth:
        return OwnedMonth(*(part * servers for part in (self.capex, self.energy, self.colocation, self.operations)))


def capex_month(price_usd: float, life_months: int, capital_rate: float) -> float:
    """The purchase spread over its useful life: straight, or as a loan's equal payments at a yearly rate."""
    if capital_rate == 0:
        return price_usd / life_months
    monthly = capital_rate / 12
    return price_usd * monthly / (1 - (1 + monthly) ** -life_months)


def server_month(server: Server, running: Running) -> OwnedMonth:
    """One server's month: it draws power all month, used or not, and its colocation is paid per kW
    provisioned, its maximum."""
    return OwnedMonth(
        capex=capex_month(server.price_usd, running.life_months, running.capital_rate),
        energy=server.power_kw * running.draw * running.pue * HOURS_PER_MONTH * running.usd_per_kwh,
        colocation=server.power_kw * running.colocation_usd_per_kw_month,
        operations=running.operations_usd,
    )


def undepreciated(price_usd: float, life_months: int, months: int) -> float:
    """What is left of a purchase after `months` of a straight-line useful life: the part a horizon
    shorter than the life has not paid for."""
    return price_usd * max(0, life_months - months) / life_months


def owned_offer(server: Server, running: Running, seller: str) -> Offer:
    """The server as an offer of whole units a month, which the quote prices like a dedicated node."""
    return Offer(
        offer_id=OWNED_OFFER_ID,
        provider=seller,
        tenancy=Tenancy.OWNED,
        billing=Billing.PURCHASED,
        gpus_per_unit=server.gpus,
        price_usd=server_month(server, running).total,
        period=PricePeriod.MONTH,
        egress_tiers=NOTHING_PUBLISHED_APART,
        storage_tiers=NOTHING_PUBLISHED_APART,
    )


def full_use_rate(month_usd: float, gpus: int, tax: float) -> float:
    """USD per GPU-hour of work with every GPU busy all month: owning's floor."""
    return month_usd / (gpus * HOURS_PER_MONTH * (1 - tax))


def busy_share(hours: float, servers: int, gpus: int) -> float:
    """The share of the servers' GPU-hours a month that `hours` keep busy: N / (730 x GPUs)."""
    return hours / (servers * gpus * HOURS_PER_MONTH)


@dataclass(frozen=True)
class OwnedBreakEven:
    """From `hours` GPU-hours a month owning first beats `against`, its servers `busy` that share of the
    time, up to `until` (None: as far as searched), where another server makes it the dearer again."""

    against: tuple[Tenancy, Billing]
    hours: float
    busy: float
    until: float | None = None


def owning_beats(break_evens: Sequence[BreakEven], curve: SteppedCost, gpus: int) -> list[OwnedBreakEven]:
    """Where owning first becomes the cheaper of each pair it is in, fewest GPU-hours first."""
    found = []
    for pair in break_evens:
        if OWNED_OPTION not in (pair.a, pair.b):
            continue
        at = next((i for i, c in enumerate(pair.crossings) if pair.cheaper_above(c) == OWNED_OPTION), None)
        if at is not None:
            first, then = pair.crossings[at], pair.crossings[at + 1 : at + 2]
            against = pair.b if pair.a == OWNED_OPTION else pair.a
            busy = busy_share(first.hours, curve.nodes(first.hours), gpus)
            found.append(OwnedBreakEven(against, first.hours, busy, then[0].hours if then else None))
    return sorted(found, key=lambda b: b.hours)
