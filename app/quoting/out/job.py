"""A stated job as JSON: what it takes on a GPU model and what that rests on, or why there is no number."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.quoting.estimates import Estimated, Spread
from app.quoting.jobs import AcrossNodes, Basis, JobFit, NoNumber, job_fit
from app.quoting.params.job import Job
from app.quoting.sizing import SizeOut, Sizing, size_out


class ErrorOut(BaseModel):
    benchmarks: int = Field(description="the benchmarks the estimate was checked on, each left out of its calibration")
    median: float = Field(description="the median of |estimate / published - 1| over them")
    p90: float = Field(description="its 90th percentile")

    @classmethod
    def of(cls, s: Spread) -> ErrorOut:
        return cls(benchmarks=s.benchmarks, median=round(s.median, 4), p90=round(s.p90, 4))


class EstimateOut(BaseModel):
    """What a serving job's estimated throughput rests on (DOMAIN.md, "From a job to GPU-hours")."""

    bandwidth_tb_s: float = Field(description="the GPU model's memory bandwidth, from the catalog")
    dense_tflops: float = Field(description="its dense peak at the precision the weights multiply in")
    batch: int = Field(description="sequences decoded together: what memory or the latency bound allows")
    bound: str = Field(description="what bounds a decode step at that batch: memory or compute")
    tbt_ms: float = Field(description="a user's time between tokens at that batch")
    memory_efficiency: float = Field(description="the share of bandwidth published runs reach (calibrated)")
    compute_efficiency: float = Field(description="the share of the dense peak published runs reach (calibrated)")
    calibrated_on: str = Field(description="which benchmarks the shares were calibrated on")
    calibration_benchmarks: int
    error: ErrorOut | None = Field(description="how far the estimate is from those benchmarks, each left out")

    @classmethod
    def of(cls, e: Estimated) -> EstimateOut:
        eff = e.calibrated.efficiency
        return cls(
            bandwidth_tb_s=e.chip.bandwidth_tb_s, dense_tflops=e.chip.dense_tflops, batch=e.estimate.batch,
            bound=e.estimate.bound, tbt_ms=round(e.estimate.tbt_ms, 2), memory_efficiency=round(eff.memory, 4),
            compute_efficiency=round(eff.compute, 4), calibrated_on=e.calibrated.basis,
            calibration_benchmarks=e.calibrated.benchmarks,
            error=ErrorOut.of(e.error) if e.error else None,
        )  # fmt: skip


class ScalingRunOut(BaseModel):
    key: str
    system: str
    gpus: int
    tokens_per_s: float = Field(description="per GPU, worked out from the run's log")
    source: str


class AcrossOut(BaseModel):
    """A run or a serving replica on whole nodes of offers whose fabric between nodes a source states."""

    node_gpus: int = Field(description="the GPUs the loss is counted from: one node's, or the training benchmark's")
    kept_per_doubling: float | None = Field(
        description="the share of the rate per GPU kept each time the GPUs double: the median over pairs of "
        "published runs of one series at two sizes; null for a serving replica (no loss published or applied)"
    )
    share_kept: float = Field(description="kept_per_doubling ^ log2(GPUs in the run / node_gpus); 1 at a benchmark")
    runs: list[ScalingRunOut] = Field(description="the published runs set against each other, by series")

    @classmethod
    def of(cls, a: AcrossNodes) -> AcrossOut:
        return cls(
            node_gpus=a.node_gpus, kept_per_doubling=round(a.loss.kept, 5) if a.loss else None,
            share_kept=round(a.share, 5),
            runs=[ScalingRunOut(key=r.key, system=r.system, gpus=r.gpus, tokens_per_s=r.tokens_per_s, source=r.source)
                  for r in (a.loss.paired if a.loss else ())],
        )  # fmt: skip


