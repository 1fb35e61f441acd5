"""Where the cheapest option changes, and which break-evens a buyer reads first."""

import pytest

from app.costing.breakeven import relevant_first, stretch_at
from app.costing.quote import quote
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

FREE = (Tier(0, None, 0.0),)
ON_DEMAND = (Tenancy.VIRTUALIZED, Billing.ON_DEMAND)
NODE = (Tenancy.BARE_METAL, Billing.MONTHLY)
SPOT = (Tenancy.VIRTUALIZED, Billing.SPOT)
SERVERLESS = (Tenancy.SERVERLESS, Billing.PER_SECOND)


def _offer(offer_id: int, option: tuple[Tenancy, Billing], price: float, period: PricePeriod) -> Offer:
    return Offer(offer_id, f"p{offer_id}", *option, 1, price, period, None, FREE, FREE)


def _quote(hours: float, *offers: Offer):
    return quote(list(offers), Workload(hours), Assumptions(virt_tax={}, invocations=0), hours_max=1000)


def test_the_node_beats_2_50_on_demand_between_500_and_730_hours():
    """2.50 H = 1,250 at H = 500; past 730 h two nodes (2,500) lose to 1,825 until 2.50 H = 2,500 at
    1,000 h, the end of the range searched: two turns, and at 400 h the one above is at 500, then 730."""
    q = _quote(400, _offer(1, ON_DEMAND, 2.50, PricePeriod.HOUR), _offer(2, NODE, 1250, PricePeriod.MONTH))
    assert [(t.before, t.after) for t in q.turns] == [(ON_DEMAND, NODE), (NODE, ON_DEMAND)]
    assert [t.hours for t in q.turns] == pytest.approx([500, 730])
    at_400 = stretch_at(q, 400)
    assert at_400 is not None and at_400.option == ON_DEMAND and at_400.since is None
    assert (at_400.until.hours, at_400.then.hours) == pytest.approx((500, 730))
    at_600 = stretch_at(q, 600)
    assert at_600 is not None and at_600.option == NODE
    assert (at_600.since.hours, at_600.until.hours, at_600.then) == (pytest.approx(500), 730, None)


def test_an_option_cheapest_everywhere_has_no_turn():
    """1.00 an hour stays below 2.50 an hour at every GPU-hours."""
    q = _quote(300, _offer(1, SPOT, 1.00, PricePeriod.HOUR), _offer(2, ON_DEMAND, 2.50, PricePeriod.HOUR))
    assert q.turns == ()
    stretch = stretch_at(q, 300)
    assert stretch is not None and (stretch.option, stretch.since, stretch.until) == (SPOT, None, None)


def test_a_pair_that_never_decides_the_answer_is_listed_after_the_one_that_does():
    """At 100 h: serverless 3.60 an hour (360.00) and on demand 3.00 (300.00) never beat spot at
    1.00 (100.00); the 1,250 node beats spot at 1,250 h, beyond the range. Serverless vs the node
    crosses at 1,250 / 3.60 = 347.2 h and on demand vs the node at 416.7 h: neither is a turn, so
    they come by rank: on demand (second cheapest) with the node before serverless with it."""
    q = _quote(
        100,
        _offer(1, SPOT, 1.00, PricePeriod.HOUR),
        _offer(2, ON_DEMAND, 3.00, PricePeriod.HOUR),
        _offer(3, SERVERLESS, 0.001, PricePeriod.SECOND),
        _offer(4, NODE, 1250, PricePeriod.MONTH),
    )
    assert [o.option for o in q.options] == [SPOT, ON_DEMAND, SERVERLESS, NODE]
    crossing = [(p.a, p.b, round(p.crossings[0].hours, 1)) for p in relevant_first(q) if p.crossings]
    assert crossing == [(ON_DEMAND, NODE, 416.7), (SERVERLESS, NODE, 347.2)]


def test_every_turn_counts_past_the_twelve_crossings_listed():
    """A one-GPU node at 800 a month against 1.20 an hour: k nodes cost 800 k, so the node is cheaper
    from 800 k / 1.20 = 666.7 k GPU-hours until the k-th node is full at 730 k, where on demand is
    again. Up to 5,000 hours that is 13 turns, one more than a pair lists; none may be missed."""
    q = quote(
        [_offer(1, ON_DEMAND, 1.20, PricePeriod.HOUR), _offer(2, NODE, 800, PricePeriod.MONTH)],
        Workload(4900),
        Assumptions(virt_tax={}, invocations=0),
        hours_max=5000,
    )
    expected = sorted([800 * k / 1.20 for k in range(1, 8)] + [730 * k for k in range(1, 7)])
    assert [t.hours for t in q.turns] == pytest.approx(expected)
    assert len(q.break_evens[0].crossings) == 12 and q.break_evens[0].more
    stretch = stretch_at(q, 4500)
    assert stretch is not None and stretch.option == ON_DEMAND
    assert (stretch.since.hours, stretch.until.hours) == pytest.approx((4380, 4666.67), abs=0.01)


def test_at_a_step_the_stretch_is_the_option_still_cheapest_there():
    """A 1-GPU node at 1,000 a month against 2.50 on demand: the node wins above 400 h; at exactly
    730 h it still runs on one node (1,000 against 1,825), just above it needs two (2,000), so on
    demand wins from 730 until 2.50 H = 2,000 at 800 h. At 730 h the headline's stretch is the node's,
    ending at 730, never "the node beats on demand above 800" about the node already cheapest."""
    q = _quote(730, _offer(1, ON_DEMAND, 2.50, PricePeriod.HOUR), _offer(2, NODE, 1000, PricePeriod.MONTH))
    assert q.options[0].option == NODE
    stretch = stretch_at(q, 730)
    assert stretch is not None and stretch.option == NODE
    assert (stretch.since.hours, stretch.until.hours, stretch.then.hours) == pytest.approx((400, 730, 800))
    assert stretch.until.after == ON_DEMAND
