"""The estimate of a serving job where no benchmark matches it, from the catalog's facts: a GPU model's
memory, bandwidth and dense peak, a model's architecture. Its efficiencies are calibrated on the
shipped benchmarks whose conditions are all stated, apart for each maker's GPUs and for dense models
and mixtures of experts (their software reaches different shares of the roofline), and checked by
leaving each of those benchmarks out in turn. Worked out once per catalog version."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from app.catalog.presets import PresetRecord
from app.catalog.snapshot import CatalogSnapshot
from app.catalog.throughput import ThroughputRecord
from app.catalog.throughput_rows import BenchmarkKind, Scenario
from app.costing.calibration import Check, Observation, calibrate
from app.costing.memory import ModelShape, Precision
from app.costing.roofline import Architecture, Chip, Conditions, Efficiency, Estimate, Refusal, estimate

COMPUTE = {
    Precision.FP4: Precision.FP4,
    Precision.FP8: Precision.FP8,
    Precision.BF16: Precision.BF16,
    Precision.INT4: Precision.BF16,
}
"""The precision the matrix multiplies run in for weights stored in each: INT4 weights are widened to
16 bits to multiply (weight-only quantization); FP32 serving has no tensor peak in the catalog."""
BENCHMARK_KV = {Precision.FP4: Precision.FP8, Precision.FP8: Precision.FP8, Precision.BF16: Precision.BF16}
"""The KV cache's precision a benchmark is estimated with, which sources do not state: FP8 beside FP8 or
FP4 weights (what TensorRT-LLM's quantized checkpoints and AMD's "-FP8-KV" models keep), else 16-bit."""
MIN_GROUP = 5
"""Benchmarks a group needs to be calibrated on its own; with fewer, its maker's, then all of them."""
ADJUSTED_MOST = 2.0
"""The furthest a benchmark is scaled to the job's conditions (x 2 or / 2): beyond, what it says of the
job is more estimate than measurement, and the estimate is said as such."""
NODE_GPUS = 8
"""The most GPUs a tensor-parallel deployment spans: one node's, over NVLink or Infinity Fabric."""


class Family(StrEnum):
    DENSE = "dense"
    EXPERTS = "mixture of experts"


def maker(gpu: str) -> str:
    """AMD's Instinct GPUs are the catalog's MI models; every other GPU model is NVIDIA's."""
    return "AMD" if gpu.startswith("MI") else "NVIDIA"


def architecture(shape: ModelShape, preset: PresetRecord | None) -> Architecture:
    """A model as the estimate sees it: a preset's active parameters and attention heads (each attending
    over the latent where there is one), or for numbers typed in, a dense model whose heads span its
    hidden size."""
    width = preset.attention_heads * (shape.kv_latent or shape.head_dim) if preset else shape.hidden_size
    return Architecture(
        parameters=shape.parameters,
        active_parameters=(preset.active_parameters if preset else None) or shape.parameters,
        layers=shape.layers,
        kv_values=shape.kv_values,
        attention_width=width,
    )


def family(model: Architecture) -> Family:
    return Family.EXPERTS if model.active_parameters < model.parameters else Family.DENSE


def chip(catalog: CatalogSnapshot, gpu: str, weights: Precision) -> Chip | str:
    """The GPU model's figures at the weights' compute precision, or which the catalog lacks."""
    compute = COMPUTE.get(weights)
    peak = catalog.peaks.get((gpu, compute)) if compute else None
    bandwidth = catalog.bandwidths.get(gpu)
    if peak is None or bandwidth is None:
        lacking = "memory bandwidth" if peak is not None else f"dense {(compute or weights).upper()} peak"
        return f"the catalog has no {lacking} of {gpu} to estimate from"
    return Chip(catalog.gpus[gpu], bandwidth.tb_per_s, peak.dense_tflops)


@dataclass(frozen=True)
class Benchmarked:
    """A shipped benchmark the estimate can be checked on: all its conditions stated, its GPU's figures known."""

    record: ThroughputRecord
    observation: Observation
    group: tuple[str, Family]


