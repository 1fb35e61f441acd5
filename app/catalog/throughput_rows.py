"""What a throughput benchmark and a GPU's peak state, and their checks, in one place: the shipped
update and the admin's forms read them here (the checks every catalog field shares are rows.py's)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from app.catalog.rows import count, gpu_name, number, one_of, preset_key, text
from app.costing.memory import Precision


class BenchmarkKind(StrEnum):
    INFERENCE = "inference"
    TRAINING = "training"


class Scenario(StrEnum):
    """What a benchmark ran under: as fast as it could go (offline), held to a latency, as a service
    answering users is (latency_bound), or pre-training a model."""

    OFFLINE = "offline"
    LATENCY_BOUND = "latency_bound"
    PRETRAINING = "pretraining"


SCENARIOS = {
    BenchmarkKind.INFERENCE: (Scenario.OFFLINE, Scenario.LATENCY_BOUND),
    BenchmarkKind.TRAINING: (Scenario.PRETRAINING,),
}
"""The scenarios each kind of benchmark runs under."""
CONDITIONS = {
    "input_tokens": ("kind", BenchmarkKind.INFERENCE),
    "output_tokens": ("kind", BenchmarkKind.INFERENCE),
    "sequence_length": ("kind", BenchmarkKind.TRAINING),
    "ttft_ms": ("scenario", Scenario.LATENCY_BOUND),
    "tbt_ms": ("scenario", Scenario.LATENCY_BOUND),
}
"""Each condition a benchmark may state, stated exactly when its kind or scenario is the one named:
lengths of requests for inference, of sequences for training, latencies where one was held to."""
UNSTATED = {"input_tokens", "output_tokens"}
"""Conditions a source may leave unstated though its kind has them: MLPerf runs datasets of requests of
varying length and publishes no mean input length (nor, for some, output length)."""

THROUGHPUT_KEY = re.compile(r"[a-z0-9][a-z0-9._/-]{0,119}")


def throughput_key(value: str) -> str:
    """A benchmark's id across versions, e.g. llama-3.1-70b/h200x1/fp8/trt-llm-1.0/offline/1000-1000."""
    if not THROUGHPUT_KEY.fullmatch(value):
        raise ValueError("lower-case letters, digits, dots, dashes, underscores and slashes, 120 at most")
    return value


def _amount(typed: str, most: int, example: str) -> Decimal:
    """Above 0, at most `most`, 3 decimal places at most (what the database keeps as typed)."""
    try:
        amount = number(typed)
    except InvalidOperation:
        raise ValueError(f"must be a number, e.g. {example}") from None
    if not 0 < amount <= most or amount != amount.quantize(Decimal("0.001"), rounding="ROUND_DOWN"):
        raise ValueError(f"must be above 0, at most {most:,}, with 3 decimal places at most")
    return amount


def tokens_per_s(text: str) -> Decimal:
    """Tokens per second: a whole 8-GPU node serves tens of thousands; nothing serves a billion."""
    return _amount(text, 1_000_000_000, "2909")


def dense_tflops(text: str) -> Decimal:
    """Dense TFLOPS of one GPU: today's largest are a few thousand."""
    return _amount(text, 1_000_000, "989.4")


def bandwidth_tb_s(text: str) -> Decimal:
    """TB/s of one GPU's memory: today's fastest are about 8."""
    return _amount(text, 1_000, "3.35")


def latency_ms(text: str) -> float | None:
    """Milliseconds (time to first token, time between tokens), or None where none is stated."""
    return float(_amount(text, 1_000_000, "11")) if text else None


def _length(typed: str) -> int | None:
    """Tokens of a request, an answer or a training sequence, or None where the benchmark has none."""
    return count(typed, 1, 10_000_000) if typed else None


BENCHMARK_CHECKS: dict[str, Callable[[str], object]] = {
    "kind": lambda v: one_of(v, BenchmarkKind),
    "model": lambda v: text(v, 100),
    "preset": preset_key,
    "gpu": gpu_name,
    "gpus": lambda v: count(v, 1, 100_000),
    "precision": lambda v: one_of(v, Precision),
    "precision_published": lambda v: text(v, 60),
    "engine": lambda v: text(v, 120),
    "scenario": lambda v: one_of(v, Scenario),
    "input_tokens": _length,
    "output_tokens": _length,
    "sequence_length": _length,
    "ttft_ms": latency_ms,
    "tbt_ms": latency_ms,
    "latency_published": lambda v: text(v, 200, required=False),
    "tokens_per_s": tokens_per_s,
}
"""How each field of a benchmark, typed as text, is checked (the model's parameters aside: a file
states them whole, the admin in billions); preset and GPU are checked against the catalog too."""
BANDWIDTH_CHECKS: dict[str, Callable[[str], object]] = {"gpu": gpu_name, "tb_per_s": bandwidth_tb_s}
SCALING_CHECKS: dict[str, Callable[[str], object]] = {
    "key": lambda v: text(v, 200),
    "model": lambda v: text(v, 100),
    "gpu": gpu_name,
    "system": lambda v: text(v, 200),
    "series": lambda v: text(v, 100),
    "gpus": lambda v: count(v, 1, 1_000_000),
    "global_batch": lambda v: count(v, 1, 100_000_000),
    "sequence_length": lambda v: count(v, 1, 10_000_000),
    "tokens_per_s": tokens_per_s,
}
"""How each field of a training run at its cluster size is checked."""
PEAK_CHECKS: dict[str, Callable[[str], object]] = {
    "gpu": gpu_name,
    "precision": lambda v: one_of(v, Precision),
    "dense_tflops": dense_tflops,
}


def conditions_refused(benchmark: Mapping[str, object]) -> dict[str, str]:
    """Why each field of a benchmark does not fit its kind and scenario, by field: a scenario of
    another kind, a condition missing that it states, or stated where it has none."""
    kind = BenchmarkKind(str(benchmark["kind"]))
    refused = {}
    if benchmark["scenario"] not in SCENARIOS[kind]:
        refused["scenario"] = f"{kind} benchmarks run {' or '.join(SCENARIOS[kind])}"
    for field, (by, stating) in CONDITIONS.items():
        if (benchmark[field] is not None) != (benchmark[by] == stating):
            missing = benchmark[field] is None
            if missing and field in UNSTATED:
                continue
            refused[field] = f"needed when {by} is {stating}" if missing else f"leave it empty unless {by} is {stating}"
    return refused
