"""A minimum term longer than the horizon is billed whole: options are ranked, charted and broken
even on what the horizon costs per month of it, never on the term's monthly share (DOMAIN.md, "How
the money adds up")."""

from decimal import Decimal

import pytest

from app.costing.quote import cost_offer, quote
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

NO_TAX = Assumptions(virt_tax={})
FREE = (Tier(0, None, 0.0),)

YEAR_TERM = Offer(1, "latitude", Tenancy.BARE_METAL, Billing.COMMITTED, 1, 10_332.0, PricePeriod.YEAR,
                  min_commitment_months=12, egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip
"""1 x H100 at 10,332 a year for a 12-month term: 861 a month of it."""

SPOT = Offer(2, "nebius", Tenancy.VIRTUALIZED, Billing.SPOT, 1, 1.25, PricePeriod.HOUR,
             egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip


def test_a_12_month_term_costs_10_332_over_a_1_month_horizon():
    """Over 1 month the whole year is billed: 10,332.00 in that month (861.00 as billed), so a GPU-hour
    of work at 500 hours costs 10,332 / 500 = 20.664."""
    cost = cost_offer(YEAR_TERM, Workload(500, months=1), NO_TAX)
    assert cost.total == pytest.approx(10_332)
    assert cost.billed_month == pytest.approx(861)
    assert cost.term_past_horizon == 12
    assert cost.horizon_in() == Decimal("10332.00")
    assert cost.effective_per_gpu_hour == pytest.approx(20.664)


def test_over_6_months_the_year_is_1_722_a_month_of_the_horizon():
    """10,332 / 6 = 1,722.00 a month of a 6-month horizon; the horizon still totals 12 x 861.00."""
    cost = cost_offer(YEAR_TERM, Workload(500, months=6), NO_TAX)
    assert cost.total == pytest.approx(1_722)
    assert cost.horizon_in() == Decimal("10332.00")


def test_a_horizon_as_long_as_the_term_bills_its_monthly_share():
    """Over 12 months the term fits: 861.00 a month, nothing billed past the horizon."""
    cost = cost_offer(YEAR_TERM, Workload(500, months=12), NO_TAX)
    assert (cost.total, cost.term_past_horizon) == (pytest.approx(861), None)
    assert cost.horizon_in() == Decimal("10332.00")


def test_spot_beats_a_year_term_over_one_month_at_any_hours_one_gpu_runs():
    """At 1.25 a GPU-hour, 730 hours (all one GPU can run) cost 912.50, far below the 10,332.00 the
    year costs over a 1-month horizon: spot is first, the term second, and they never cross
    (at 861 a month they would cross at 861 / 1.25 = 688.8 hours)."""
    q = quote([YEAR_TERM, SPOT], Workload(500, months=1), NO_TAX, hours_max=730)
    assert [o.offer.offer_id for o in q.options] == [2, 1]
    assert [c.hours for pair in q.break_evens for c in pair.crossings] == []


def test_over_12_months_the_term_beats_spot_from_688_8_to_730_hours():
    """Over 12 months the term costs 861.00 a month: above 861 / 1.25 = 688.8 GPU-hours it is cheaper,
    up to 730, where a second server is needed."""
    q = quote([YEAR_TERM, SPOT], Workload(500, months=12), NO_TAX, hours_max=730)
    (pair,) = q.break_evens
    assert [c.hours for c in pair.crossings] == [pytest.approx(688.8), 730]


@pytest.mark.parametrize(("months", "per_month"), [(1, 10_000), (5, 2_000), (7, 1_428.571429)])
def test_a_10_000_year_term_totals_10_000_over_any_shorter_horizon(months, per_month):
    """10,000 a year is 833.33 a month as billed, but the horizon pays the whole year once: 10,000.00
    over 1, 5 or 7 months (never 12 x 833.33 = 9,999.96), 10,000 / months a month of the horizon."""
    term = Offer(3, "metal", Tenancy.BARE_METAL, Billing.COMMITTED, 1, 10_000.0, PricePeriod.YEAR,
                 min_commitment_months=12, egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip
    cost = cost_offer(term, Workload(500, months=months), NO_TAX)
    assert cost.total == pytest.approx(per_month)
    assert cost.horizon_in() == Decimal("10000.00")
    assert cost.billed_month == pytest.approx(833.333333)
