"""Instances rented whole by the hour (app/costing/curves.py `MeteredCost`): a month has 730 hours a
GPU, so more GPU-hours than the GPUs at once can run take more of them, in whole replicas."""

from hypothesis import given
from hypothesis import strategies as st

from app.costing.quote import cost_offer, price_offers
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload

NO_TAX = Assumptions(virt_tax={t: 0.0 for t in Tenancy})
EIGHT_GPUS_AT_20_AN_HOUR = Offer(1, "acme", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 8, 20.0, PricePeriod.HOUR)


def test_3380_hours_of_one_gpu_jobs_run_5_at_once_on_an_8_gpu_instance():
    """ceil(3,380 / 730) = 5 GPUs at once, billed for the 8 of the instance: 3,380 x 2.50 x 8 / 5 =
    13,520.00 (not 3,380 x 2.50 x 8 = 67,600.00, as if one GPU ran 3,380 hours)."""
    cost = cost_offer(EIGHT_GPUS_AT_20_AN_HOUR, Workload(gpu_hours=3380), NO_TAX)
    assert (round(cost.total, 2), cost.gpus_used, cost.gpus_billed) == (13520.0, 5, 8)


def test_below_730_hours_a_gpu_the_gpus_at_once_are_as_asked():
    """500 h on 1 GPU at once: 500 x 2.50 x 8 = 10,000.00, uses 1 of 8."""
    cost = cost_offer(EIGHT_GPUS_AT_20_AN_HOUR, Workload(gpu_hours=500), NO_TAX)
    assert (round(cost.total, 2), cost.gpus_used, cost.gpus_billed) == (10000.0, 1, 8)


def test_a_sized_model_runs_more_replicas_of_its_fit():
    """A replica of 2 GPUs, 1,500 h: ceil(1,500 / 730) = 3 GPUs' worth, so 2 replicas, 4 at once, on
    one 8-GPU instance: 1,500 x 2.50 x 8 / 4 = 7,500.00."""
    cost = cost_offer(EIGHT_GPUS_AT_20_AN_HOUR, Workload(gpu_hours=1500, peak_gpus=2, replica_gpus=2), NO_TAX)
    assert (round(cost.total, 2), cost.gpus_used) == (7500.0, 4)


@given(st.floats(0, 50_000), st.floats(0, 50_000), st.integers(1, 16), st.sampled_from([1, 2, 4, 8]))
def test_the_curve_is_the_same_whatever_gpu_hours_it_was_priced_at(h0, h, peak, units):
    """What the chart and the break-evens read (a curve priced once for the inputs less GPU-hours)
    is what the quote at any GPU-hours says."""
    offer = Offer(1, "acme", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, units, 2.5 * units, PricePeriod.HOUR)
    (priced,) = price_offers([offer], Workload(gpu_hours=h0, peak_gpus=peak), Assumptions())
    assert priced.curve.at(h) == cost_offer(offer, Workload(gpu_hours=h, peak_gpus=peak), Assumptions()).total
