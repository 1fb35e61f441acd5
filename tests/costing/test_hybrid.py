"""The hybrid split (DOMAIN.md, "The hybrid split"): a base of whole units for the steady load, the
rest burst by the GPU-hour, and the base that makes the month cheapest, against the simple rule."""

import pytest

from app.costing.hybrid import (
    Burst,
    Capacity,
    best_split,
    busy_share,
    hourly_profile,
    hours_above,
    rule_of_thumb,
    simple_profile,
    split_at,
    splits,
)

BASE_2_PEAK_10 = simple_profile(base=2, peak=10, peak_hours=100)
"""2 GPUs all month, 10 for 100 hours of it."""
GPU_MONTH = Capacity(1277.50, 1)
NODE_MONTH = Capacity(10220, 8)
ON_DEMAND = Burst(1.90)


def test_all_burst_is_4_294_and_a_base_of_2_is_4_075_at_1_277_50_and_1_90():
    """All burst: 2 x 730 x 1.90 + 8 x 100 x 1.90 = 2,774 + 1,520 = 4,294; a base of 2 at 1,277.50
    a GPU-month: 2 x 1,277.50 + 8 x 100 x 1.90 = 2,555 + 1,520 = 4,075. A base of 1 bursts 630 x 1 +
    100 x 9 GPU-hours: 1,277.50 + 1,530 x 1.90 = 4,184.50; of 3, 3,832.50 + 700 x 1.90 = 5,162.50."""
    every = splits(BASE_2_PEAK_10, GPU_MONTH, ON_DEMAND)
    assert [round(s.total, 2) for s in every[:4]] == [4294.0, 4184.5, 4075.0, 5162.5]
    assert (every[3].base, every[3].burst_gpu_hours) == (3832.5, 700)


def test_the_simulation_picks_2_as_the_rule_does_when_gpus_come_one_by_one():
    """1,277.50 / (730 x 1.90) = 92.1 %: the first two GPUs are busy all month, the others 100 / 730 = 13.7 %."""
    assert best_split(BASE_2_PEAK_10, GPU_MONTH, ON_DEMAND).base_gpus == 2
    assert rule_of_thumb(BASE_2_PEAK_10, GPU_MONTH, ON_DEMAND) == 2


def test_whole_8_gpu_nodes_move_the_best_base_away_from_the_rule():
    """3 GPUs all month, 10 for 100 hours, on 8-GPU nodes at 8 x 1,277.50 = 10,220 a node-month. The
    rule reserves the 3 GPUs busy all month; but a node costs 10,220 + 2 x 100 x 1.90 = 10,600, and
    bursting all of it 3 x 730 x 1.90 + 7 x 100 x 1.90 = 4,161 + 1,330 = 5,491: the best base is none."""
    profile = simple_profile(base=3, peak=10, peak_hours=100)
    assert rule_of_thumb(profile, NODE_MONTH, ON_DEMAND) == 3
    every = splits(profile, NODE_MONTH, ON_DEMAND)
    assert [round(s.total, 2) for s in every] == [5491.0, 10600.0, 20440.0]
    assert best_split(profile, NODE_MONTH, ON_DEMAND).units == 0


def test_a_weekly_and_an_hourly_profile_give_the_simple_profiles_answer():
    """A week of 168 hours at 2 GPUs but 23 at 10 (23 / 168 x 730 = 99.94 hours a month), and the same
    as 744 hours of a month (102 of them at 10: 102 / 744 x 730 = 100.08), price alike."""
    week = hourly_profile([10] * 23 + [2] * 145)
    month = hourly_profile([10] * 102 + [2] * 642)
    for profile, at_peak in ((week, 23 / 168 * 730), (month, 102 / 744 * 730)):
        assert [level for level, _ in profile] == [10, 2]
        assert [at for _, at in profile] == pytest.approx([at for _, at in simple_profile(2, 10, at_peak)])
        assert hours_above(profile, 2) == pytest.approx(8 * at_peak)
        assert best_split(profile, GPU_MONTH, ON_DEMAND).base_gpus == 2


def test_the_kth_gpu_is_busy_the_share_of_the_month_demand_reaches_it():
    assert [round(busy_share(BASE_2_PEAK_10, k), 4) for k in (1, 2, 3, 10, 11)] == [1.0, 1.0, 0.137, 0.137, 0.0]


def test_a_12_month_term_over_a_3_month_horizon_bills_12_months_of_base_and_each_servers_setup():
    """A base of 2 at 1,277.50 with a 12-month term and 500 of setup per server, over 3 months:
    2 x 1,277.50 x 12 + 2 x 500 + 1,520 x 3 = 30,660 + 1,000 + 4,560 = 36,220, against all burst
    4,294 x 3 = 12,882: over 3 months bursting everything is cheapest; over 12, the base of 2
    (2,555 x 12 + 1,000 + 1,520 x 12 = 49,900 against 51,528)."""
    committed = Capacity(1277.50, 1, term_months=12, setup_per_unit=500)
    assert split_at(BASE_2_PEAK_10, 2, committed, ON_DEMAND, months=3).horizon == pytest.approx(36220)
    assert best_split(BASE_2_PEAK_10, committed, ON_DEMAND, months=3).units == 0
    best = best_split(BASE_2_PEAK_10, committed, ON_DEMAND, months=12)
    assert (best.units, round(best.horizon, 2)) == (2, 49900.0)
    assert round(best.total, 2) == 4075.0


def test_burst_on_8_gpu_instances_bills_whole_instances_each_hour():
    """Above a base of 2, the 8 GPUs of the peak fill one 8-GPU instance for 100 hours: 800 GPU-hours;
    above a base of 3, 7 GPUs still bill the whole instance: 800 again, where 1-GPU instances bill 700."""
    eight = Burst(1.90, gpus_per_unit=8)
    assert split_at(BASE_2_PEAK_10, 3, GPU_MONTH, eight).burst_gpu_hours == pytest.approx(800)
    assert split_at(BASE_2_PEAK_10, 3, GPU_MONTH, ON_DEMAND).burst_gpu_hours == pytest.approx(700)


def test_a_5_percent_tax_makes_a_base_of_2_carry_1_9_gpus_and_the_burst_bill_more_hours():
    """Virtualized on both sides at 5 %: 2 GPUs carry 1.9, so 0.1 GPU all month and 8.1 for 100 hours
    burst at 1 / 0.95 GPU-hours each: (0.1 x 630 + 8.1 x 100) / 0.95 = 873 / 0.95 = 918.95 GPU-hours."""
    taxed = split_at(BASE_2_PEAK_10, 2, Capacity(1277.50, 1, useful=0.95), Burst(1.90, useful=0.95))
    assert taxed.burst_gpu_hours == pytest.approx(873 / 0.95)


def test_egress_and_storage_go_with_the_base_and_cold_starts_with_any_burst():
    base = Capacity(1277.50, 1, data_month=40)
    serverless = Burst(1.90, start_month=11.11, data_month=25)
    assert split_at(BASE_2_PEAK_10, 0, base, serverless).data == 25
    assert split_at(BASE_2_PEAK_10, 2, base, serverless).data == 40
    assert split_at(BASE_2_PEAK_10, 10, base, serverless).burst == 0
    assert split_at(BASE_2_PEAK_10, 2, base, serverless).burst == pytest.approx(1520 + 11.11)
