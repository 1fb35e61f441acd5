"""What an assumption adds to a figure is told apart from the GPU time itself: the virtualization tax
of a metered offer and the cold starts of a serverless one (DOMAIN.md, "every assumption ... on the page")."""

from dataclasses import replace

import pytest

from app.costing.quote import cost_offer
from app.costing.terms import DEFAULT_TAX, Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

FIVE_PERCENT = {**DEFAULT_TAX, Tenancy.VIRTUALIZED: 0.05}
"""A virtualization tax of 5 %, typed: round figures for the arithmetic (the default is 2.6 %)."""

FREE = (Tier(0, None, 0.0),)
SPOT = Offer(1, "nebius", Tenancy.VIRTUALIZED, Billing.SPOT, 1, 1.25, PricePeriod.HOUR,
             egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip
SERVERLESS = Offer(2, "runpod", Tenancy.SERVERLESS, Billing.PER_SECOND, 1, 0.001, PricePeriod.SECOND,
                   egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip
NODE = Offer(3, "metal", Tenancy.VIRTUALIZED, Billing.MONTHLY, 1, 1230.0, PricePeriod.MONTH,
             egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip


def test_nebius_at_1_25_for_500_hours_is_625_of_gpu_time_plus_the_5_percent_tax():
    """500 / (1 - 0.05) x 1.25 = 657.89: 1.25 x 500 = 625.00 of GPU time, 32.89 the tax adds."""
    cost = cost_offer(SPOT, Workload(500), Assumptions(FIVE_PERCENT, invocations=0))
    assert cost.compute == pytest.approx(657.894737)
    assert (cost.tax, cost.gpu_time_usd, cost.tax_usd) == (0.05, pytest.approx(625), pytest.approx(32.894737))


def test_serverless_cold_starts_are_apart_from_the_gpu_time():
    """0.001 a second is 3.60 an hour: 500 h is 1,800.00 of GPU time; 1,000 invocations x 20 s =
    5.556 h of cold starts, 20.00; compute 1,820.00."""
    cost = cost_offer(SERVERLESS, Workload(500), Assumptions())
    assert cost.compute == pytest.approx(1820)
    assert (cost.gpu_time_usd, cost.cold_start_usd, cost.tax_usd) == (pytest.approx(1800), pytest.approx(20), 0)


def test_a_reserved_node_below_its_taxed_capacity_owes_the_tax_nothing():
    """A virtualized monthly node at 1,230.00 carries 730 x 0.95 = 693.5 GPU-hours of work: at 500 h
    one node, with or without the tax, so the tax adds nothing to the figure."""
    cost = cost_offer(NODE, Workload(500), Assumptions(FIVE_PERCENT))
    assert (cost.compute, cost.tax, cost.tax_units, cost.tax_usd, cost.gpu_time_usd) == (1230, 0.05, 0, 0, 1230)


def test_at_700_hours_the_tax_makes_a_reserved_node_two():
    """700 h of work is more than one taxed node's 693.5 but less than its untaxed 730: two nodes,
    2,460.00, of which 1,230.00 for the one more node the tax needs."""
    cost = cost_offer(NODE, Workload(700), Assumptions(FIVE_PERCENT))
    assert (cost.compute, cost.tax_units, cost.tax_usd, cost.gpu_time_usd) == (2460, 1, 1230, 1230)


CLUSTER = Offer(4, "lambda", Tenancy.VIRTUALIZED, Billing.COMMITTED, 8, 40.0, PricePeriod.HOUR,
                egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip
"""A reserved 8-GPU node at 40.00 an hour: 29,200.00 a month."""
RUN_16 = Workload(100_000 / 9, peak_gpus=16, months=9, replica_gpus=16, fixed_gpus=True)
"""100,000 GPU-hours on 16 GPUs: 6,250 hours, 9 months (8.56), 11,111.11 GPU-hours a month."""


def test_a_run_taxed_5_percent_on_two_reserved_nodes_is_billed_10_months_of_them_not_3_nodes():
    """The tax makes the run's 6,250 hours 6,578.95 on the same 16 GPUs: 9.01 months, so 10 billed. 2 nodes x
    29,200.00 x 10 = 584,000.00 for the run, 58,400.00 a month of its 9; the month the tax adds 58,400.00.
    Served, the same hours would need 11,695.91 a month of GPUs carrying 11,680 untaxed: a second replica of 16."""
    cost = cost_offer(CLUSTER, RUN_16, Assumptions(FIVE_PERCENT))
    assert (cost.tax_units, cost.tax_months, cost.gpus_used, cost.gpus_billed) == (0, 1, 16, 16)
    assert cost.horizon_total == 584_000.00
    assert (cost.tax_usd, cost.billed_month) == (pytest.approx(58_400 / 9), pytest.approx(58_400))
    served = cost_offer(CLUSTER, replace(RUN_16, fixed_gpus=False), Assumptions(FIVE_PERCENT))
    assert (served.tax_units, served.compute) == (2, 4 * 29_200)


def test_a_run_taxed_on_nodes_by_the_hour_stays_on_its_16_gpus():
    """By the hour the same run costs 11,111.11 / 0.95 x 5.00 = 58,479.53 a month on its 16 GPUs, never 24:
    9 invoices of it, 526,315.77."""
    hourly = replace(CLUSTER, billing=Billing.ON_DEMAND)
    cost = cost_offer(hourly, RUN_16, Assumptions(FIVE_PERCENT))
    assert (cost.gpus_used, cost.gpus_billed, cost.tax_months) == (16, 16, 0)
    assert cost.horizon_total == 526_315.77


def test_a_replica_of_16_on_reserved_8_gpu_nodes_taxed_past_them_takes_a_second_replica_not_a_third_node():
    """11,680 GPU-hours of one replica of 16 all month, taxed 5 %, need 12,294.74: more than 2 nodes carry, so 2
    more nodes for a second replica (half a replica runs nothing): 4 x 29,200.00 = 116,800.00, 58,400.00 the tax's."""
    cost = cost_offer(CLUSTER, Workload(11_680, peak_gpus=16, replica_gpus=16), Assumptions(FIVE_PERCENT))
    assert (cost.compute, cost.tax_units, cost.tax_usd) == (116_800, 2, 58_400)


def test_a_run_on_4_of_a_reserved_nodes_8_gpus_is_billed_the_months_it_takes_on_its_4():
    """7,300 GPU-hours on 4 GPUs take 1,825 hours, 2.5 months, so 3 billed of the one 8-GPU node it leaves half
    idle: 3 x 29,200.00 = 87,600.00, 29,200.00 a month as billed, never the 2 months 8 GPUs would take.
    Taxed 5 %, 1,921.05 hours, 2.63 months: still 3, and the tax adds no month."""
    run = Workload(7_300 / 3, peak_gpus=4, months=3, replica_gpus=4, fixed_gpus=True)
    untaxed = cost_offer(CLUSTER, run, Assumptions({**DEFAULT_TAX, Tenancy.VIRTUALIZED: 0.0}))
    assert (untaxed.gpus_used, untaxed.gpus_billed, untaxed.tax_months) == (4, 8, 0)
    assert (untaxed.horizon_total, untaxed.billed_month) == (87_600.00, pytest.approx(29_200))
    taxed = cost_offer(CLUSTER, run, Assumptions(FIVE_PERCENT))
    assert (taxed.horizon_total, taxed.tax_months, taxed.tax_usd) == (87_600.00, 0, 0)
