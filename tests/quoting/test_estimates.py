"""The estimate on the shipped catalog: calibrated on the benchmarks whose conditions are all stated,
checked on each of them left out in turn, and used where a job has no benchmark."""

import pytest

from app.costing.calibration import calibrate
from app.costing.jobs import ServingJob, serving_plan
from app.costing.memory import Precision
from app.costing.roofline import Conditions, Estimate, estimate
from app.quoting.build import build_quote
from app.quoting.estimates import (
    Family,
    architecture,
    benchmarked,
    calibrated,
    chip,
    error_of,
    left_out,
    spread,
)
from app.quoting.params.quote import QuoteParams
from app.quoting.sizing import size
from tests.factories import shipped_catalogs


@pytest.fixture(scope="module")
def catalogs():
    return shipped_catalogs()


@pytest.fixture(scope="module")
def shipped(catalogs):
    return catalogs.current()


def test_the_estimate_is_checked_on_every_benchmark_whose_conditions_are_stated(shipped):
    """MLPerf's runs state no input length, virtualized runs are apart, a GPU without a peak at the
    run's precision cannot be estimated: 117 of the 306 serving benchmarks, in three groups."""
    rows = benchmarked(shipped)
    assert len(rows) == 117
    assert all(b.record.input_tokens and not b.record.virtualized for b in rows)
    groups = {g: sum(b.group == g for b in rows) for g in {b.group for b in rows}}
    assert groups == {("NVIDIA", Family.DENSE): 52, ("NVIDIA", Family.EXPERTS): 52, ("AMD", Family.DENSE): 13}
    assert len(left_out(shipped)) == 117


def test_each_check_is_estimated_from_a_calibration_without_it(shipped):
    """The first NVIDIA dense benchmark, recomputed by hand: calibrate on the group's other 51, estimate it."""
    first = next(c for c in left_out(shipped) if c.benchmarked.group == ("NVIDIA", Family.DENSE))
    others = [
        b.observation for b in benchmarked(shipped) if b.group == first.benchmarked.group and b is not first.benchmarked
    ]
    o = first.benchmarked.observation
    alone = estimate(o.chip, o.model, o.conditions, calibrate(others))
    assert isinstance(alone, Estimate)
    assert first.check.estimated == pytest.approx(alone.tokens_per_s, rel=1e-3)
    assert first.check.published == o.tokens_per_s


def test_the_estimates_error_over_the_shipped_benchmarks(shipped):
    """What the page and /api/throughput state: |estimate / published - 1| over the 117 checks has a
    median of about a fifth and a 90th percentile of about a half; dense models fare better."""
    overall = spread(left_out(shipped))
    assert overall is not None and overall.benchmarks == 117
    assert 0.1 < overall.median < 0.3 and 0.3 < overall.p90 < 0.8
    dense = error_of(shipped, ("NVIDIA", Family.DENSE))
    assert dense is not None and dense.benchmarks == 52 and dense.median < overall.median


def test_llama_3_1_70b_on_h200_in_bf16_rests_on_the_estimate_and_the_figures_follow_from_it(catalogs, shipped):
    """No benchmark of Llama 3.1 70B in BF16 on H200 at 1,000/1,000: the estimate, with NVIDIA's dense
    calibration, on the deployment (2 H200 that hold the model, or 4 or 8) whose replicas take the
    fewest GPU-hours for 300 million tokens up all month: one replica of the fewest GPUs, 2 x 730."""
    params = QuoteParams(job="serve", preset="llama-3.1-70b", gpu="H200", output_tokens_m=300)
    sizing = size(catalogs, params)
    assert not isinstance(sizing, dict)
    model = architecture(sizing.run.shape, sizing.preset)
    eff = calibrated(shipped, ("NVIDIA", Family.DENSE)).efficiency
    h200 = chip(shipped, "H200", Precision.BF16)
    assert not isinstance(h200, str) and (h200.bandwidth_tb_s, h200.dense_tflops) == (4.8, 989.4)
    rate = {}
    for gpus in (2, 4, 8):
        e = estimate(h200, model, Conditions(gpus, Precision.BF16, Precision.BF16, 1000, 1000), eff)
        assert isinstance(e, Estimate)
        rate[gpus] = e.tokens_per_s
    hours = {g: serving_plan(ServingJob(300e6, tps, g, 730)).gpu_hours for g, tps in rate.items()}
    assert hours == {2: 1460, 4: 2920, 8: 5840}
    result = build_quote(catalogs, params)
    assert not isinstance(result, dict) and result.job is not None
    job = result.job
    assert (job.basis, job.unit_gpus, job.gpu_hours) == ("estimate", 2, 1460)
    assert job.tokens_per_s == pytest.approx(rate[2])
    assert job.serving is not None
    assert job.serving.work_hours == pytest.approx(300e6 / (rate[2] * 3600))


