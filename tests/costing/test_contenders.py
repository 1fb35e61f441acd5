"""The slider reads only the offers that can be cheapest: the quote must not change by it."""

from hypothesis import given, settings
from hypothesis import strategies as st

from app.costing.contenders import contenders
from app.costing.quote import price_offers, quote_priced
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

NO_TAX = Assumptions(virt_tax={})
FREE = (Tier(0, None, 0.0),)


def on_demand(offer_id, price, egress=FREE, gpus=1):
    return Offer(offer_id, "acme", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, gpus, price, PricePeriod.HOUR, None, egress)


def test_a_dearer_offer_with_the_same_egress_never_wins_and_is_left_out():
    """Same provider (1 TB egress at 0.09 = 90 USD), 2.50 and 2.60 an hour: the 2.60 costs 10 c more
    at every hour. Another provider's 3.00 with free egress wins below 225 h (90 / 0.40): it stays."""
    tiers = (Tier(0, None, 0.09),)
    offers = [on_demand(1, 2.50, tiers), on_demand(2, 2.60, tiers), on_demand(3, 3.00)]
    priced = price_offers(offers, Workload(100, egress_gb=1000), NO_TAX)
    assert [p.offer.offer_id for p in contenders(priced)] == [1, 3]


def test_at_0_hours_equal_totals_go_to_the_offer_cheaper_per_hour_so_the_dearer_is_left_out():
    """At 0 GPU-hours 2.60 and 2.50 an hour both cost their 90 USD of egress: the quote names the
    2.50, cheaper for every hour after, wherever it is listed; the 2.60 is never named."""
    tiers = (Tier(0, None, 0.09),)
    at_0 = Workload(0, egress_gb=1000)
    priced = price_offers([on_demand(1, 2.60, tiers), on_demand(2, 2.50, tiers)], at_0, NO_TAX)
    assert [p.offer.offer_id for p in contenders(priced)] == [2]
    assert quote_priced(priced, at_0, 1000).options[0].offer.offer_id == 2


def test_a_node_is_compared_only_with_nodes_of_its_size():
    """A 1-GPU reservation at 1,000 a month never beats one at 900, but an 8-GPU node at 7,000 needs
    its own comparison: above 5,110 h the 1-GPU needs 8 units (7,200) and the node (7,000) wins."""
    reserved = [
        Offer(1, "a", Tenancy.BARE_METAL, Billing.MONTHLY, 1, 900.0, PricePeriod.MONTH, None, FREE, FREE),
        Offer(2, "a", Tenancy.BARE_METAL, Billing.MONTHLY, 1, 1000.0, PricePeriod.MONTH, None, FREE, FREE),
        Offer(3, "a", Tenancy.BARE_METAL, Billing.MONTHLY, 8, 7000.0, PricePeriod.MONTH, None, FREE, FREE),
    ]
    priced = price_offers(reserved, Workload(100), NO_TAX)
    assert [p.offer.offer_id for p in contenders(priced)] == [1, 3]


TIERS = st.sampled_from([(), FREE, (Tier(0, None, 0.09),), (Tier(0, 10_240, 0.12), Tier(10_240, None, 0.05))])
KINDS = st.sampled_from(
    [
        (Tenancy.VIRTUALIZED, Billing.ON_DEMAND, PricePeriod.HOUR),
        (Tenancy.VIRTUALIZED, Billing.SPOT, PricePeriod.HOUR),
        (Tenancy.BARE_METAL, Billing.ON_DEMAND, PricePeriod.HOUR),
        (Tenancy.BARE_METAL, Billing.COMMITTED, PricePeriod.HOUR),
        (Tenancy.BARE_METAL, Billing.MONTHLY, PricePeriod.MONTH),
        (Tenancy.SERVERLESS, Billing.PER_SECOND, PricePeriod.SECOND),
    ]
)
# Prices from a short list as well as any float: equal totals and lines crossing at one point are
# where a shortcut would pick another offer than the full scan.
PRICES = st.one_of(st.sampled_from([0.5, 1.0, 2.0, 2.5, 3.0]), st.floats(0.0001, 50_000, allow_nan=False))
OFFERS = st.lists(
    st.tuples(KINDS, st.sampled_from([1, 2, 4, 8]), PRICES, TIERS, TIERS),
    min_size=1,
    max_size=40,
)
HOURS = st.one_of(
    st.sampled_from([0.0, 5e-324, 1e-9, 100.0, 730.0, 1460.0, 5840.0, 2 * 730 * 0.95]),
    st.floats(0, 1e7, allow_nan=False),
)


@settings(max_examples=400, deadline=None)
@given(
    OFFERS,
    st.lists(HOURS, min_size=1, max_size=6),
    st.integers(1, 12),
    st.sampled_from([0.0, 50.0, 20_000.0]),
    st.sampled_from([None, 0.08]),
)
def test_the_contenders_give_the_quote_of_the_full_scan(drawn, hours, peak_gpus, egress_gb, assumed_egress):
    """The same cheapest offer per option, the same order, totals, break-evens and the offer that
    only looks cheaper, at every GPU-hours, as ranking every offer; and no offer left that another
    of its option beats or matches at every GPU-hours."""
    offers = [
        Offer(i, f"p{i % 5}", tenancy, billing, gpus, price, period, 12 if billing is Billing.COMMITTED else None, e, s)
        for i, ((tenancy, billing, period), gpus, price, e, s) in enumerate(drawn)
    ]
    assumptions = Assumptions(invocations=500, cold_start_s=10, assumed_egress_usd_per_gb=assumed_egress)
    workload = Workload(0, peak_gpus=peak_gpus, egress_gb=egress_gb, stored_gb=100)
    priced = price_offers(offers, workload, assumptions)
    few = contenders(priced)
    assert set(id(p) for p in few) <= set(id(p) for p in priced)
    for h in hours:
        at = Workload(h, peak_gpus=peak_gpus, egress_gb=egress_gb, stored_gb=100)
        assert quote_priced(few, at, 10_000) == quote_priced(priced, at, 10_000)
