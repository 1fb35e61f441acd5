"""How a training run's rate per GPU falls as it spans more nodes (DOMAIN.md, "From a job to GPU-hours"):
the share of it kept each time the GPUs in the run double, measured on published runs of one model on
one system at several cluster sizes, and applied beyond one node."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ScalingPoint:
    """A published run's rate per GPU at its cluster size."""

    series: str
    """The system it ran on: only points of one series are set against each other."""
    gpus: int
    tokens_per_s: float
    """Per GPU."""


def kept_per_doubling(smaller: ScalingPoint, larger: ScalingPoint) -> float:
    """The share of the rate per GPU kept per doubling between two sizes: (r_large / r_small) ^ (1 /
    log2(n_large / n_small)); 405B on 512 H200 at 369 tokens/s, on 1,024 at 363: 0.984."""
    return (larger.tokens_per_s / smaller.tokens_per_s) ** (1 / math.log2(larger.gpus / smaller.gpus))


def pairs(points: Iterable[ScalingPoint]) -> list[tuple[ScalingPoint, ScalingPoint]]:
    """Each series' points side by side in order of size: each next size against the one before."""
    by_series: dict[str, list[ScalingPoint]] = {}
    for p in points:
        by_series.setdefault(p.series, []).append(p)
    runs = [sorted(series, key=lambda p: p.gpus) for series in by_series.values()]
    return [(a, b) for run in runs for a, b in zip(run, run[1:], strict=False) if b.gpus > a.gpus]


def scaling_of(points: Iterable[ScalingPoint]) -> float | None:
    """The median share kept per doubling over every pair of sizes; None with no pair."""
    kept = [kept_per_doubling(a, b) for a, b in pairs(points)]
    return statistics.median(kept) if kept else None


def share_kept(measured_at: int, gpus: int, kept: float) -> float:
    """The share of a rate per GPU measured (or assumed) at `measured_at` GPUs that a run of `gpus` keeps:
    `kept` per doubling, kept ^ log2(gpus / measured_at), more than all of it for a smaller run. 64 GPUs
    from one node of 8 at 0.97 a doubling: 0.97^3 = 0.9127; 32 from a run of 64: 1 / 0.97."""
    return kept ** math.log2(gpus / measured_at)