def _observation(catalog: CatalogSnapshot, r: ThroughputRecord) -> Benchmarked | None:
    preset = catalog.presets.get(r.preset)
    if r.kind != BenchmarkKind.INFERENCE or preset is None or not (r.input_tokens and r.output_tokens):
        return None
    if r.virtualized or (r.scenario == Scenario.LATENCY_BOUND and r.tbt_ms is None):
        return None
    weights = Precision(r.precision)
    found = chip(catalog, r.gpu, weights)
    if isinstance(found, str) or weights not in BENCHMARK_KV:
        return None
    model = architecture(preset.shape, preset)
    latency_bound = r.scenario == Scenario.LATENCY_BOUND
    conditions = Conditions(
        r.gpus, weights, BENCHMARK_KV[weights], r.input_tokens, r.output_tokens,
        r.tbt_ms if latency_bound else None, r.ttft_ms if latency_bound else None,
    )  # fmt: skip
    observation = Observation(r.key, found, model, conditions, r.tokens_per_s)
    return Benchmarked(r, observation, (maker(r.gpu), family(model)))


def benchmarked(catalog: CatalogSnapshot) -> tuple[Benchmarked, ...]:
    """The benchmarks the estimate is calibrated and checked on, in the catalog's order."""

    def make() -> tuple[Benchmarked, ...]:
        found = (_observation(catalog, r) for r in catalog.throughput)
        return tuple(b for b in found if b is not None)

    return catalog.derived.memo("benchmarked", make)


def _members(rows: Sequence[Benchmarked], group: tuple[str, Family]) -> tuple[str, list[Benchmarked]]:
    """The benchmarks a group is calibrated on, and in words which: its own, else its maker's, else all."""
    own = [b for b in rows if b.group == group]
    if len(own) >= MIN_GROUP:
        return f"{group[0]} GPUs serving {group[1]} models", own
    by_maker = [b for b in rows if b.group[0] == group[0]]
    if len(by_maker) >= MIN_GROUP:
        return f"{group[0]} GPUs", by_maker
    return "all GPUs", list(rows)


@dataclass(frozen=True)
class Calibrated:
    """The efficiencies a group's estimates use, and the benchmarks they rest on."""

    efficiency: Efficiency
    basis: str
    """Which benchmarks, in words: "NVIDIA GPUs serving dense models"."""
    benchmarks: int


def calibrated(catalog: CatalogSnapshot, group: tuple[str, Family]) -> Calibrated:
    def make() -> Calibrated:
        basis, members = _members(benchmarked(catalog), group)
        return Calibrated(calibrate([b.observation for b in members]), basis, len(members))

    return catalog.derived.memo(("calibrated", group), make)


@dataclass(frozen=True)
class Checked:
    """A benchmark estimated from a calibration without it."""

    benchmarked: Benchmarked
    check: Check


def left_out(catalog: CatalogSnapshot) -> tuple[Checked, ...]:
    """Each benchmark the estimate can serve, estimated from the others of its calibration's group."""

    def make() -> tuple[Checked, ...]:
        rows = benchmarked(catalog)
        checked = []
        for b in rows:
            _, members = _members([r for r in rows if r is not b], b.group)
            eff = calibrate([m.observation for m in members])
            o = b.observation
            found = estimate(o.chip, o.model, o.conditions, eff)
            if isinstance(found, Estimate):
                checked.append(Checked(b, Check(o.key, o.tokens_per_s, found.tokens_per_s)))
        return tuple(checked)

    return catalog.derived.memo("left out", make)


def checked_already(catalog: CatalogSnapshot) -> bool:
    """Whether the version's estimates were checked against its benchmarks, each left out in turn: what
    a version's first serving estimate costs (0.8 s on the shipped catalog), and later ones reuse."""
    return catalog.derived.holds("left out")


@dataclass(frozen=True)
class Spread:
    """How far the estimate is from the benchmarks it was checked on: |estimate / published - 1|."""

    benchmarks: int
    median: float
    p90: float


def spread(checks: Sequence[Checked]) -> Spread | None:
    return _spread_of([c.check for c in checks])


