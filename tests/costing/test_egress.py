import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.costing.egress import EgressTier, check_tiers, egress_cost

FREE_100_THEN_9_CENTS = (EgressTier(0, 100, 0.0), EgressTier(100, 10240, 0.09), EgressTier(10240, None, 0.085))


def test_140_gb_out_with_100_free_then_9_cents_costs_3_60():
    """A 70B FP16 checkpoint is 140 GB: 100 GB free, 40 GB x 0.09 = 3.60 USD."""
    assert egress_cost(140, FREE_100_THEN_9_CENTS) == pytest.approx(3.60)


def test_volume_inside_the_free_allowance_costs_nothing():
    assert egress_cost(100, FREE_100_THEN_9_CENTS) == 0


def test_volume_past_the_second_tier_is_billed_marginally():
    """10,240 GB: 10,140 x 0.09 = 912.60; 760 more at 0.085 = 64.60; total 977.20 USD."""
    assert egress_cost(11_000, FREE_100_THEN_9_CENTS) == pytest.approx(977.20)


def test_provider_without_egress_fees_has_one_free_tier():
    assert egress_cost(50_000, (EgressTier(0, None, 0.0),)) == 0


@pytest.mark.parametrize(
    "tiers",
    [
        (EgressTier(10, None, 0.1),),
        (EgressTier(0, 100, 0.0), EgressTier(120, None, 0.09)),
        (EgressTier(0, 100, 0.0), EgressTier(90, None, 0.09)),
        (EgressTier(0, 100, 0.0),),
        (EgressTier(0, 100, -0.01), EgressTier(100, None, 0.09)),
    ],
    ids=["not from zero", "gap", "overlap", "closed end", "negative price"],
)
def test_tiers_with_gaps_overlaps_or_negative_prices_are_refused(tiers):
    with pytest.raises(ValueError):
        check_tiers(tiers)


@pytest.mark.parametrize(
    ("tiers", "volume_gb", "usd"),
    [
        (FREE_100_THEN_9_CENTS, 10_240, 912.60),
        ((EgressTier(0, None, 0.0),), 10_240, 0.0),
        ((EgressTier(0, None, 0.01),), 1_000, 10.0),
    ],
    ids=["allowance then two tiers", "no egress fees", "one paid tier"],
)
def test_contiguous_open_ended_tiers_are_accepted_and_price_every_gb(tiers, volume_gb, usd):
    """10,240 GB through 100 free then 0.09: 10,140 x 0.09 = 912.60; at 0.01/GB, 1,000 GB = 10.00."""
    check_tiers(tiers)
    assert egress_cost(volume_gb, tiers) == pytest.approx(usd)


@given(st.sampled_from([100.0, 10240.0]), st.floats(min_value=1e-6, max_value=1e-3))
def test_tier_cost_is_continuous_at_boundaries(boundary, step):
    below, at, above = (egress_cost(v, FREE_100_THEN_9_CENTS) for v in (boundary - step, boundary, boundary + step))
    assert at - below <= 0.09 * step + 1e-9
    assert above - at <= 0.09 * step + 1e-9


@given(st.floats(min_value=0, max_value=1e7), st.floats(min_value=0, max_value=1e7))
def test_egress_never_negative_and_never_cheaper_for_more_volume(a, b):
    low, high = sorted((a, b))
    assert 0 <= egress_cost(low, FREE_100_THEN_9_CENTS) <= egress_cost(high, FREE_100_THEN_9_CENTS) + 1e-9
