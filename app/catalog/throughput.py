"""Throughput benchmarks, GPUs' dense peaks and memory bandwidths as a catalog version holds them:
what turns a job into GPU-hours, each with its source, so that a quote can name what it rests on."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from app.catalog.records import Sourced, records_at
from app.catalog.throughput_tables import GpuBandwidthVersion, GpuPeakVersion, ThroughputVersion, TrainingScalingVersion
from app.costing.scaling import ScalingPoint


@dataclass(frozen=True)
class ThroughputRecord(Sourced):
    """One benchmark under its conditions; `gpu` is the catalog's GPU model, `precision` a Precision value."""

    key: str
    kind: str
    model: str
    preset: str
    parameters: int
    gpu: str
    gpus: int
    precision: str
    precision_published: str
    engine: str
    scenario: str
    input_tokens: int | None
    output_tokens: int | None
    sequence_length: int | None
    ttft_ms: float | None
    tbt_ms: float | None
    latency_published: str
    tokens_per_s: float
    """Inference: output tokens per second of the whole deployment of `gpus` GPUs; training: per GPU."""
    virtualized: bool = False


@dataclass(frozen=True)
class PeakRecord(Sourced):
    """A GPU model's dense peak at one precision."""

    gpu: str
    precision: str
    dense_tflops: float


@dataclass(frozen=True)
class BandwidthRecord(Sourced):
    """A GPU model's memory bandwidth, TB/s."""

    gpu: str
    tb_per_s: float


@dataclass(frozen=True)
class ScalingRecord(Sourced):
    """A published training run's rate per GPU at its cluster size."""

    key: str
    model: str
    gpu: str
    system: str
    series: str
    gpus: int
    global_batch: int
    sequence_length: int
    tokens_per_s: float

    @property
    def point(self) -> ScalingPoint:
        return ScalingPoint(self.series, self.gpus, self.tokens_per_s)


def scaling_at(session: Session, version: int) -> tuple[ScalingRecord, ...]:
    """The training runs at several cluster sizes at `version`, by series and size."""
    records = records_at(session, TrainingScalingVersion, version, ScalingRecord, "tokens_per_s")
    return tuple(sorted(records, key=lambda r: (r.series, r.gpus, r.key)))


def throughput_at(session: Session, version: int) -> tuple[ThroughputRecord, ...]:
    """The benchmarks at `version`, by kind, preset, GPU model and key."""
    records = records_at(session, ThroughputVersion, version, ThroughputRecord, "tokens_per_s")
    return tuple(sorted(records, key=lambda r: (r.kind, r.preset, r.gpu, r.key)))


def peaks_at(session: Session, version: int) -> dict[tuple[str, str], PeakRecord]:
    """The dense peaks at `version`, by GPU model name and precision."""
    records = records_at(session, GpuPeakVersion, version, PeakRecord, "dense_tflops")
    return {(p.gpu, p.precision): p for p in sorted(records, key=lambda p: (p.gpu, p.precision))}


def bandwidths_at(session: Session, version: int) -> dict[str, BandwidthRecord]:
    """The memory bandwidths at `version`, by GPU model name."""
    records = records_at(session, GpuBandwidthVersion, version, BandwidthRecord, "tb_per_s")
    return {b.gpu: b for b in sorted(records, key=lambda b: b.gpu)}
