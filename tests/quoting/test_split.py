"""The hybrid split's search over a GPU model's offers (app/quoting/split.py): every base offer against
every burst offer at every base, worked by hand on small catalogs (DOMAIN.md, "The hybrid split"), and
the same best as a loop over every pair and base on random catalogs."""

from hypothesis import given, settings
from hypothesis import strategies as st

from app.costing.hybrid import Profile, split_at, units_for_peak
from app.costing.quote import PricedOffer, price_offers
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier
from app.quoting.split import (
    BASE_BILLINGS,
    BURST_BILLINGS,
    SplitQuote,
    _burst,
    _capacity,
    fully_priced,
    split_quote,
)
from app.quoting.split_search import rank

NO_TAX = Assumptions(virt_tax={})
BASE_2_PEAK_10: Profile = ((10, 100.0), (2, 630.0))
"""2 GPUs all month, 10 for 100 hours of it (simple_profile(2, 10, 100))."""
FREE = (Tier(0, None, 0.0),)
CHECKPOINT_OUT = Workload(gpu_hours=1460, peak_gpus=10, checkpoint_gb=100, checkpoints_out=1)
"""What the offers are priced for: one checkpoint of 100 GB moved out a month, so that egress has a price."""


def offer(
    offer_id: int, billing: Billing, price: float, gpus: int = 1, period: PricePeriod = PricePeriod.HOUR,
    tenancy: Tenancy = Tenancy.BARE_METAL, **kw: object,
) -> Offer:  # fmt: skip
    kw.setdefault("egress_tiers", FREE)
    kw.setdefault("storage_tiers", FREE)
    return Offer(offer_id, f"provider-{offer_id}", tenancy, billing, gpus, price, period, **kw)  # type: ignore[arg-type]


GPU_MONTH = offer(1, Billing.MONTHLY, 1277.50, period=PricePeriod.MONTH)
"""A dedicated GPU at 1,277.50 a month (1.75 an hour)."""
ON_DEMAND = offer(2, Billing.ON_DEMAND, 1.90)
SPOT_NODE = offer(3, Billing.SPOT, 16.00, gpus=8)
"""Spot, rented in 8-GPU instances at 16 an hour: 2.00 a GPU-hour."""
COMMITTED = offer(4, Billing.COMMITTED, 1.80, min_commitment_months=1)
"""1,314 a GPU-month, committed a month at a time."""


def quoted(
    offers: list[Offer], profile: Profile = BASE_2_PEAK_10, months: int = 1, base: str = "", burst: str = ""
) -> SplitQuote:
    priced = price_offers(offers, CHECKPOINT_OUT, NO_TAX)
    return split_quote(priced, profile, months, NO_TAX, base, burst)


def pair_of(found: SplitQuote) -> tuple[int, int, int, float]:
    """The base offer, the burst offer, the units of base and the month's total."""
    assert found.pair is not None
    return (
        found.pair.base.offer.offer_id,
        found.pair.burst.offer.offer_id,
        found.pair.best.units,
        round(found.pair.best.total, 2),
    )


def test_a_base_of_2_dedicated_gpus_and_the_peak_on_demand_is_4_075_against_4_294_and_12_775():
    """A GPU a month at 1,277.50, on demand at 1.90: a base of 2 is 2 x 1,277.50 + 8 x 100 x 1.90 =
    2,555 + 1,520 = 4,075; all on demand 2 x 730 x 1.90 + 1,520 = 4,294; the peak of 10 reserved
    10 x 1,277.50 = 12,775 (a base of 1: 1,277.50 + 1,530 x 1.90 = 4,184.50; of 3: 3,832.50 + 1,330 = 5,162.50)."""
    found = quoted([GPU_MONTH, ON_DEMAND])
    assert pair_of(found) == (1, 2, 2, 4075.0)
    assert found.pair is not None and found.pair.rule_gpus == 2
    assert [round(s.total, 2) for s in found.pair.splits[:4]] == [4294.0, 4184.5, 4075.0, 5162.5]
    assert found.all_burst is not None and found.all_reserved is not None
    assert (found.all_burst.offer.offer.offer_id, round(found.all_burst.split.total, 2)) == (2, 4294.0)
    reserved = found.all_reserved.split
    assert (found.all_reserved.offer.offer.offer_id, reserved.units, round(reserved.total, 2)) == (1, 10, 12775.0)


