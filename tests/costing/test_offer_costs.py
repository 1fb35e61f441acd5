from decimal import Decimal

import pytest

from app.costing.money import Currency
from app.costing.quote import cost_offer
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

NO_TAX = Assumptions(virt_tax={})
FREE_EGRESS = (Tier(0, None, 0.0),)


def offer(price, billing=Billing.ON_DEMAND, tenancy=Tenancy.VIRTUALIZED, period=PricePeriod.HOUR, gpus=1, **kw):
    kw.setdefault("egress_tiers", FREE_EGRESS)
    kw.setdefault("storage_tiers", (Tier(0, None, 0.0),))
    return Offer(1, "acme", tenancy, billing, gpus, price, period, **kw)


def test_on_demand_instance_price_is_split_over_its_gpus_and_grossed_up_by_the_tax():
    """A 4-GPU instance at 3.912/h, all 4 GPUs used, is 0.978 per GPU-hour; 100 useful hours at 5 %
    tax need 100 / 0.95 = 105.263 hours: 105.263 x 0.978 = 102.947 USD."""
    workload = Workload(100, peak_gpus=4)
    cost = cost_offer(offer(3.912, gpus=4), workload, Assumptions(virt_tax={Tenancy.VIRTUALIZED: 0.05}))
    assert cost.compute == pytest.approx(102.947368, abs=1e-6)


def test_one_gpu_for_100_hours_on_an_8_gpu_node_at_80_an_hour_pays_for_the_whole_node():
    """80 USD/h over 8 GPUs is 10 per GPU-hour; 100 GPU-hours used 1 GPU at a time hold the node for
    100 h: 100 x 10 x ceil(1 / 8) x 8 / 1 = 8,000 USD."""
    node = offer(80, Billing.ON_DEMAND, Tenancy.BARE_METAL, gpus=8)
    cost = cost_offer(node, Workload(100, peak_gpus=1), NO_TAX)
    assert (cost.compute, cost.gpus_used, cost.gpus_billed) == (pytest.approx(8000), 1, 8)


def test_twelve_gpus_at_once_on_8_gpu_instances_bill_16():
    """1,200 GPU-hours, 12 GPUs at a time (100 h), on 8-GPU instances at 80/h: two instances for 100 h
    = 1,200 x 10 x 16 / 12 = 16,000 USD; spot bills whole instances too."""
    for billing in (Billing.ON_DEMAND, Billing.SPOT):
        cost = cost_offer(offer(80, billing, gpus=8), Workload(1200, peak_gpus=12), NO_TAX)
        assert (cost.compute, cost.gpus_billed) == (pytest.approx(16_000), 16)


def test_serverless_bills_per_gpu_whatever_the_gpus_at_once():
    """3.60 USD/GPU-h (0.001/s), 100 GPU-hours, 3 GPUs at once, no cold starts: 360 USD, 3 billed."""
    fn = offer(0.001, Billing.PER_SECOND, Tenancy.SERVERLESS, PricePeriod.SECOND)
    cost = cost_offer(fn, Workload(100, peak_gpus=3), Assumptions(virt_tax={}, invocations=0))
    assert (cost.compute, cost.gpus_billed) == (pytest.approx(360), 3)


def test_committed_gpus_are_billed_for_every_hour_of_the_month():
    """Peak 2 GPUs reserved at 1.75/GPU-h, used 100 h: 2 x 730 x 1.75 = 2,555 USD."""
    cost = cost_offer(offer(1.75, Billing.COMMITTED), Workload(100, peak_gpus=2), NO_TAX)
    assert cost.compute == pytest.approx(2555)


def test_committed_gpus_cover_the_hours_when_hours_need_more_than_the_peak():
    """1,000 GPU-h need ceil(1000 / 730) = 2 reserved GPUs: 2 x 730 x 1.75 = 2,555 USD."""
    assert cost_offer(offer(1.75, Billing.COMMITTED), Workload(1000), NO_TAX).compute == pytest.approx(2555)


def test_dedicated_8_gpu_node_published_per_year_costs_a_twelfth_a_month():
    """133,414.80 USD a year / 12 = 11,117.90 a month; 5,840 GPU-h (8 x 730) still fit one node."""
    node = offer(133_414.80, Billing.MONTHLY, Tenancy.BARE_METAL, PricePeriod.YEAR, gpus=8)
    assert cost_offer(node, Workload(5840), NO_TAX).compute == pytest.approx(11_117.90)


def test_one_hour_past_a_nodes_capacity_needs_a_second_node():
    """5,841 GPU-h exceed 8 x 730 = 5,840: two nodes, 2 x 11,117.90 = 22,235.80 USD."""
    node = offer(133_414.80, Billing.MONTHLY, Tenancy.BARE_METAL, PricePeriod.YEAR, gpus=8)
    assert cost_offer(node, Workload(5841), NO_TAX).compute == pytest.approx(22_235.80)


def test_peak_gpus_beyond_one_node_need_a_second_node_even_for_few_hours():
    """9 GPUs at once on 8-GPU nodes: 2 nodes of 1,000 USD, though 10 GPU-h fit one."""
    node = offer(1000, Billing.MONTHLY, Tenancy.BARE_METAL, PricePeriod.MONTH, gpus=8)
    assert cost_offer(node, Workload(10, peak_gpus=9), NO_TAX).compute == pytest.approx(2000)


