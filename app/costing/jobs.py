"""From a job to GPU-hours (DOMAIN.md): a month of serving tokens, or a training run, as the
GPU-hours, GPUs at once and months that the monthly cost model prices."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from app.costing.terms import HOURS_PER_MONTH

SECONDS_PER_HOUR = 3600

FLOPS_PER_PARAMETER_TOKEN = 6.0
"""Dense transformer training, forward and backward: C ≈ 6·N·D FLOPs for N parameters and D tokens
(Kaplan et al. 2020, "Scaling Laws for Neural Language Models", arXiv:2001.08361)."""

LORA_COMPUTE_SHARE = 32.5 / 43.1
"""LoRA's GPU time as a share of full fine-tuning's for the same tokens: 0.754, about 4.5·N·D.

Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models", arXiv:2106.09685, §4.2: "We
also observe a 25% speedup during training on GPT-3 175B compared to full fine-tuning as we do not
need to calculate the gradient for the vast majority of the parameters." Footnote 5: "For GPT-3
175B, the training throughput for full fine-tuning is 32.5 tokens/s per V100 GPU; with the same
number of weight shards for model parallelism, the throughput is 43.1 tokens/s per V100 GPU for
LoRA." The forward pass and the activations' backward without weight gradients would be 4·N·D,
a lower bound."""

DEFAULT_UTILISATION = 0.375
"""Model FLOPs utilisation (MFU) where the user states none: the median of 33 known training runs
(Epoch AI, epoch-research/training-cost-trends, cost_analysis_standalone.py at commit
263c40a159307e917213d1dc433c617e47d55bfe: `MEDIAN_UTILIZATION = 0.375  # median of 33 known values`)."""

_NOISE = 1e-12
"""Relative float noise forgiven before rounding up: work of exactly k replica-months is k
replicas, not k + 1 (relative, since counts can run into the thousands)."""


def _whole(ratio: float) -> int:
    """The least whole number, at least 1, that is not below `ratio` beyond float noise."""
    return max(1, math.ceil(ratio * (1 - _NOISE)))


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


@dataclass(frozen=True)
class ServingJob:
    """A month of serving: the output tokens to produce and one replica's measured throughput."""

    output_tokens: float
    """Per month."""
    tokens_per_s: float
    """Output tokens per second of one replica (a deployment of `replica_gpus` GPUs)."""
    replica_gpus: int
    hours_up: float = HOURS_PER_MONTH
    """Hours a month the service must run whatever its load; 0: only while there is work (a batch)."""


@dataclass(frozen=True)
class ServingPlan:
    """What a month of serving takes: the work, the replicas that do it and the GPU-hours billed."""

    work_hours: float
    """Hours one replica works for the month's tokens: T / (R x 3,600)."""
    replicas: int
    """The least whole number whose hours cover the work, at 730 hours each for a batch; at least 1."""
    gpus_at_once: int
    """replicas x replica_gpus."""
    gpu_hours: float
    """A month's: max(work_hours, hours_up x replicas) x replica_gpus."""
    by_hour: tuple[int, ...] = ()
    """Replicas in each hour of a day, where the tokens follow a daily shape (`daily_plan`)."""


def serving_plan(job: ServingJob) -> ServingPlan:
    _require(job.tokens_per_s > 0, f"a replica's throughput must be above 0 tokens/s, not {job.tokens_per_s}")
    _require(job.replica_gpus >= 1, f"a replica needs at least 1 GPU, not {job.replica_gpus}")
    _require(
        0 <= job.hours_up <= HOURS_PER_MONTH,
        f"a service is up between 0 and {HOURS_PER_MONTH:g} hours a month, not {job.hours_up}",
    )
    work = job.output_tokens / (job.tokens_per_s * SECONDS_PER_HOUR)
    replicas = _whole(work / (job.hours_up or HOURS_PER_MONTH))
    return ServingPlan(
        work_hours=work,
        replicas=replicas,
        gpus_at_once=replicas * job.replica_gpus,
        gpu_hours=max(work, job.hours_up * replicas) * job.replica_gpus,
    )


