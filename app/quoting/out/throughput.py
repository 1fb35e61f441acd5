"""Throughput benchmarks and GPU models' dense peaks as JSON, each with where it came from."""

from __future__ import annotations

from dataclasses import asdict

from pydantic import BaseModel, Field

from app.catalog.snapshot import CatalogSnapshot
from app.quoting.out.providers import Sourced


class BenchmarkOut(Sourced):
    key: str = Field(description="names the benchmark across catalog versions")
    kind: str = Field(description="inference or training")
    model: str = Field(description="the model benchmarked, as the source names it")
    preset: str = Field(description="the catalog's model preset it is matched to (`preset` of /api/size)")
    parameters: int = Field(description="parameters of the model benchmarked")
    gpu: str = Field(description="the catalog's GPU model")
    gpus: int = Field(description="GPUs of one deployment (inference) or of the benchmark run (training)")
    precision: str = Field(description="fp32, bf16, fp8, int4 or fp4")
    precision_published: str = Field(description="the precision as the source prints it")
    engine: str = Field(description="engine or benchmark and its version, as published")
    scenario: str = Field(description="offline or latency_bound (inference), pretraining (training)")
    input_tokens: int | None = Field(description="tokens of each request (inference); null for training")
    output_tokens: int | None = Field(description="tokens of each answer (inference); null for training")
    sequence_length: int | None = Field(description="tokens of each training sequence; null for inference")
    ttft_ms: float | None = Field(description="time to first token the run measured or was held to, ms; null offline")
    tbt_ms: float | None = Field(description="time between tokens the run measured or was held to, ms; null offline")
    latency_published: str = Field(description="the latency or request rate in the source's words")
    tokens_per_s: float = Field(
        description="inference: output tokens per second of the whole deployment of `gpus` GPUs; "
        "training: tokens per second per GPU, as reported"
    )


class PeakOut(Sourced):
    gpu: str = Field(description="the catalog's GPU model")
    precision: str = Field(description="fp32, bf16, fp8, int4 or fp4")
    dense_tflops: float = Field(description="dense peak TFLOPS of one GPU (without sparsity)")


class ThroughputOut(BaseModel):
    catalog_version: int = Field(description="the catalog version these were read at")
    benchmarks: list[BenchmarkOut] = Field(description="by kind, preset, GPU model and key")
    peaks: list[PeakOut] = Field(description="by GPU model and precision")

    @classmethod
    def of(cls, catalog: CatalogSnapshot) -> ThroughputOut:
        return cls(
            catalog_version=catalog.version,
            benchmarks=[BenchmarkOut(**asdict(t)) for t in catalog.throughput],
            peaks=[PeakOut(**asdict(p)) for p in catalog.peaks.values()],
        )
