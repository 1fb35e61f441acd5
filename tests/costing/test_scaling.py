"""Runs across nodes: the rate per GPU kept per doubling of the GPUs, from published runs, by hand."""

import pytest

from app.costing.scaling import ScalingPoint, kept_per_doubling, pairs, scaling_of, share_kept

H200_512 = ScalingPoint("Nebius H200", 512, 369)
H200_1024 = ScalingPoint("Nebius H200", 1024, 363)
GB200_512 = ScalingPoint("NVIDIA GB200", 512, 1069)
GB200_2560 = ScalingPoint("NVIDIA GB200", 2560, 961)
GB200_5120 = ScalingPoint("NVIDIA GB200", 5120, 919)


def test_405b_on_512_then_1024_h200_keeps_363_of_369_per_doubling():
    assert kept_per_doubling(H200_512, H200_1024) == pytest.approx(363 / 369)


def test_512_to_2560_gb200_is_log2_5_doublings():
    """(961 / 1,069) ^ (1 / log2 5) = 0.89897 ^ 0.43068 = 0.95517."""
    assert kept_per_doubling(GB200_512, GB200_2560) == pytest.approx(0.95517, abs=1e-5)


def test_each_series_is_paired_size_by_size_never_across_systems():
    assert pairs([GB200_5120, H200_1024, GB200_512, H200_512, GB200_2560]) == [
        (GB200_512, GB200_2560), (GB200_2560, GB200_5120), (H200_512, H200_1024)
    ]  # fmt: skip


def test_the_scaling_is_the_median_pair():
    """Pairs 0.95517, (919 / 961) = 0.95630, (363 / 369) = 0.98374: the median 0.95630."""
    assert scaling_of([GB200_512, GB200_2560, GB200_5120, H200_512, H200_1024]) == pytest.approx(919 / 961)
    assert scaling_of([H200_512]) is None


def test_64_gpus_from_one_node_of_8_keep_0_97_cubed_and_a_run_half_the_size_gains_a_doubling():
    assert share_kept(8, 64, 0.97) == pytest.approx(0.912673)
    assert share_kept(8, 8, 0.97) == 1.0
    assert share_kept(64, 32, 0.97) == pytest.approx(1 / 0.97)