HOURS_A_DAY = 24
DAYS_A_MONTH = HOURS_PER_MONTH / HOURS_A_DAY
"""A month of 730 hours is 30.42 days."""


def daily_plan(job: ServingJob, shape: Sequence[float]) -> ServingPlan:
    """A service up all month whose tokens follow the same daily shape every day: each hour of the day
    runs the replicas its share of a day's work needs, at least one. `shape` holds each hour's traffic
    in any unit, since only its proportions count; the peak is `replicas`, the hours vary."""
    _require(len(shape) == HOURS_A_DAY, f"a day has {HOURS_A_DAY} hours, not {len(shape)}")
    _require(min(shape) >= 0 and sum(shape) > 0, "a daily shape needs traffic in some hour and none below 0")
    plan = serving_plan(job)
    day = plan.work_hours / DAYS_A_MONTH
    by_hour = tuple(_whole(day * share / sum(shape)) for share in shape)
    return ServingPlan(
        plan.work_hours, max(by_hour), max(by_hour) * job.replica_gpus,
        sum(by_hour) * job.replica_gpus * DAYS_A_MONTH, by_hour,
    )  # fmt: skip


def per_million_tokens(total: float, output_tokens: float) -> float:
    """USD per million output tokens: total / (T / 1e6)."""
    _require(output_tokens > 0, f"a price per token needs tokens above 0, not {output_tokens}")
    return total / (output_tokens / 1e6)


@dataclass(frozen=True)
class RunPlan:
    """A training run spread over the calendar months it is billed in."""

    gpu_hours: float
    """Of the whole run."""
    gpus: int
    """In the run, at once."""
    wall_clock_hours: float
    """gpu_hours / gpus."""
    months: int
    """Calendar months it is billed over: ceil(wall_clock_hours / 730), at least 1."""
    gpu_hours_per_month: float
    """gpu_hours / months: what the monthly cost model prices."""


def training_flops(parameters: float, tokens: float, lora: bool) -> float:
    """FLOPs (LoRA: their full fine-tuning equivalent in GPU time) of training `parameters` on
    `tokens`: 6·N·D, times LORA_COMPUTE_SHARE for LoRA."""
    return FLOPS_PER_PARAMETER_TOKEN * parameters * tokens * (LORA_COMPUTE_SHARE if lora else 1.0)


def gpu_hours_at_peak(flops: float, dense_tflops: float, utilisation: float) -> float:
    """GPU-hours of `flops` on GPUs of a dense peak of `dense_tflops` TFLOP/s at the run's precision,
    of which `utilisation` (MFU) is useful: flops / (tflops x 1e12 x utilisation x 3,600)."""
    _require(dense_tflops > 0, f"a GPU's dense peak must be above 0 TFLOP/s, not {dense_tflops}")
    _require(0 < utilisation <= 1, f"utilisation (MFU) must be above 0 and at most 1, not {utilisation}")
    return flops / (dense_tflops * 1e12 * utilisation * SECONDS_PER_HOUR)


def gpu_hours_at_rate(tokens: float, tokens_per_s_per_gpu: float) -> float:
    """GPU-hours of training on `tokens` at a measured rate per GPU: tokens / (rate x 3,600)."""
    _require(tokens_per_s_per_gpu > 0, f"a training rate must be above 0 tokens/s per GPU, not {tokens_per_s_per_gpu}")
    return tokens / (tokens_per_s_per_gpu * SECONDS_PER_HOUR)


def run_plan(gpu_hours: float, gpus: int) -> RunPlan:
    _require(gpus >= 1, f"a run needs at least 1 GPU, not {gpus}")
    wall_clock = gpu_hours / gpus
    months = _whole(wall_clock / HOURS_PER_MONTH)
    return RunPlan(gpu_hours, gpus, wall_clock, months, gpu_hours / months)


def gpus_at_once(gpu_hours: float, peak_gpus: int) -> int:
    """GPUs a month of `gpu_hours` needs at once: max(peak, ceil(H / 730)), since a month has 730
    hours of each GPU."""
    _require(peak_gpus >= 1, f"a workload uses at least 1 GPU at once, not {peak_gpus}")
    return max(peak_gpus, _whole(gpu_hours / HOURS_PER_MONTH))
