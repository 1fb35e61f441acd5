import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.costing.breakeven import crossings, hours_searched
from app.costing.curves import LinearCost, SteppedCost, units_curve
from app.costing.quote import quote
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

ON_DEMAND_2_50 = LinearCost(0, 2.50)
NODE_1250_A_MONTH = units_curve(0, 1250, gpus_per_unit=1, peak_gpus=1, tax=0)


def test_break_even_at_500_hours_for_2_50_vs_1250_month():
    """2.50 x H = 1,250 at H = 500; above it the monthly GPU is cheaper (until 730 h)."""
    first = crossings(ON_DEMAND_2_50, NODE_1250_A_MONTH, until=700)
    assert [c.hours for c in first] == [500]
    assert first[0].a_cheaper_after is False


def test_break_evens_across_node_steps():
    """One node covers 730 h. Node cheaper from 500 h; at 730+ a second node (2,500 > 1,825):
    on demand cheaper again; 2.50 H = 2,500 at 1,000 h; at 1,460+ a third node (3,750 > 3,650);
    2.50 H = 3,750 at 1,500 h; at 2,190+ four nodes (5,000 < 5,475): node stays cheaper."""
    found = crossings(ON_DEMAND_2_50, NODE_1250_A_MONTH, until=2500)
    assert [c.hours for c in found] == pytest.approx([500, 730, 1000, 1460, 1500])
    assert [c.a_cheaper_after for c in found] == [False, True, False, True, False]


def test_options_that_do_not_cross_never_break_even():
    assert crossings(LinearCost(0, 2.5), LinearCost(0, 3.0), until=10_000) == []


def test_fixed_costs_shift_the_break_even():
    """With 100 USD of egress on the on-demand side only: 100 + 2.5 H = 1,250 at H = 460."""
    assert [c.hours for c in crossings(LinearCost(100, 2.5), NODE_1250_A_MONTH, 700)] == pytest.approx([460])


def test_quote_picks_the_cheapest_offer_per_option_and_orders_options_by_total():
    """At 400 h: on demand 2.50 -> 1,000 beats 3.00 -> 1,200; the 1,250 node comes second."""
    free = (Tier(0, None, 0.0),)
    offers = [
        Offer(1, "a", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 3.00, PricePeriod.HOUR, None, free, free),
        Offer(2, "b", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.50, PricePeriod.HOUR, None, free, free),
        Offer(3, "c", Tenancy.BARE_METAL, Billing.MONTHLY, 1, 1250, PricePeriod.MONTH, None, free, free),
    ]
    result = quote(offers, Workload(400), Assumptions(virt_tax={}), hours_max=1000)
    assert [o.offer.offer_id for o in result.options] == [2, 3]
    assert [c.hours for c in result.break_evens[0].crossings] == pytest.approx([500, 730, 1000])


prices = st.floats(min_value=0.01, max_value=100)
hours = st.floats(min_value=0, max_value=50_000)


@given(prices, hours, hours)
def test_more_hours_never_cheaper_on_demand(price, h1, h2):
    curve = LinearCost(0, price / 0.95)
    low, high = sorted((h1, h2))
    assert 0 <= curve.at(low) <= curve.at(high)


@given(st.floats(min_value=1, max_value=50_000), st.integers(1, 8), st.integers(1, 64), hours, hours)
def test_reserved_capacity_is_never_negative_and_never_falls_with_hours(unit_month, gpus, peak, h1, h2):
    curve = units_curve(0, unit_month, gpus, peak, tax=0.05)
    low, high = sorted((h1, h2))
    assert 0 < curve.at(low) <= curve.at(high)


QUARTER_HOURS = [i / 4 for i in range(6001 * 4 + 1)]


