"""A stated job as JSON: what it takes on a GPU model and what that rests on, or why there is no number."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.quoting.jobs import JobFit, NoNumber, job_fit
from app.quoting.params.job import Job
from app.quoting.sizing import SizeOut, Sizing, size_out


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
    tokens_per_s: float | None = Field(
        description="serving: output tokens/s of one replica; a run at a training row: tokens/s per GPU"
    )
    measured: bool = Field(description="the throughput is the one you gave, not a benchmark's")
    dense_tflops: float | None = Field(description="a run at the dense peak: the GPU model's dense peak used")
    utilisation: float | None = Field(description="a run at the dense peak: the share of it assumed (MFU)")

    @classmethod
    def of(cls, job: Job, j: JobFit) -> JobOut:
        serving, run = j.serving, j.run
        return cls(
            job=job, gpu=j.gpu, gpu_hours=round(j.gpu_hours, 4), gpus_at_once=j.gpus_at_once, unit_gpus=j.unit_gpus,
            replicas=serving.replicas if serving else None,
            work_hours=round(serving.work_hours, 4) if serving else None,
            run_gpu_hours=round(run.gpu_hours, 4) if run else None,
            wall_clock_hours=round(run.wall_clock_hours, 4) if run else None,
            months=run.months if run else None,
            benchmark=j.benchmark.key if j.benchmark else None, tokens_per_s=j.tokens_per_s,
            measured=j.measured_tps is not None,
            dense_tflops=j.peak.dense_tflops if j.peak else None, utilisation=j.utilisation if j.peak else None,
        )  # fmt: skip


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