class JobOut(BaseModel):
    """What a stated job takes on one GPU model, and what that rests on."""

    job: Job
    gpu: str
    gpu_hours: float = Field(description="a month's, as priced (a run's spread over the months it is billed)")
    gpus_at_once: int
    unit_gpus: int = Field(description="GPUs one instance or node must hold: a replica, or the whole run")
    replicas: int | None = Field(description="serving: deployments of unit_gpus GPUs the volume needs")
    work_hours: float | None = Field(description="serving: hours one replica works for the month's tokens")
    run_gpu_hours: float | None = Field(description="a run: its GPU-hours in all")
    wall_clock_hours: float | None = Field(description="a run: GPU-hours / GPUs in the run")
    months: int | None = Field(description="a run: the months it is billed over, its horizon")
    benchmark: str | None = Field(description="the key of the throughput row used (see /api/throughput)")
    benchmarks_alike: int | None = Field(
        description="serving on a benchmark at the job's conditions: how many were published there whose "
        "deployment holds the model; the fastest per GPU is used (the best published, not the median)"
    )
    tokens_per_s: float | None = Field(
        description="serving: output tokens/s of one replica; a run at a training row: tokens/s per GPU"
    )
    basis: Basis = Field(
        description="what the figures rest on: benchmark (`benchmark` names it), estimate (serving: from the GPU's "
        "bandwidth and peak, `estimate`; a run: the dense peak at an assumed utilisation) or measured (yours)"
    )
    estimate: EstimateOut | None = Field(description="serving on the estimate: what it rests on; null otherwise")
    adjusted_by: float | None = Field(
        description="serving on a benchmark at other lengths or latency: the factor the estimate scales it by to "
        "the job's (`tokens_per_s` is the benchmark's times this); null where none is applied"
    )
    adjustment_error: ErrorOut | None = Field(
        description="how far such adjustments land: each shipped benchmark adjusted from its nearest sibling"
    )
    measured: bool = Field(description="the throughput is the one you gave, not a benchmark's")
    dense_tflops: float | None = Field(description="a run at the dense peak: the GPU model's dense peak used")
    utilisation: float | None = Field(description="a run at the dense peak: the share of it assumed (MFU)")
    benchmark_scale: float | None = Field(
        description="a run on a training benchmark of another size: the share of its rate per GPU the run's size "
        "keeps, kept_per_doubling ^ log2(run's GPUs / benchmark's); `tokens_per_s` is the benchmark's times this"
    )
    across_nodes: AcrossOut | None = Field(
        description="a run too large for one instance or node: on whole nodes, its rate per GPU scaled by the "
        "published loss per doubling; a serving replica too large for one: on whole nodes, at your measured "
        "throughput; null where one unit holds it"
    )

    @classmethod
    def of(cls, job: Job, j: JobFit) -> JobOut:
        serving = j.serving
        return cls(
            job=job, gpu=j.gpu, gpu_hours=round(j.gpu_hours, 4), gpus_at_once=j.gpus_at_once, unit_gpus=j.unit_gpus,
            replicas=serving.replicas if serving else None,
            work_hours=round(serving.work_hours, 4) if serving else None,
            **_run(j), across_nodes=AcrossOut.of(j.across) if j.across else None,
            benchmark=j.benchmark.key if j.benchmark else None, benchmarks_alike=j.alike or None,
            tokens_per_s=j.tokens_per_s, basis=j.basis,
            estimate=EstimateOut.of(j.estimated) if j.estimated else None,
            adjusted_by=round(j.adjusted.factor, 4) if j.adjusted else None,
            adjustment_error=ErrorOut.of(j.adjusted.error) if j.adjusted and j.adjusted.error else None,
            measured=j.measured_tps is not None,
            dense_tflops=j.peak.dense_tflops if j.peak else None, utilisation=j.utilisation if j.peak else None,
        )  # fmt: skip


def _run(j: JobFit) -> dict[str, Any]:
    """A run's own figures as JobOut states them; null for serving."""
    run = j.run
    if run is None:
        return dict.fromkeys(("run_gpu_hours", "wall_clock_hours", "months", "benchmark_scale"))
    return {
        "run_gpu_hours": round(run.gpu_hours, 4), "wall_clock_hours": round(run.wall_clock_hours, 4),
        "months": run.months, "benchmark_scale": round(j.benchmark_scale, 5) if j.benchmark else None,
    }  # fmt: skip


class NoNumberOut(BaseModel):
    gpu: str
    field: str = Field(description="the input that decides it")
    reason: str


class FitJobOut(BaseModel):
    gpu: str
    job: JobOut | None = Field(description="what the stated job takes on this GPU model")
    no_number: NoNumberOut | None = Field(description="why the catalog has no number for the job on it")


class SizedJobOut(SizeOut):
    jobs: list[FitJobOut] = Field(
        description="a stated job (job=serve or train, or split with demand=serving): what it takes on each "
        "offered GPU model, from its benchmark or dense peak, or why there is no number; [] for GPU-hours and "
        "other splits"
    )


def sized_job_out(s: Sizing) -> SizedJobOut:
    """The sizing with what the job takes on each GPU model offered in the catalog."""
    jobs = []
    if s.params.serves or s.params.job is Job.TRAIN:
        for fit in s.fits:
            if fit.largest_unit is None:
                continue
            found = job_fit(s.catalog, s.params, s, fit)
            if isinstance(found, NoNumber):
                jobs.append(FitJobOut(gpu=fit.gpu, job=None, no_number=NoNumberOut(**vars(found))))
            else:
                jobs.append(FitJobOut(gpu=fit.gpu, job=JobOut.of(s.params.job, found), no_number=None))
    return SizedJobOut(**size_out(s).model_dump(), jobs=jobs)