@settings(max_examples=60, deadline=None)
@example(price=1 / 3, unit_month=1000.0, gpus=5, fixed=0.0)  # 2 nodes meet 1/3 USD/h exactly at 6,000 h
@example(price=0.99999, unit_month=730.0, gpus=2, fixed=0.0)  # crosses at a step and 0.015 h after it
@given(prices, st.floats(min_value=100, max_value=5_000), st.integers(1, 8), st.floats(min_value=0, max_value=500))
def test_break_evens_are_where_sampling_sees_the_cheaper_option_change(price, unit_month, gpus, fixed):
    """Brute force: read both curves every quarter hour and on both sides of every node step (k x
    gpus x 730 h), where the difference is linear in between and so changes sign at most once.
    Reading goes an hour past the end, so that a crossing exactly at 6,000 h is seen (and counted)."""
    a, b = LinearCost(fixed, price), SteppedCost(0, unit_month, 1, gpus * 730)
    steps = [k * gpus * 730 for k in range(1, 6001 // (gpus * 730) + 1)]
    hours = sorted([*QUARTER_HOURS, *(s + e for s in steps for e in (-1e-7, 1e-7))])
    changes, last_sign, last_h = [], 0, 0.0
    for h in hours:
        d = a.at(h) - b.at(h)
        sign = (d > 1e-9) - (d < -1e-9)
        if sign and last_sign and sign != last_sign and last_h < 6000:
            changes.append((last_h, h))
        if sign:
            last_sign, last_h = sign, h
    found = crossings(a, b, until=6000)
    assert len(found) == len(changes)
    for c, (lo, hi) in zip(found, changes, strict=True):
        assert lo - 1e-6 <= c.hours <= hi + 1e-6


def test_an_offer_with_unpublished_egress_ranks_after_a_fully_priced_one():
    """100 h with 100 GB out: 2.40/h without a published egress price (240 + ?) loses to 2.50/h with
    free egress (250), and a 200/month node without one ranks after it too. With nothing moved out
    all are complete: node 200, then 2.40/h at 240."""
    free = (Tier(0, None, 0.0),)
    unknown = Offer(1, "a", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.40, PricePeriod.HOUR, None, (), free)
    known = Offer(2, "b", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.50, PricePeriod.HOUR, None, free, free)
    node = Offer(3, "c", Tenancy.BARE_METAL, Billing.MONTHLY, 1, 200, PricePeriod.MONTH, None, (), free)
    moved = quote([unknown, known, node], Workload(100, egress_gb=100), Assumptions(virt_tax={}), 1000)
    assert [o.offer.offer_id for o in moved.options] == [2, 3]
    still = quote([unknown, known, node], Workload(100), Assumptions(virt_tax={}), 1000)
    assert [o.offer.offer_id for o in still.options] == [3, 1]


def test_the_cheaper_looking_offer_that_leaves_out_a_cost_is_named_beside_the_answer():
    """100 h with 100 GB out: fully priced, 2.50/h with free egress = 250 is the answer; the 200/month
    node and 2.40/h (240) look cheaper only without their unpublished egress: the node (200) is named.
    A 3.00/h offer without egress (300) looks no cheaper: nothing is named."""
    free = (Tier(0, None, 0.0),)
    unknown = Offer(1, "a", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.40, PricePeriod.HOUR, None, (), free)
    known = Offer(2, "b", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.50, PricePeriod.HOUR, None, free, free)
    node = Offer(3, "c", Tenancy.BARE_METAL, Billing.MONTHLY, 1, 200, PricePeriod.MONTH, None, (), free)
    moved = quote([unknown, known, node], Workload(100, egress_gb=100), Assumptions(virt_tax={}), 1000)
    assert moved.options[0].offer.offer_id == 2 and moved.options[0].total == pytest.approx(250)
    assert moved.cheaper_looking is not None
    assert (moved.cheaper_looking.offer.offer_id, moved.cheaper_looking.total) == (3, pytest.approx(200))
    dear = Offer(4, "d", Tenancy.VIRTUALIZED, Billing.SPOT, 1, 3.00, PricePeriod.HOUR, None, (), free)
    dearer = quote([known, dear], Workload(100, egress_gb=100), Assumptions(virt_tax={}), 1000)
    assert dearer.cheaper_looking is None, "300 without its egress is not below 250"


def test_a_sawtooth_of_crossings_is_listed_up_to_a_limit_and_flagged():
    """On demand 2.50 vs a 1,800 one-GPU node: k nodes win from 2.50 H = 1,800 k (H = 720 k) until
    730 k, where node k + 1 costs 1,800 (k + 1) > 1,825 k while k < 72. So 720, 730, 1,440, 1,460,
    2,160, ...: up to 20,000 h far more than the 12 listed."""
    free = (Tier(0, None, 0.0),)
    offers = [
        Offer(1, "a", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.50, PricePeriod.HOUR, None, free, free),
        Offer(2, "b", Tenancy.BARE_METAL, Billing.MONTHLY, 1, 1800, PricePeriod.MONTH, None, free, free),
    ]
    pair = quote(offers, Workload(400), Assumptions(virt_tax={}), hours_max=20_000).break_evens[0]
    assert len(pair.crossings) == 12 and pair.more
    assert [c.hours for c in pair.crossings[:5]] == pytest.approx([720, 730, 1440, 1460, 2160])


def test_the_range_reaches_eight_gpus_busy_all_month_at_500_hours():
    """At 500 GPU-hours the band is 1,000 (past twice H); 8 GPUs at once run 8 x 730 = 5,840, so the
    range reaches the least nice figure at or above it, 6,000."""
    assert hours_searched(500) == 1000
    assert hours_searched(500, reach=8 * 730) == 6000
