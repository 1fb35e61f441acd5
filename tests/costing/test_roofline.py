"""The estimate of serving throughput from the physics (app/costing/roofline.py), each figure worked by
hand from its formula: Llama 3.1 8B in FP8 on one H100 (80 GiB, 3.35 TB/s, 1,978.9 dense FP8 TFLOPS)
at 1,000 tokens in and 1,000 out, half the roofline reached."""

import pytest

from app.costing.calibration import Observation, calibrate
from app.costing.memory import Precision
from app.costing.roofline import Architecture, Bound, Chip, Conditions, Efficiency, Estimate, Refusal, estimate

H100 = Chip(memory_gib=80, bandwidth_tb_s=3.35, dense_tflops=1978.9)
LLAMA_8B = Architecture(parameters=8e9, active_parameters=8e9, layers=32, kv_values=2 * 8 * 128, attention_width=4096)
HALF = Efficiency(memory=0.5, compute=0.5)
OFFLINE = Conditions(gpus=1, weights=Precision.FP8, kv_cache=Precision.FP8, input_tokens=1000, output_tokens=1000)


def test_offline_the_batch_is_what_memory_holds_and_decode_is_memory_bound():
    """Room: 80 x 2^30 x 0.9 - 8e9 bytes of weights = 69,309,411,328; a sequence's cache at its full 2,000
    tokens: 32 x 2,048 x 2,000 = 131,072,000 bytes, so 528 sequences. A step reads the weights and each
    cache at its mean 1,500 tokens: 8e9 + 528 x 98,304,000 = 59,904,512,000 bytes at 1.675 TB/s =
    35.764 ms (compute: 528 x 16,786,432,000 FLOPs at 989.45 TFLOP/s = 8.958 ms). A prefill is 2 x 8e9 x
    1,000 + 2 x 32 x 4,096 x 1,000^2 FLOPs = 16.436 ms; a user waits 35.764 + 528 x 16.436 / 1,000 =
    44.442 ms a token, and the deployment makes 528 / 0.044442 = 11,880.7 tokens a second."""
    found = estimate(H100, LLAMA_8B, OFFLINE, HALF)
    assert isinstance(found, Estimate)
    assert (found.batch, found.bound) == (528, Bound.MEMORY)
    assert found.tbt_ms == pytest.approx(44.442, abs=1e-3)
    assert found.tokens_per_s == pytest.approx(11_880.69, abs=0.01)


def test_a_bound_between_tokens_takes_the_largest_batch_within_it():
    """Within 30 ms: 8e9 / 1.675e12 + n x (98,304,000 / 1.675e12 + 16.436 ms / 1,000) <= 0.030 holds up
    to n = 335.76, so 335 sequences at 29.943 ms: 335 / 0.029943 = 11,188.0 tokens a second."""
    found = estimate(H100, LLAMA_8B, Conditions(**{**vars(OFFLINE), "max_tbt_ms": 30}), HALF)
    assert isinstance(found, Estimate)
    assert found.batch == 335 and found.tbt_ms == pytest.approx(29.943, abs=1e-3)
    assert found.tokens_per_s == pytest.approx(11_187.99, abs=0.01)


def test_what_no_batch_can_meet_is_refused_under_its_field():
    """A sequence of 1,100,000 tokens caches 32 x 2,048 x 1,100,000 = 72.1 GB: more than the 69.3 GB left."""
    lengths = Conditions(**{**vars(OFFLINE), "input_tokens": 1_000_000, "output_tokens": 100_000})
    assert estimate(H100, LLAMA_8B, lengths, HALF) == Refusal(
        "input_length", "the memory the weights leave on 1 GPU holds no sequence of 1,100,000 tokens"
    )
    ttft = Conditions(**{**vars(OFFLINE), "max_tbt_ms": 30, "max_ttft_ms": 10})
    assert estimate(H100, LLAMA_8B, ttft, HALF) == Refusal("max_ttft_ms", "a request's prefill alone takes 16 ms")
    tbt = Conditions(**{**vars(OFFLINE), "max_tbt_ms": 4})
    assert estimate(H100, LLAMA_8B, tbt, HALF) == Refusal("max_tbt_ms", "even one sequence waits 4.9 ms between tokens")


def test_a_mixture_of_experts_reads_only_the_experts_a_small_batch_uses():
    """One sequence of a 46.7B model with 12.9B active reads 12.9e9 bytes of weights, not 46.7e9."""
    experts = Architecture(46.7e9, 12.9e9, 32, 2048, 4096)
    one = Conditions(**{**vars(OFFLINE), "max_tbt_ms": 9.8})
    found = estimate(Chip(192, 5.3, 2614.9), experts, one, HALF)
    assert isinstance(found, Estimate) and found.batch >= 1
    dense = estimate(Chip(192, 5.3, 2614.9), Architecture(46.7e9, 46.7e9, 32, 2048, 4096), one, HALF)
    assert isinstance(dense, Refusal), "the same bound is out of reach when every weight is read"


def test_calibration_meets_benchmarks_made_at_a_known_share_of_the_roofline():
    """Benchmarks the estimate would give at 0.4 of bandwidth and 0.3 of the peak calibrate to those shares."""
    truth = Efficiency(0.4, 0.3)
    observed = []
    for i, (tokens_in, tokens_out) in enumerate([(1000, 1000), (128, 2048), (2048, 128), (5000, 500), (128, 128)]):
        c = Conditions(1, Precision.FP8, Precision.FP8, tokens_in, tokens_out)
        made = estimate(H100, LLAMA_8B, c, truth)
        assert isinstance(made, Estimate)
        observed.append(Observation(f"run {i}", H100, LLAMA_8B, c, made.tokens_per_s))
    found = calibrate(observed)
    assert found.memory == pytest.approx(0.4, rel=1e-3)
