"""Owning the hardware (DOMAIN.md, "Owning the hardware"): a server's month from its parts, in whole
servers like a dedicated node, with break-evens against rental from the same search."""

import pytest

from app.costing.owning import (
    OwnedMonth,
    Running,
    Server,
    capex_month,
    full_use_rate,
    owned_offer,
    owning_beats,
    server_month,
    undepreciated,
)
from app.costing.quote import cost_offer, quote
from app.costing.terms import Assumptions, Billing, Offer, PricePeriod, Tenancy, Workload
from app.costing.tiers import Tier

HGX_H100 = Server(gpus=8, price_usd=296_644, power_kw=10.2)
"""Supermicro 8125GS-TNHR at dihuni's archived price (2024-03-21), with the DGX H100's 10.2 kW."""
US_COLOCATED = Running(life_months=60, usd_per_kwh=0.0806, colocation_usd_per_kw_month=184.06)
"""EIA's US industrial average (2023), CBRE's North American asking rate (H2 2024), Epoch's 0.75
draw, Uptime's 1.54 PUE (2025), five years of life."""
FREE = (Tier(0, None, 0.0),)


def test_an_8_gpu_server_at_296_644_over_60_months_is_4_944_07_a_month_of_capex():
    assert round(capex_month(296_644, 60, 0.0), 2) == 4944.07


def test_10_2_kw_at_0_75_draw_and_1_54_pue_is_693_17_a_month_at_8_06_cents():
    """10.2 x 0.75 x 1.54 x 730 x 0.0806 = 693.170..."""
    assert round(server_month(HGX_H100, US_COLOCATED).energy, 2) == 693.17


def test_10_2_kw_at_184_06_per_kw_month_is_1_877_41_of_colocation():
    assert round(server_month(HGX_H100, US_COLOCATED).colocation, 2) == 1877.41


def test_the_month_adds_its_parts_and_operations_per_server():
    """4,944.07 + 693.17 + 1,877.41 + 500 = 8,014.65 (to the cent of the unrounded sum 8,014.649)."""
    month = server_month(HGX_H100, Running(60, 0.0806, 184.06, operations_usd=500))
    assert round(month.total, 2) == 8014.65
    assert month.times(2) == OwnedMonth(month.capex * 2, month.energy * 2, month.colocation * 2, 1000)


def test_a_yearly_cost_of_capital_pays_the_purchase_back_like_a_loan():
    """120,000 over 12 months at 12 % a year (1 % a month): 120,000 x 0.01 / (1 - 1.01^-12) = 10,661.85,
    against 10,000.00 without it."""
    assert round(capex_month(120_000, 12, 0.12), 2) == 10661.85
    assert capex_month(120_000, 12, 0.0) == 10_000


def test_a_ninth_gpu_at_once_needs_a_second_server():
    """One server (7,514.65 a month) holds 8 GPUs at once; a ninth needs two (15,029.30)."""
    offer = owned_offer(HGX_H100, US_COLOCATED, "dihuni")
    one = cost_offer(offer, Workload(1000, peak_gpus=8), Assumptions())
    two = cost_offer(offer, Workload(1000, peak_gpus=9), Assumptions())
    assert (round(one.total, 2), round(two.total, 2)) == (7514.65, 15029.30)


def test_more_gpu_hours_than_one_server_runs_in_a_month_need_a_second():
    """8 x 730 = 5,840 GPU-hours fit one server; 5,841 need two."""
    offer = owned_offer(HGX_H100, US_COLOCATED, "dihuni")
    assert cost_offer(offer, Workload(5840, peak_gpus=8), Assumptions()).total == pytest.approx(7514.649, abs=1e-3)
    assert cost_offer(offer, Workload(5841, peak_gpus=8), Assumptions()).total == pytest.approx(15029.298, abs=1e-3)


def test_owning_beats_2_per_gpu_hour_above_3_757_gpu_hours_a_64_percent_use():
    """7,514.649 / 2.00 = 3,757.32 GPU-hours a month: 3,757.32 / (730 x 8) = 64.3 % of the server's hours;
    past 5,840 a second server (15,029.30) costs more than renting (11,680.00)."""
    rented = Offer(1, "cloud", Tenancy.VIRTUALIZED, Billing.ON_DEMAND, 1, 2.0, PricePeriod.HOUR,
                   egress_tiers=FREE, storage_tiers=FREE)  # fmt: skip
    owned = owned_offer(HGX_H100, US_COLOCATED, "dihuni")
    found = quote([rented, owned], Workload(3000, peak_gpus=8), Assumptions(virt_tax={}), 5840)
    (pair,) = found.break_evens
    crossing, step = pair.crossings
    assert crossing.hours == pytest.approx(3757.32, abs=0.01)
    assert pair.cheaper_above(crossing) == (Tenancy.OWNED, Billing.PURCHASED)
    assert (step.hours, pair.cheaper_above(step)) == (5840, (Tenancy.VIRTUALIZED, Billing.ON_DEMAND))
    assert crossing.hours / (730 * 8) == pytest.approx(0.6434, abs=1e-4)
    (beats,) = owning_beats(found.break_evens, found.options[1].curve, 8)
    assert (round(beats.hours, 2), round(beats.busy, 4), beats.until) == (3757.32, 0.6434, 5840)


def test_at_full_use_owning_costs_1_29_per_gpu_hour():
    """7,514.649 / (8 x 730) = 1.2868 per GPU-hour."""
    month = server_month(HGX_H100, US_COLOCATED).total
    assert full_use_rate(month, 8, 0.0) == pytest.approx(1.2868, abs=1e-4)


def test_a_12_month_horizon_leaves_four_fifths_of_a_five_year_purchase():
    """296,644 x 48 / 60 = 237,315.20 not yet written off; nothing after the whole life."""
    assert undepreciated(296_644, 60, 12) == pytest.approx(237_315.20)
    assert undepreciated(296_644, 60, 72) == 0


def test_egress_and_storage_of_an_owned_server_are_no_unpublished_price():
    owned = cost_offer(owned_offer(HGX_H100, US_COLOCATED, "you"), Workload(100, stored_gb=500), Assumptions())
    assert (owned.egress, owned.storage, owned.complete) == (0.0, 0.0, True)
