"""Throughput benchmarks and GPUs' dense peaks as a catalog version holds them: what turns a job
into GPU-hours, each with its source, so that a quote can name the benchmark it rests on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlmodel import Session, select

from app.catalog.tables import GpuModel, valid_at
from app.catalog.throughput_tables import GpuPeakVersion, ThroughputVersion


@dataclass(frozen=True)
class ThroughputRecord:
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
    source: str
    as_of: date | None
    source_kind: str
    quote: str
    notes: str


@dataclass(frozen=True)
class PeakRecord:
    """A GPU model's dense peak at one precision."""

    gpu: str
    precision: str
    dense_tflops: float
    source: str
    as_of: date | None
    source_kind: str
    quote: str
    notes: str


BESIDE_THE_RECORD = {"id", "gpu_model_id", "valid_from", "valid_to"}
"""What a row holds that its record does not: the record names its GPU model instead."""


def _gpu_names(session: Session) -> dict[int | None, str]:
    return {g.id: g.name for g in session.exec(select(GpuModel))}


def throughput_at(session: Session, version: int) -> tuple[ThroughputRecord, ...]:
    """The benchmarks at `version`, by kind, preset, GPU model and key."""
    gpus = _gpu_names(session)
    rows = session.exec(select(ThroughputVersion).where(valid_at(ThroughputVersion, version)))
    records = (
        ThroughputRecord(
            **t.model_dump(exclude=BESIDE_THE_RECORD) | {"tokens_per_s": float(t.tokens_per_s)},
            gpu=gpus[t.gpu_model_id],
        )
        for t in rows
    )
    return tuple(sorted(records, key=lambda r: (r.kind, r.preset, r.gpu, r.key)))


def peaks_at(session: Session, version: int) -> dict[tuple[str, str], PeakRecord]:
    """The dense peaks at `version`, by GPU model name and precision."""
    gpus = _gpu_names(session)
    rows = session.exec(select(GpuPeakVersion).where(valid_at(GpuPeakVersion, version)))
    records = (
        PeakRecord(
            **p.model_dump(exclude=BESIDE_THE_RECORD) | {"dense_tflops": float(p.dense_tflops)},
            gpu=gpus[p.gpu_model_id],
        )
        for p in rows
    )
    return {(p.gpu, p.precision): p for p in sorted(records, key=lambda p: (p.gpu, p.precision))}
