"""Throughput benchmarks and GPU models' dense peaks as JSON, each with where it came from."""

from __future__ import annotations

from dataclasses import asdict

from pydantic import BaseModel, Field

from app.catalog.snapshot import CatalogSnapshot
from app.quoting.estimates import calibrated, left_out, spread
from app.quoting.out.providers import Sourced
from app.quoting.virtualization import measured_tax, tax_pairs


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
    input_tokens: int | None = Field(
        description="tokens of each request (inference); null for training, and for MLPerf's datasets, whose mean "
        "input length is not published (the notes name the dataset)"
    )
    output_tokens: int | None = Field(
        description="tokens of each answer (inference; for an MLPerf dataset, the mean its run produced); null for "
        "training, and where no mean in tokens is published"
    )
    sequence_length: int | None = Field(description="tokens of each training sequence; null for inference")
    ttft_ms: float | None = Field(description="time to first token the run measured or was held to, ms; null offline")
    tbt_ms: float | None = Field(description="time between tokens the run measured or was held to, ms; null offline")
    latency_published: str = Field(description="the latency or request rate in the source's words")
    tokens_per_s: float = Field(
        description="inference: output tokens per second of the whole deployment of `gpus` GPUs; "
        "training: tokens per second per GPU, as reported"
    )
    virtualized: bool = Field(description="run in virtual machines (beside bare-metal runs of the same GPU)")


class PeakOut(Sourced):
    gpu: str = Field(description="the catalog's GPU model")
    precision: str = Field(description="fp32, bf16, fp8, int4 or fp4")
    dense_tflops: float = Field(description="dense peak TFLOPS of one GPU (without sparsity)")


class BandwidthOut(Sourced):
    gpu: str = Field(description="the catalog's GPU model")
    tb_per_s: float = Field(description="memory bandwidth, TB/s")


class CheckOut(BaseModel):
    benchmark: str = Field(description="the key of a benchmark whose conditions are all stated")
    gpu: str
    scenario: str
    calibrated_on: str = Field(description="the group whose other benchmarks the estimate was calibrated on")
    published: float = Field(description="its output tokens/s, as published")
    estimated: float = Field(description="the estimate's, calibrated without it")
    error: float = Field(description="estimated / published - 1")


class TaxPairOut(BaseModel):
    virtualized: str = Field(description="the key of the run in virtual machines")
    bare_metal: str = Field(description="the key of the bare-metal run it is set against")
    tax: float = Field(description="1 - tokens/s per GPU virtualized / on bare metal")


class ThroughputOut(BaseModel):
    catalog_version: int = Field(description="the catalog version these were read at")
    benchmarks: list[BenchmarkOut] = Field(description="by kind, preset, GPU model and key")
    peaks: list[PeakOut] = Field(description="by GPU model and precision")
    bandwidths: list[BandwidthOut] = Field(description="by GPU model")
    estimate_checks: list[CheckOut] = Field(
        description="the estimate of serving throughput checked on every benchmark it can be: each left out of "
        "the calibration in turn (MLPerf's runs state no input length and are not among them)"
    )
    estimate_error_median: float | None = Field(description="the median of |error| over estimate_checks")
    estimate_error_p90: float | None = Field(description="its 90th percentile")
    virtualization_pairs: list[TaxPairOut] = Field(
        description="runs in virtual machines beside the fastest bare-metal run per GPU of the same round, model, "
        "GPU model and scenario: what the virtualized tax's default is measured from"
    )
    virtualization_tax_measured: float | None = Field(description="the median tax of the pairs; null without any")

    @classmethod
    def of(cls, catalog: CatalogSnapshot) -> ThroughputOut:
        checks = left_out(catalog)
        error = spread(checks)
        pairs = tax_pairs(catalog)
        tax = measured_tax(pairs)
        return cls(
            catalog_version=catalog.version,
            benchmarks=[BenchmarkOut(**asdict(t)) for t in catalog.throughput],
            peaks=[PeakOut(**asdict(p)) for p in catalog.peaks.values()],
            bandwidths=[BandwidthOut(**asdict(b)) for b in catalog.bandwidths.values()],
            estimate_checks=[
                CheckOut(
                    benchmark=c.check.key, gpu=c.benchmarked.record.gpu, scenario=c.benchmarked.record.scenario,
                    calibrated_on=calibrated(catalog, c.benchmarked.group).basis, published=c.check.published,
                    estimated=round(c.check.estimated, 3), error=round(c.check.error, 4),
                )
                for c in checks
            ],
            estimate_error_median=round(error.median, 4) if error else None,
            estimate_error_p90=round(error.p90, 4) if error else None,
            virtualization_pairs=[
                TaxPairOut(virtualized=p.virtualized.key, bare_metal=p.bare_metal.key, tax=round(p.tax, 4))
                for p in pairs
            ],
            virtualization_tax_measured=None if tax is None else round(tax, 4),
        )  # fmt: skip