def _spread_of(checks: Sequence[Check]) -> Spread | None:
    errors = sorted(abs(c.error) for c in checks)
    if not errors:
        return None
    return Spread(len(errors), statistics.median(errors), errors[round(0.9 * (len(errors) - 1))])


@dataclass(frozen=True)
class Beside:
    """Runs of the model on the GPU model at the precision under one scenario whose conditions are not all
    published (MLPerf's datasets state no mean input length): never used by the estimate, shown beside it."""

    scenario: str
    runs: int
    low: float
    high: float
    """Output tokens per second per GPU, the lowest and the highest of the runs."""


def beside(catalog: CatalogSnapshot, preset: str, gpu: str, precision: str) -> tuple[Beside, ...]:
    """Worked out once per version for a model, GPU model and precision: each move of the tokens slider
    estimates every GPU model again."""

    def make() -> tuple[Beside, ...]:
        found: dict[str, list[float]] = {}
        for r in catalog.throughput:
            if (r.kind, r.preset, r.gpu, r.precision) == (BenchmarkKind.INFERENCE, preset, gpu, precision):
                if r.input_tokens is None and not r.virtualized:
                    found.setdefault(r.scenario, []).append(r.tokens_per_s / r.gpus)
        ordered = sorted(found.items(), key=lambda item: item[0] != Scenario.OFFLINE)
        return tuple(Beside(scenario, len(v), min(v), max(v)) for scenario, v in ordered)

    return catalog.derived.memo(("beside", preset, gpu, precision), make)


@dataclass(frozen=True)
class Estimated:
    """A serving job's throughput on a GPU model from the estimate, and what it rests on."""

    tokens_per_s: float
    """Output tokens per second of one replica of `gpus`."""
    gpus: int
    group: tuple[str, Family]
    estimate: Estimate
    chip: Chip
    precision: Precision
    """The precision the matrix multiplies run in: the dense peak's."""
    calibrated: Calibrated
    error: Spread | None
    """The estimate's error over the benchmarks of its calibration's group, each left out in turn."""
    beside: tuple[Beside, ...] = ()
    """Runs of the model on the GPU model whose input lengths are not published, set beside the estimate."""


def group_checks(catalog: CatalogSnapshot, group: tuple[str, Family]) -> tuple[Checked, ...]:
    """The checks of the benchmarks a group's calibration rests on, each left out of it in turn."""

    def make() -> tuple[Checked, ...]:
        _, members = _members(benchmarked(catalog), group)
        keys = {b.record.key for b in members}
        return tuple(c for c in left_out(catalog) if c.benchmarked.record.key in keys)

    return catalog.derived.memo(("group checks", group), make)


def error_of(catalog: CatalogSnapshot, group: tuple[str, Family]) -> Spread | None:
    """The estimate's error over the benchmarks a group's calibration rests on."""
    return catalog.derived.memo(("error", group), lambda: spread(group_checks(catalog, group)))


def serving_estimate(
    catalog: CatalogSnapshot,
    gpu: str,
    model: Architecture,
    c: Conditions,
    largest_unit: int,
    gpu_hours: Callable[[float, int], float],
) -> Estimated | Refusal:
    """Of deployments of `c.gpus` GPUs or more (doubling, up to a node or the largest unit offered), the
    one whose replicas take the fewest GPU-hours for the job (`gpu_hours` of a replica's tokens/s and
    GPUs): a small service is cheapest on the fewest GPUs that hold it, a large volume on the most output
    per GPU."""
    found = chip(catalog, gpu, c.weights)
    if isinstance(found, str):
        return Refusal("weights", found)
    group = (maker(gpu), family(model))
    cal = calibrated(catalog, group)
    tried = []
    gpus, most = c.gpus, max(c.gpus, min(NODE_GPUS, largest_unit))
    while gpus <= most:
        tried.append((gpus, estimate(found, model, replace(c, gpus=gpus), cal.efficiency)))
        gpus *= 2
    served = [(g, e) for g, e in tried if isinstance(e, Estimate)]
    if not served:
        return next(e for _, e in tried if isinstance(e, Refusal))
    best_gpus, best = min(served, key=lambda s: (gpu_hours(s[1].tokens_per_s, s[0]), s[0]))
    return Estimated(
        best.tokens_per_s, best_gpus, group, best, found, COMPUTE[c.weights], cal, error_of(catalog, group)
    )