def test_pinned_to_spot_the_peak_bursts_on_whole_8_gpu_instances():
    """Spot at 2.00 a GPU-hour in 8-GPU instances is dearer than on demand at 1.90 here, so unpinned the
    split stays at 4,075. Pinned to spot: above a base of 2 the 8 GPUs of the peak fill one instance,
    2,555 + 800 x 2.00 = 4,155; above 3, 7 GPUs still take a whole one, 3,832.50 + 1,600 = 5,432.50; all
    on spot holds an instance for the 2 GPUs all month and two for the 10: (8 x 630 + 16 x 100) x 2.00
    = 13,280."""
    offers = [GPU_MONTH, ON_DEMAND, SPOT_NODE, COMMITTED]
    assert pair_of(quoted(offers)) == (1, 2, 2, 4075.0)
    on_spot = quoted(offers, burst="spot")
    assert pair_of(on_spot) == (1, 3, 2, 4155.0)
    assert on_spot.pair is not None and round(on_spot.pair.splits[3].total, 2) == 5432.5
    assert on_spot.all_burst is not None and round(on_spot.all_burst.split.total, 2) == 13280.0


def test_pinned_to_committed_the_base_is_the_dearer_committed_gpu():
    """Committed at 1.80 an hour is 1,314 a GPU-month, dearer than the dedicated 1,277.50. Pinned to it:
    a base of 2 is 2,628 + 1,520 = 4,148 (of 1: 1,314 + 2,907 = 4,221; of 3: 3,942 + 1,330 = 5,272;
    with spot above 2: 2,628 + 1,600 = 4,228); the peak reserved 10 x 1,314 = 13,140. Pinned to both,
    committed and spot: 4,228."""
    offers = [GPU_MONTH, ON_DEMAND, SPOT_NODE, COMMITTED]
    committed = quoted(offers, base="committed")
    assert pair_of(committed) == (4, 2, 2, 4148.0)
    assert committed.all_reserved is not None and round(committed.all_reserved.split.total, 2) == 13140.0
    assert pair_of(quoted(offers, base="committed", burst="spot")) == (4, 3, 2, 4228.0)


def test_a_cheaper_8_gpu_node_loses_to_single_gpus_for_a_base_of_2_and_wins_for_a_base_of_8():
    """An 8-GPU node at 8,760 a month is 1,095 a GPU, cheaper than 1,277.50. For 2 GPUs all month and
    10 for 100 hours, a node carries 6 idle GPUs: 8,760 + 2 x 100 x 1.90 = 9,140 against 2 single GPUs'
    4,075. For 8 all month and 10 for 100 hours: the node 9,140; 8 single GPUs 10,220 + 380 = 10,600;
    all on demand 8 x 730 x 1.90 + 380 = 11,476."""
    node = offer(5, Billing.MONTHLY, 8760, gpus=8, period=PricePeriod.MONTH)
    offers = [GPU_MONTH, node, ON_DEMAND]
    assert pair_of(quoted(offers)) == (1, 2, 2, 4075.0)
    base_8 = quoted(offers, profile=((10, 100.0), (8, 630.0)))
    assert pair_of(base_8) == (5, 2, 1, 9140.0)
    assert base_8.all_burst is not None and round(base_8.all_burst.split.total, 2) == 11476.0


def test_on_demand_with_no_published_egress_price_ranks_after_a_priced_one_though_cheaper():
    """Egress of 100 GB at 0.09 is 9 a month at the dedicated GPU's provider. On demand at 1.50 whose
    provider publishes no egress price, beside one at 1.90 with egress free: a base of 1 bursting on the
    1.50 one would be 1,277.50 + 1,530 x 1.50 + 9 = 3,581.50, but data made there moves out at a price
    nobody published, so the split is the fully priced one: a base of 2 and the peak on the 1.90 one,
    2,555 + 1,520 + 9 = 4,084 (of 1: 4,193.50; of 3: 5,171.50). All burst, the 1.50 one would be 3,390
    and egress unknown: the 1.90 one at 4,294 is the all-burst answer. With the 1.50 one alone, the only
    fully priced split bursts nothing: the peak of 10 reserved, 12,775 + 9 = 12,784."""
    dedicated = offer(1, Billing.MONTHLY, 1277.50, period=PricePeriod.MONTH, egress_tiers=(Tier(0, None, 0.09),))
    unpublished = offer(6, Billing.ON_DEMAND, 1.50, egress_tiers=())
    found = quoted([dedicated, unpublished, ON_DEMAND])
    assert pair_of(found) == (1, 2, 2, 4084.0)
    assert found.pair is not None and found.pair.complete and found.pair.best.data == 9
    assert found.all_burst is not None
    assert (found.all_burst.offer.offer.offer_id, round(found.all_burst.split.total, 2)) == (2, 4294.0)
    only_unpublished = quoted([dedicated, unpublished])
    assert pair_of(only_unpublished) == (1, 6, 10, 12784.0)
    assert only_unpublished.pair is not None and only_unpublished.pair.complete
    assert round(only_unpublished.pair.splits[1].total, 2) == 3581.5


