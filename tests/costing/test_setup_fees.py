"""A setup fee is part of an offer: paid once over the horizon, never in a month's figures, and
spread over the horizon's months where options are compared (DOMAIN.md, "one-off fees")."""

from decimal import Decimal

import pytest

from app.costing.money import Currency
from app.costing.quote import cost_offer, quote
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

NO_TAX = Assumptions(virt_tax={})
FREE = (Tier(0, None, 0.0),)


def server(price=1000.0, setup=999.0, offer_id=1):
    """A 2-GPU dedicated server a month (1,460 GPU-hours of room), as Hetzner bills one: a month and a setup fee."""
    return Offer(offer_id, "metal", Tenancy.BARE_METAL, Billing.MONTHLY, 2, price, PricePeriod.MONTH,
                 setup_fee_usd=setup, egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip


ON_DEMAND = Offer(9, "cloud", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.50, PricePeriod.HOUR,
                  egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip


def test_the_fee_is_added_once_to_the_horizon_and_left_out_of_the_month():
    """1,000 a month with 999 to set up, 500 GPU-hours over 3 months: the month is 1,000.00 (1,000 /
    500 = 2.00 per GPU-hour); the horizon 3 x 1,000 + 999 = 3,999.00."""
    cost = cost_offer(server(), Workload(500, months=3), NO_TAX)
    assert (cost.compute, cost.total, cost.effective_per_gpu_hour) == (1000, 1000, 2.0)
    assert cost.horizon_month == 1000 + 999 / 3
    assert cost.horizon_in() == Decimal("3999.00")


def test_the_fee_is_converted_and_rounded_once_like_the_months():
    """At 1 EUR = 1.25 USD: 1,000 USD is 800.00 EUR a month, 999 USD is 799.20 EUR; over 3 months
    3 x 800.00 + 799.20 = 3,199.20 EUR."""
    cost = cost_offer(server(), Workload(500, months=3), NO_TAX)
    assert cost.horizon_in(Currency("EUR", "€", 1.25)) == Decimal("3199.20")


@pytest.mark.parametrize(
    ("months", "hours"),
    [
        (3, 533.2),  # 2.50 x H = 1,000 + 999 / 3 = 1,333.00
        (1, 799.6),  # 2.50 x H = 1,000 + 999 = 1,999.00
        (12, 433.3),  # 2.50 x H = 1,000 + 999 / 12 = 1,083.25
    ],
)
def test_the_break_even_against_on_demand_spreads_the_fee_over_the_horizon(months, hours):
    """Against on demand at 2.50 a GPU-hour the server wins above 2.50 x H = 1,000 + 999 / months:
    the longer the horizon, the less the fee matters (without it, 400 h at any horizon)."""
    q = quote([server(), ON_DEMAND], Workload(500, months=months), NO_TAX, hours_max=1000)
    (pair,) = q.break_evens
    assert [c.hours for c in pair.crossings] == [pytest.approx(hours)]


def test_over_a_long_horizon_the_offer_with_a_fee_can_be_cheapest_of_its_option():
    """Two servers of one option: 1,000 a month + 999 once, or 1,200 a month and no fee. Over 3
    months a month of the horizon is 1,000 + 333 = 1,333 against 1,200: the one without a fee; over
    12 months 1,000 + 83.25 = 1,083.25: the one with the fee, whose month shows 1,000.00."""
    offers = [server(offer_id=1), server(1200, setup=0.0, offer_id=2)]
    for months, cheapest, month in [(3, 2, 1200), (12, 1, 1000)]:
        (best,) = quote(offers, Workload(500, months=months), NO_TAX, hours_max=1000).options
        assert (best.offer.offer_id, best.total) == (cheapest, month)
