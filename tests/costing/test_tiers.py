import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.costing.tiers import Tier, check_tiers, tiered_cost

FREE_100_THEN_9_CENTS = (Tier(0, 100, 0.0), Tier(100, 10240, 0.09), Tier(10240, None, 0.085))


def test_140_gb_out_with_100_free_then_9_cents_costs_3_60():
    """A 70B FP16 checkpoint is 140 GB: 100 GB free, 40 GB x 0.09 = 3.60 USD."""
    assert tiered_cost(140, FREE_100_THEN_9_CENTS) == pytest.approx(3.60)


def test_volume_inside_the_free_allowance_costs_nothing():
    assert tiered_cost(100, FREE_100_THEN_9_CENTS) == 0


def test_volume_past_the_second_tier_is_billed_marginally():
    """10,240 GB: 10,140 x 0.09 = 912.60; 760 more at 0.085 = 64.60; total 977.20 USD."""
    assert tiered_cost(11_000, FREE_100_THEN_9_CENTS) == pytest.approx(977.20)


def test_provider_without_egress_fees_has_one_free_tier():
    assert tiered_cost(50_000, (Tier(0, None, 0.0),)) == 0


@pytest.mark.parametrize(
    "tiers",
    [
        (Tier(10, None, 0.1),),
        (Tier(0, 100, 0.0), Tier(120, None, 0.09)),
        (Tier(0, 100, 0.0), Tier(90, None, 0.09)),
        (Tier(0, 100, -0.01), Tier(100, None, 0.09)),
        (Tier(0, None, 0.0), Tier(100, None, 0.09)),
        (),
    ],
    ids=["not from zero", "gap", "overlap", "negative price", "open end before the last", "no tier"],
)
def test_tiers_with_gaps_overlaps_or_negative_prices_are_refused(tiers):
    with pytest.raises(ValueError):
        check_tiers(tiers)


@pytest.mark.parametrize(
    ("tiers", "volume_gb", "usd"),
    [
        (FREE_100_THEN_9_CENTS, 10_240, 912.60),
        ((Tier(0, None, 0.0),), 10_240, 0.0),
        ((Tier(0, None, 0.01),), 1_000, 10.0),
    ],
    ids=["allowance then two tiers", "no egress fees", "one paid tier"],
)
def test_contiguous_open_ended_tiers_are_accepted_and_price_every_gb(tiers, volume_gb, usd):
    """10,240 GB through 100 free then 0.09: 10,140 x 0.09 = 912.60; at 0.01/GB, 1,000 GB = 10.00."""
    check_tiers(tiers)
    assert tiered_cost(volume_gb, tiers) == pytest.approx(usd)


IBM_COS_TB = (Tier(0, 51_200, 0.09), Tier(51_200, 153_600, 0.07), Tier(153_600, 512_000, 0.05))
"""IBM's outbound tiers are TB (x 1,024 GB): 0-50 TB 0.09, next 100 TB 0.07, next 350 TB 0.05, then 'contact us'."""


def test_ibm_tiers_are_terabytes_60_000_gb_costs_5_224():
    """51,200 x 0.09 = 4,608.00; 8,800 x 0.07 = 616.00; total 5,224.00 USD."""
    check_tiers(IBM_COS_TB)
    assert tiered_cost(60_000, IBM_COS_TB) == pytest.approx(5_224.00)


def test_volume_past_the_last_published_tier_has_no_price_unless_assumed():
    """600,000 GB: 512,000 priced (4,608 + 7,168 + 17,920 = 29,696), 88,000 GB past 'contact us';
    at an assumed 0.04 USD/GB: 29,696 + 3,520 = 33,216.00 USD."""
    assert tiered_cost(600_000, IBM_COS_TB) is None
    assert tiered_cost(600_000, IBM_COS_TB, assumed_usd_per_gb=0.04) == pytest.approx(33_216.00)
    assert tiered_cost(512_000, IBM_COS_TB) == pytest.approx(29_696.00)


def test_unpublished_price_is_unknown_and_an_assumed_one_prices_every_gb():
    """No tiers published: 140 GB unknown; at an assumed 0.05 USD/GB, 140 x 0.05 = 7.00 USD; 0 GB costs 0."""
    assert tiered_cost(140, ()) is None
    assert tiered_cost(140, (), assumed_usd_per_gb=0.05) == pytest.approx(7.00)
    assert tiered_cost(0, ()) == 0


@given(st.sampled_from([100.0, 10240.0]), st.floats(min_value=1e-6, max_value=1e-3))
def test_tier_cost_is_continuous_at_boundaries(boundary, step):
    below, at, above = (tiered_cost(v, FREE_100_THEN_9_CENTS) for v in (boundary - step, boundary, boundary + step))
    assert at - below <= 0.09 * step + 1e-9
    assert above - at <= 0.09 * step + 1e-9


@given(st.floats(min_value=0, max_value=1e7), st.floats(min_value=0, max_value=1e7))
def test_egress_never_negative_and_never_cheaper_for_more_volume(a, b):
    low, high = sorted((a, b))
    assert 0 <= tiered_cost(low, FREE_100_THEN_9_CENTS) <= tiered_cost(high, FREE_100_THEN_9_CENTS) + 1e-9