def test_above_a_base_serverless_at_1_89_costs_more_than_on_demand_at_1_90_for_its_cold_starts():
    """Serverless at 1.89 a GPU-hour adds its cold starts, 1,000 x 20 s = 5.56 hours at 1.89 = 10.50 a
    month: above a base of 2 it bills 800 x 1.89 + 10.50 = 1,522.50 against 1,520 on demand at 1.90,
    whose egress (9 a month) does not count, the data staying with the base: 4,075 on demand, not
    4,077.50. All burst, the data goes with the burst: serverless 2,759.40 + 1,522.50 = 4,281.90 against
    on demand 4,294 + 9 = 4,303."""
    serverless = offer(8, Billing.PER_SECOND, 1.89, tenancy=Tenancy.SERVERLESS)
    on_demand = offer(2, Billing.ON_DEMAND, 1.90, egress_tiers=(Tier(0, None, 0.09),))
    found = quoted([GPU_MONTH, serverless, on_demand])
    assert pair_of(found) == (1, 2, 2, 4075.0)
    assert found.all_burst is not None
    assert (found.all_burst.offer.offer.offer_id, round(found.all_burst.split.total, 2)) == (8, 4281.9)


def test_of_two_bases_that_cost_the_same_the_split_takes_fewer_units():
    """2 GPUs all month: two single GPUs at 1,000 a month each, or one 2-GPU server at 2,000, carry it
    alike for 2,000 (all on demand: 2 x 730 x 1.90 = 2,774). The split takes the one unit, the less
    committed, though the single GPUs are listed first."""
    single = offer(9, Billing.MONTHLY, 1000, period=PricePeriod.MONTH)
    server = offer(10, Billing.MONTHLY, 2000, gpus=2, period=PricePeriod.MONTH)
    found = quoted([single, server, ON_DEMAND], profile=((2, 730.0),))
    assert pair_of(found) == (10, 2, 1, 2000.0)


def test_a_12_month_commitment_over_a_1_month_horizon_bills_12_months():
    """Committed at 1.00 an hour (730 a month) for 12 months: over 1 month a base of 2 costs 2 x 730 x 12
    + 1,520 = 19,040 against 4,294 all on demand, so the split bursts it all; the peak reserved is
    10 x 8,760 = 87,600. Over 12 months the base of 2 is 17,520 + 1,520 x 12 = 35,760 against 51,528."""
    committed = offer(7, Billing.COMMITTED, 1.00, min_commitment_months=12)
    one_month = quoted([committed, ON_DEMAND])
    assert one_month.pair is not None and one_month.pair.best.units == 0
    assert round(one_month.pair.best.horizon, 2) == 4294.0
    assert round(one_month.pair.splits[2].horizon, 2) == 19040.0
    assert one_month.all_reserved is not None and round(one_month.all_reserved.split.horizon, 2) == 87600.0
    a_year = quoted([committed, ON_DEMAND], months=12)
    assert a_year.pair is not None and (a_year.pair.best.units, round(a_year.pair.best.horizon, 2)) == (2, 35760.0)


CENTS = st.integers(1, 500_000).map(lambda c: c / 100)
TIERS = st.sampled_from([(), FREE, (Tier(0, None, 0.09),), (Tier(0, 50, 0.0), Tier(50, None, 0.12))])
"""No published egress price (incomplete at 100 GB out), free, or priced."""


@st.composite
def offers(draw: st.DrawFn) -> list[Offer]:
    made = []
    for offer_id in range(1, draw(st.integers(2, 20)) + 1):
        billing = draw(st.sampled_from([*BASE_BILLINGS[:2], *BURST_BILLINGS]))
        tenancy = (
            Tenancy.SERVERLESS
            if billing is Billing.PER_SECOND
            else draw(st.sampled_from([Tenancy.BARE_METAL, Tenancy.VIRTUALIZED]))
        )
        period = PricePeriod.MONTH if billing is Billing.MONTHLY else PricePeriod.HOUR
        made.append(offer(
            offer_id, billing, draw(CENTS), draw(st.sampled_from([1, 8])), period, tenancy,
            egress_tiers=draw(TIERS), setup_fee_usd=draw(st.sampled_from([0.0, 500.0])),
            min_commitment_months=draw(st.sampled_from([None, 1, 12])) if billing is Billing.COMMITTED else None,
        ))  # fmt: skip
    return made