@dataclass(frozen=True)
class Adjusted:
    """A benchmark of the model on the GPU model at other lengths or another latency class, scaled to the
    job's conditions by the estimate: published x estimate(job's) / estimate(benchmark's), both on the
    benchmark's deployment."""

    benchmark: ThroughputRecord
    factor: float
    error: Spread | None
    """How far such adjustments land from published figures: each shipped benchmark adjusted from its
    nearest sibling (same model, GPU model and precision)."""

    @property
    def tokens_per_s(self) -> float:
        return self.benchmark.tokens_per_s * self.factor


def _distance(b: Benchmarked, c: Conditions) -> tuple[bool, float]:
    """Another latency class first apart, then how far the lengths are, in ratios."""
    o = b.observation.conditions
    lengths = abs(math.log(o.input_tokens / c.input_tokens)) + abs(math.log(o.output_tokens / c.output_tokens))
    return (o.max_tbt_ms is None) != (c.max_tbt_ms is None), lengths


def _scaled(catalog: CatalogSnapshot, b: Benchmarked, model: Architecture, c: Conditions) -> float | None:
    """estimate(job's conditions) / estimate(the benchmark's), on the benchmark's deployment."""
    eff = calibrated(catalog, b.group).efficiency
    o = b.observation
    at_job = estimate(o.chip, model, replace(c, gpus=o.conditions.gpus), eff)
    at_benchmark = estimate(o.chip, o.model, o.conditions, eff)
    if isinstance(at_job, Estimate) and isinstance(at_benchmark, Estimate):
        return at_job.tokens_per_s / at_benchmark.tokens_per_s
    return None


def adjusted(
    catalog: CatalogSnapshot, preset: str, gpu: str, model: Architecture, c: Conditions, units: tuple[int, int]
) -> Adjusted | None:
    """The nearest benchmark of the preset on the GPU model at the weights' precision whose deployment
    holds the model and fits an offered unit (`units`: the least and most GPUs), adjusted to `c`."""
    least, most = units
    near = [
        b for b in benchmarked(catalog)
        if b.record.preset == preset and b.record.gpu == gpu and b.record.precision == c.weights
        and least <= b.record.gpus <= most
    ]  # fmt: skip
    if not near:
        return None
    nearest = min(near, key=lambda b: (_distance(b, c), b.record.key))
    factor = _scaled(catalog, nearest, model, c)
    if factor is None or not 1 / ADJUSTED_MOST <= factor <= ADJUSTED_MOST:
        return None
    return Adjusted(nearest.record, factor, adjustment_error(catalog))


def _deployment(r: ThroughputRecord) -> tuple[str, str, str, int]:
    return r.preset, r.gpu, r.precision, r.gpus


def adjustment_error(catalog: CatalogSnapshot) -> Spread | None:
    """Each shipped benchmark predicted as a job at its conditions would be: from its nearest sibling at
    other conditions (same model, GPU model, precision and deployment), adjusted by the estimate within
    the reach allowed."""

    def make() -> Spread | None:
        rows = benchmarked(catalog)
        errors = []
        for b in rows:
            r, c = b.record, b.observation.conditions
            siblings = [s for s in rows if _deployment(s.record) == _deployment(r) and _distance(s, c) != (False, 0.0)]
            if not siblings:
                continue
            s = min(siblings, key=lambda s: (_distance(s, c), s.record.key))
            factor = _scaled(catalog, s, b.observation.model, c)
            if factor is not None and 1 / ADJUSTED_MOST <= factor <= ADJUSTED_MOST:
                errors.append(Check(r.key, r.tokens_per_s, s.record.tokens_per_s * factor))
        return _spread_of(errors)

    return catalog.derived.memo("adjustment error", make)
