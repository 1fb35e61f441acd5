"""The hybrid split (DOMAIN.md, "The hybrid split"): a base of whole units for the steady load, the
rest burst by the GPU-hour, and the base that makes the month cheapest, against the simple rule."""

import pytest

from app.costing.hybrid import (
    best_split,
    busy_share,
    hourly_profile,
    hours_above,
    rule_of_thumb,
    simple_profile,
    splits,
)

BASE_2_PEAK_10 = simple_profile(base=2, peak=10, peak_hours=100)
"""2 GPUs all month, 10 for 100 hours of it."""


def test_all_burst_is_4_294_and_a_base_of_2_is_4_075_at_1_277_50_and_1_90():
    """All burst: 2 x 730 x 1.90 + 8 x 100 x 1.90 = 2,774 + 1,520 = 4,294; a base of 2 at 1,277.50
    a GPU-month: 2 x 1,277.50 + 8 x 100 x 1.90 = 2,555 + 1,520 = 4,075. A base of 1 bursts 630 x 1 +
    100 x 9 GPU-hours: 1,277.50 + 1,530 x 1.90 = 4,184.50; of 3, 3,832.50 + 700 x 1.90 = 5,162.50."""
    every = splits(BASE_2_PEAK_10, 1277.50, 1, 1.90)
    assert [round(s.total, 2) for s in every[:4]] == [4294.0, 4184.5, 4075.0, 5162.5]
    assert (every[3].base, every[3].burst_gpu_hours) == (3832.5, 700)


def test_the_simulation_picks_2_as_the_rule_does_when_gpus_come_one_by_one():
    """1,277.50 / (730 x 1.90) = 92.1 %: the first two GPUs are busy all month, the others 100 / 730 = 13.7 %."""
    assert best_split(BASE_2_PEAK_10, 1277.50, 1, 1.90).base_gpus == 2
    assert rule_of_thumb(BASE_2_PEAK_10, 1277.50, 1, 1.90) == 2


def test_whole_8_gpu_nodes_move_the_best_base_away_from_the_rule():
    """3 GPUs all month, 10 for 100 hours, on 8-GPU nodes at 8 x 1,277.50 = 10,220 a node-month. The
    rule reserves the 3 GPUs busy all month; but a node costs 10,220 + 2 x 100 x 1.90 = 10,600, and
    bursting all of it 3 x 730 x 1.90 + 7 x 100 x 1.90 = 4,161 + 1,330 = 5,491: the best base is none."""
    profile = simple_profile(base=3, peak=10, peak_hours=100)
    assert rule_of_thumb(profile, 10220, 8, 1.90) == 3
    every = splits(profile, 10220, 8, 1.90)
    assert [round(s.total, 2) for s in every] == [5491.0, 10600.0, 20440.0]
    assert best_split(profile, 10220, 8, 1.90).units == 0


def test_a_weekly_and_an_hourly_profile_give_the_simple_profiles_answer():
    """A week of 168 hours at 2 GPUs but 23 at 10 (23 / 168 x 730 = 99.94 hours a month), and the same
    as 744 hours of a month (102 of them at 10: 102 / 744 x 730 = 100.08), price alike."""
    week = hourly_profile([10] * 23 + [2] * 145)
    month = hourly_profile([10] * 102 + [2] * 642)
    for profile, at_peak in ((week, 23 / 168 * 730), (month, 102 / 744 * 730)):
        assert [level for level, _ in profile] == [10, 2]
        assert [at for _, at in profile] == pytest.approx([at for _, at in simple_profile(2, 10, at_peak)])
        assert hours_above(profile, 2) == pytest.approx(8 * at_peak)
        assert best_split(profile, 1277.50, 1, 1.90).base_gpus == 2


def test_the_kth_gpu_is_busy_the_share_of_the_month_demand_reaches_it():
    assert [round(busy_share(BASE_2_PEAK_10, k), 4) for k in (1, 2, 3, 10, 11)] == [1.0, 1.0, 0.137, 0.137, 0.0]