def test_serverless_bills_cold_starts_on_top_of_useful_hours():
    """0.001097 USD/s = 3.9492/h. 10 h of work plus 1,000 invocations x 20 s = 5.5556 h of cold
    starts: 15.5556 h x 3.9492 = 61.432 USD."""
    fn = offer(0.001097, Billing.PER_SECOND, Tenancy.SERVERLESS, PricePeriod.SECOND)
    cost = cost_offer(fn, Workload(10), Assumptions(virt_tax={}, invocations=1000, cold_start_s=20))
    assert cost.compute == pytest.approx(61.432, abs=1e-3)


def test_total_adds_egress_and_storage_and_effective_price_divides_by_useful_hours():
    """400 h x 2.50 = 1,000; 140 GB out with 100 free then 0.09 = 3.60; 500 GB x 0.07 = 35.00.
    Total 1,038.60; per useful GPU-hour 1,038.60 / 400 = 2.5965."""
    tiers = (Tier(0, 100, 0.0), Tier(100, None, 0.09))
    on_demand = offer(2.50, egress_tiers=tiers, storage_tiers=(Tier(0, None, 0.07),))
    cost = cost_offer(on_demand, Workload(400, checkpoint_gb=140, checkpoints_out=1, stored_gb=500), NO_TAX)
    assert (cost.compute, cost.egress, cost.storage) == pytest.approx((1000, 3.60, 35.00))
    assert cost.total == pytest.approx(1038.60)
    assert cost.effective_per_gpu_hour == pytest.approx(2.5965)


def test_unpublished_egress_is_unknown_not_free():
    cost = cost_offer(offer(2.5, egress_tiers=()), Workload(10, egress_gb=1), NO_TAX)
    assert cost.egress is None and not cost.complete
    assert cost.total == pytest.approx(25)


def test_an_assumed_price_fills_in_unpublished_egress_and_storage_and_says_so():
    """140 GB out at an assumed 0.05 USD/GB = 7.00; 500 GB kept at an assumed 0.10 USD/GB-month =
    50.00; 10 h x 2.50 = 25.00: total 82.00 USD, both marked as assumed."""
    assumed = Assumptions(virt_tax={}, assumed_egress_usd_per_gb=0.05, assumed_storage_usd_per_gb_month=0.10)
    unpublished = offer(2.5, egress_tiers=(), storage_tiers=())
    cost = cost_offer(unpublished, Workload(10, egress_gb=140, stored_gb=500), assumed)
    assert (cost.egress, cost.storage, cost.total) == pytest.approx((7.00, 50.00, 82.00))
    assert cost.complete and cost.assumed == ("egress", "storage")


def test_an_assumed_price_leaves_published_prices_alone():
    """Free published egress stays free at any assumption: 10 h x 2.50 = 25.00 USD, nothing assumed."""
    assumed = Assumptions(virt_tax={}, assumed_egress_usd_per_gb=0.05, assumed_storage_usd_per_gb_month=0.10)
    cost = cost_offer(offer(2.5), Workload(10, egress_gb=140, stored_gb=500), assumed)
    assert (cost.total, cost.assumed) == (pytest.approx(25.00), ())


def test_no_egress_needs_no_egress_price():
    assert cost_offer(offer(2.5, egress_tiers=()), Workload(10), NO_TAX).complete


def test_effective_price_is_undefined_at_zero_hours():
    assert cost_offer(offer(2.5), Workload(0), NO_TAX).effective_per_gpu_hour is None


def test_horizon_bills_a_commitment_for_all_its_months():
    """A 36-month commitment of 1 GPU at 2.24/h quoted over 12 months still costs 36 x 730 x 2.24
    = 58,867.20 USD of compute; egress 3.60 a month for 12 months adds 43.20: 58,910.40."""
    tiers = (Tier(0, 100, 0.0), Tier(100, None, 0.09))
    reserved = offer(2.24, Billing.COMMITTED, min_commitment_months=36, egress_tiers=tiers)
    cost = cost_offer(reserved, Workload(100, checkpoint_gb=140, checkpoints_out=1, months=12), NO_TAX)
    assert cost.horizon_total == pytest.approx(58_910.40)


def test_horizon_adds_up_monthly_invoices_rounded_to_the_cent():
    """500 h / 0.95 x 0.8015 = 421.8421 a month, invoiced as 421.84: 12 months = 5,062.08."""
    cost = cost_offer(offer(0.8015), Workload(500, months=12), Assumptions(virt_tax={Tenancy.VIRTUALIZED: 0.05}))
    assert cost.horizon_total == pytest.approx(5062.08)


def test_a_converted_horizon_adds_up_the_converted_monthly_invoices():
    """400 h x 2.50 = 1,000 USD a month; at 1 EUR = 1.08 USD that is 925.9259 -> 925.93 EUR, and
    12 months 12 x 925.93 = 11,111.16 EUR (not 12,000 / 1.08 = 11,111.11)."""
    cost = cost_offer(offer(2.50), Workload(400, months=12), NO_TAX)
    assert cost.horizon_in(Currency("EUR", "€", 1.08)) == Decimal("11111.16")
    assert cost.horizon_total == 12_000