def test_a_large_volume_takes_the_deployment_with_the_most_output_per_gpu(catalogs, shipped):
    """At 300 billion tokens a month every deployment runs many replicas: the fewest GPU-hours are those
    of the most tokens per GPU, whichever size that is."""
    params = QuoteParams(job="serve", preset="llama-3.1-70b", gpu="H200", output_tokens_m=300_000)
    result = build_quote(catalogs, params)
    assert not isinstance(result, dict) and result.job is not None and result.job.estimated is not None
    sizing = size(catalogs, params)
    assert not isinstance(sizing, dict)
    model, h200 = architecture(sizing.run.shape, sizing.preset), chip(shipped, "H200", Precision.BF16)
    assert not isinstance(h200, str)
    eff = calibrated(shipped, ("NVIDIA", Family.DENSE)).efficiency
    per_gpu = {}
    for gpus in (2, 4, 8):
        e = estimate(h200, model, Conditions(gpus, Precision.BF16, Precision.BF16, 1000, 1000), eff)
        assert isinstance(e, Estimate)
        per_gpu[gpus] = e.tokens_per_s / gpus
    assert result.job.unit_gpus == max(per_gpu, key=per_gpu.__getitem__)


def test_other_lengths_rest_on_the_nearest_benchmark_adjusted_by_the_estimate(catalogs, shipped):
    """Llama 3.1 70B in BF16 on H100 at 467/256 offline: no benchmark at those lengths; the nearest offline
    one is TensorRT-LLM v0.14's 1,000/1,000 on 4 x H100, 3,774.676 tokens/s, scaled by the estimate at
    467/256 over the estimate at 1,000/1,000, both on its 4 GPUs."""
    params = QuoteParams(job="serve", preset="llama-3.1-70b", gpu="H100", input_length=467, output_length=256)
    result = build_quote(catalogs, params)
    assert not isinstance(result, dict) and result.job is not None and result.job.adjusted is not None
    job = result.job
    assert job.benchmark is not None and job.benchmark.key == "llama-3.1-70b/h100x4/bf16/trt-llm-0.14/offline/1000-1000"
    sizing = size(catalogs, params)
    assert not isinstance(sizing, dict)
    model, h100 = architecture(sizing.run.shape, sizing.preset), chip(shipped, "H100", Precision.BF16)
    eff = calibrated(shipped, ("NVIDIA", Family.DENSE)).efficiency
    assert not isinstance(h100, str)
    at_job = estimate(h100, model, Conditions(4, Precision.BF16, Precision.BF16, 467, 256), eff)
    at_benchmark = estimate(h100, model, Conditions(4, Precision.BF16, Precision.BF16, 1000, 1000), eff)
    assert isinstance(at_job, Estimate) and isinstance(at_benchmark, Estimate)
    assert job.adjusted.factor == pytest.approx(at_job.tokens_per_s / at_benchmark.tokens_per_s)
    assert (job.basis, job.unit_gpus, job.tokens_per_s) == (
        "benchmark",
        4,
        pytest.approx(3774.676 * job.adjusted.factor),
    )