PROFILES = (
    st.dictionaries(st.integers(0, 40), st.integers(1, 300), min_size=1, max_size=8)
    .filter(max)
    .map(lambda levels: tuple(sorted(((gpus, float(hours)) for gpus, hours in levels.items()), reverse=True)))
)
"""Up to 8 levels of 0 to 40 GPUs, a peak of one at least."""


@settings(max_examples=300, deadline=None)
@given(
    offers(), PROFILES, st.sampled_from([1, 3, 12]), st.sampled_from(["", "monthly", "committed"]),
    st.sampled_from(["", "on_demand", "spot"]), st.sampled_from([0.0, 0.05]),
)  # fmt: skip
def test_the_search_finds_the_best_of_every_pair_of_offers_at_every_base(offers, profile, months, base, burst, tax):
    """The search prices only the offers that can carry the cheapest split and makes one Split; a plain
    loop over every base offer, every burst offer and every base from none to the peak's units finds
    a split as cheap, as fully priced and as small (equal ones may pair other offers), and the split
    the search names is its pair's own at that base."""
    assumptions = Assumptions(virt_tax={Tenancy.VIRTUALIZED: tax, Tenancy.SERVERLESS: tax / 2})
    priced = price_offers(offers, CHECKPOINT_OUT, assumptions)
    found = split_quote(priced, profile, months, assumptions, base, burst)
    naive = _every_pair(priced, profile, months, assumptions, base, burst)
    if found.pair is None:
        assert naive is None
        return
    best = found.pair.best
    assert rank(best, found.pair.complete) == naive
    pair_base, pair_burst = _capacity(found.pair.base, assumptions), _burst(found.pair.burst, assumptions)
    assert best == split_at(profile, best.units, pair_base, pair_burst, months)
    assert found.pair.splits == tuple(
        split_at(profile, units, pair_base, pair_burst, months)
        for units in range(units_for_peak(profile, pair_base) + 1)
    )


def _every_pair(
    priced: list[PricedOffer], profile: Profile, months: int, assumptions: Assumptions, base: str, burst: str
) -> tuple[bool, float, int] | None:
    """The best rank of every (base offer, burst offer, units), None where either kind has no offer."""
    bases = [p for p in priced if p.offer.billing in BASE_BILLINGS and base in ("", p.offer.billing)]
    bursts = [p for p in priced if p.offer.billing in BURST_BILLINGS and burst in ("", p.offer.billing)]
    ranks = [
        rank(split, fully_priced(split, b, r))
        for b in bases
        for c in [_capacity(b, assumptions)]
        for r in bursts
        for f in [_burst(r, assumptions)]
        for units in range(units_for_peak(profile, c) + 1)
        for split in [split_at(profile, units, c, f, months)]
    ]
    return min(ranks) if bases and bursts else None


def test_replicas_of_2_gpus_fill_a_3_gpu_server_with_one_and_leave_a_gpu_idle():
    """2 GPUs all month, 6 for 100 hours, in replicas of 2; a 3-GPU server at 2,000 a month holds one
    replica (2 GPUs), 2-GPU instances burst at 3.80 (1.90 a GPU-hour). Bases of 0 to 3 servers carry
    0, 2, 4, 6 GPUs: 2 x 730 x 1.90 + 4 x 100 x 1.90 = 3,534; 2,000 + 760 = 2,760; 4,000 + 380 =
    4,380; 6,000. Were a replica split over two servers, 2 servers would carry 6 GPUs, for 4,000."""
    server = offer(1, Billing.MONTHLY, 2000.0, gpus=3, period=PricePeriod.MONTH)
    pair = offer(2, Billing.ON_DEMAND, 3.80, gpus=2)
    profile: Profile = ((6, 100.0), (2, 630.0))
    priced = price_offers([server, pair], CHECKPOINT_OUT, NO_TAX)
    found = split_quote(priced, profile, 1, NO_TAX, "", "", replica_gpus=2)
    assert found.pair is not None
    assert [round(s.total, 2) for s in found.pair.splits] == [3534.0, 2760.0, 4380.0, 6000.0]
    assert (found.pair.best.units, found.pair.best.base_gpus) == (1, 3)
    alone = split_quote(priced, profile, 1, NO_TAX, "", "")
    assert alone.pair is not None and [round(s.total, 2) for s in alone.pair.splits][:3] == [3534.0, 2760.0, 4000.0]
