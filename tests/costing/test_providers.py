"""Each provider's cheapest offer: what egress adds at a provider that the options never name."""

from hypothesis import given, settings
from hypothesis import strategies as st

from app.costing.providers import cheapest_per_provider, provider_contenders
from app.costing.quote import price_offers
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier
from tests.costing.test_contenders import HOURS, OFFERS

NO_TAX = Assumptions(virt_tax={})
FREE = (Tier(0, None, 0.0),)
HYPERSCALER = (Tier(0, 100, 0.0), Tier(100, 10_240, 0.09), Tier(10_240, None, 0.085))
"""100 GB a month free, then 0.09 USD per GB up to 10 TB: the largest hyperscaler's internet egress."""
CHECKPOINTS = Workload(500, checkpoint_gb=140, checkpoints_out=4)
"""One GPU for 500 GPU-hours a month, four 140 GB checkpoints moved out: 560 GB."""


def hourly(offer_id, provider, price, egress=FREE, billing=Billing.ON_DEMAND, storage=FREE):
    return Offer(offer_id, provider, Tenancy.VIRTUALIZED, billing, 1, price, PricePeriod.HOUR, None, egress, storage)


def test_each_provider_s_cheapest_offer_carries_its_own_egress():
    """At 500 GPU-hours: "free" at 2.00 an hour costs 1,000.00; "hyper" at 3.00 on demand 1,500.00 and
    on spot at 2.50 1,250.00, plus egress (560 - 100) x 0.09 = 41.40, so 1,291.40. "free" comes first
    and "hyper" is billed at its spot offer, its egress 41.40 beside it."""
    offers = [
        hourly(1, "free", 2.00),
        hourly(2, "hyper", 3.00, HYPERSCALER),
        hourly(3, "hyper", 2.50, HYPERSCALER, Billing.SPOT),
    ]
    bills = cheapest_per_provider(price_offers(offers, CHECKPOINTS, NO_TAX), CHECKPOINTS)
    assert [(b.offer.provider, b.offer.offer_id) for b in bills] == [("free", 1), ("hyper", 3)]
    assert (bills[1].compute, bills[1].egress, bills[1].storage) == (1250.0, 41.4, 0.0)
    assert round(bills[1].total, 2) == 1291.40


def test_a_provider_that_publishes_no_egress_price_comes_after_every_one_priced_in_full():
    """ "quiet" at 1.00 an hour (500.00) publishes no egress price: its 500.00 leaves out the 560 GB, so
    it ranks after "hyper"'s 1,541.40 (1,500.00 + 41.40), as the options rank, and says what is missing."""
    offers = [hourly(1, "quiet", 1.00, egress=()), hourly(2, "hyper", 3.00, HYPERSCALER)]
    bills = cheapest_per_provider(price_offers(offers, CHECKPOINTS, NO_TAX), CHECKPOINTS)
    assert [b.offer.provider for b in bills] == ["hyper", "quiet"]
    assert (bills[1].total, bills[1].egress, bills[1].unpublished) == (500.0, None, ("egress",))


@settings(max_examples=200, deadline=None)
@given(OFFERS, st.lists(HOURS, min_size=1, max_size=6), st.integers(1, 12))
def test_the_provider_contenders_give_each_provider_s_cheapest_of_the_full_scan(drawn, hours, peak_gpus):
    """The same offer per provider, the same order and figures, at every GPU-hours."""
    offers = [
        Offer(i, f"p{i % 5}", tenancy, billing, gpus, price, period, 12 if billing is Billing.COMMITTED else None, e, s)
        for i, ((tenancy, billing, period), gpus, price, e, s) in enumerate(drawn)
    ]
    workload = Workload(0, peak_gpus=peak_gpus, egress_gb=50, stored_gb=100)
    priced = price_offers(offers, workload, Assumptions(invocations=500, cold_start_s=10))
    few = provider_contenders(priced)
    for h in hours:
        at = Workload(h, peak_gpus=peak_gpus, egress_gb=50, stored_gb=100)
        assert cheapest_per_provider(few, at) == cheapest_per_provider(priced, at)
