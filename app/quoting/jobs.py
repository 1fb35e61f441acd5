"""A job on one GPU model: what it rests on (the buyer's throughput, a benchmark, the estimate from the
physics or a dense peak) and the GPU-hours, GPUs at once and months it takes, or, where the catalog
has no number for the pair, why; never a guess scaled by hand."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import cast

from annotated_types import Le

from app.catalog.offer_records import OfferRecord
from app.catalog.selection import CLUSTER_LARGER, CLUSTER_SMALLER, NOT_RDMA, across_nodes_refused, spans_nodes
from app.catalog.snapshot import CatalogSnapshot
from app.catalog.throughput import PeakRecord, ScalingRecord, ThroughputRecord
from app.catalog.throughput_rows import BenchmarkKind, Scenario
from app.costing.jobs import (
    DAYS_A_MONTH,
    SECONDS_PER_HOUR,
    RunPlan,
    ServingJob,
    ServingPlan,
    daily_plan,
    gpu_hours_at_peak,
    gpu_hours_at_rate,
    run_plan,
    serving_plan,
    training_flops,
)
from app.costing.memory import Fit, Mode
from app.costing.roofline import Conditions, Refusal
from app.costing.scaling import pairs, scaling_of, share_kept
from app.costing.terms import HOURS_PER_MONTH
from app.quoting.estimates import Adjusted, Estimated, adjusted, architecture, beside, serving_estimate
from app.quoting.params.demand import read_daily
from app.quoting.params.job import Job, Latency
from app.quoting.params.quote import QuoteParams, SizeParams
from app.quoting.params.split import SPLIT_GPUS_MAX
from app.quoting.sizing import Sizing


def _most(name: str) -> int:
    """A field's upper limit, as QuoteParams declares it."""
    return cast(int, next(limit.le for limit in QuoteParams.model_fields[name].metadata if isinstance(limit, Le)))


GPUS_AT_ONCE_MAX = _most("peak_gpus")
"""The most GPUs at once a quote takes: the GPUs-at-once field's own limit."""
RUN_MONTHS_MAX = _most("months")
"""The longest run a quote prices: the horizon field's own limit."""
FURTHEST_FIRST = (
    "output_tokens_m", "train_tokens_b", "context", "max_tbt_ms", "max_ttft_ms", "latency", "input_length", "weights",
    "compute", "run_gpus", "gpu",
)  # fmt: skip
"""Where a job found no number on any GPU model, the input to change: the one whose check the
matching got furthest to (app/quoting/jobs.py checks the model, then the precision, the lengths, the
latency, the replica, the volume; a run's GPUs, then its peak, then its length)."""


class Basis(StrEnum):
    BENCHMARK = "benchmark"
    ESTIMATE = "estimate"
    MEASURED = "measured"


@dataclass(frozen=True)
class Loss:
    """The share of a run's rate per GPU kept each time its GPUs double, from published runs."""

    kept: float
    runs: tuple[ScalingRecord, ...]
    """The published runs at several cluster sizes."""

    @property
    def paired(self) -> tuple[ScalingRecord, ...]:
        """The runs set against another of their series: what `kept` rests on."""
        used = {point for pair in pairs(r.point for r in self.runs) for point in pair}
        return tuple(r for r in self.runs if r.point in used)


def loss_of(catalog: CatalogSnapshot) -> Loss | None:
    kept = scaling_of(r.point for r in catalog.scaling)
    return None if kept is None else Loss(kept, catalog.scaling)


@dataclass(frozen=True)
class AcrossNodes:
    """A run, or a serving replica, on whole nodes of offers that span nodes. A run's rate per GPU is one
    node's (or a training benchmark's, at its size), times the share a run of its size keeps; a replica's
    is the buyer's measured one, as no published benchmark splits a replica across nodes."""

    node_gpus: int
    """The GPUs the share is counted from: the largest node the run fills whole, or the benchmark's."""
    share: float
    loss: Loss | None
    """None for a serving replica: no loss is published, so none is applied to the buyer's throughput."""


@dataclass(frozen=True)
class JobFit:
    """What one GPU model takes for the job, and what that rests on."""

    gpu: str
    gpu_hours: float
    """A month's, as the cost model prices them (a run's spread over the months it lasts)."""
    gpus_at_once: int
    unit_gpus: int
    """GPUs that must share one instance or node: a replica served tensor-parallel, or the whole run."""
    months: int | None
    """A run's: the months it is billed over (its horizon); None for serving (the form's horizon)."""
    serving: ServingPlan | None = None
    run: RunPlan | None = None
    benchmark: ThroughputRecord | None = None
    peak: PeakRecord | None = None
    measured_tps: float | None = None
    """The buyer's own throughput, which takes precedence over any benchmark."""
    utilisation: float | None = None
    """A run at the dense peak: the share of it assumed."""
    alike: int = 0
    """Serving on a benchmark at the job's conditions: how many were published there (the fastest is used)."""
    adjusted: Adjusted | None = None
    """Serving at other conditions than any benchmark's: the nearest, scaled by the estimate."""
    estimated: Estimated | None = None
    """Serving where no benchmark of the model on the GPU model holds it: the estimate from its figures."""
    across: AcrossNodes | None = None
    """A run too large for one instance or node, on whole nodes of offers that span nodes."""
    benchmark_scale: float = 1.0
    """A run on a training benchmark of another size: the share of its rate per GPU the run's size keeps,
    kept ^ log2(run's GPUs / benchmark's), above 1 for a smaller run."""
    loss: Loss | None = None
    """Where a run's rate per GPU was carried to its size (across nodes, or from a benchmark's): the loss used."""

    @property
    def basis(self) -> Basis:
        """What the figures rest on: the buyer's throughput, a published benchmark, or an estimate (from the
        physics, or for a run, the dense peak at an assumed utilisation)."""
        if self.measured_tps is not None:
            return Basis.MEASURED
        return Basis.BENCHMARK if self.benchmark is not None else Basis.ESTIMATE

    @property
    def tokens_per_s(self) -> float | None:
        """The throughput the figures rest on, as the page and the API state it: the buyer's own where
        given, else the estimate's, the adjusted benchmark's or the benchmark's (a replica's output tokens/s
        serving, a GPU's tokens/s training)."""
        if self.measured_tps is not None:
            return self.measured_tps
        if self.estimated is not None:
            return self.estimated.tokens_per_s
        if self.adjusted is not None:
            return self.adjusted.tokens_per_s
        return self.benchmark.tokens_per_s * self.benchmark_scale if self.benchmark else None


@dataclass(frozen=True)
class NoNumber:
    """A GPU model the catalog cannot price the job on, the input that decides it, and why."""

    gpu: str
    field: str
    reason: str


def model_name(sizing: Sizing) -> str:
    return sizing.preset.name if sizing.preset else f"a {sizing.run.shape.parameters / 1e9:g}B-parameter model"


def _same_model(row: ThroughputRecord, sizing: Sizing) -> bool:
    """A benchmark of the preset; for a model typed in, of a model no preset names with that parameter
    count (a preset's benchmark ran its architecture, which typed numbers may not share)."""
    if sizing.preset is not None:
        return row.preset == sizing.preset.key
    return not row.preset and row.parameters == round(sizing.run.shape.parameters)


def served_benchmarks(catalog: CatalogSnapshot, sizing: Sizing) -> list[ThroughputRecord]:
    """The serving benchmarks of the sized model, on every GPU model: the conditions a quote can rest on."""
    return [r for r in catalog.throughput if r.kind == BenchmarkKind.INFERENCE and _same_model(r, sizing)]


def _lengths(rows: list[ThroughputRecord]) -> str:
    return ", ".join(sorted({f"{r.input_tokens}/{r.output_tokens}" for r in rows}))


def _within(row: ThroughputRecord, p: SizeParams) -> bool:
    if p.latency is Latency.OFFLINE:
        return row.scenario == Scenario.OFFLINE
    return (
        row.scenario == Scenario.LATENCY_BOUND
        and row.ttft_ms is not None
        and row.tbt_ms is not None
        and row.ttft_ms <= p.max_ttft_ms
        and row.tbt_ms <= p.max_tbt_ms
    )


@dataclass(frozen=True)
class Matched:
    """The benchmark a job rests on, and how many published at its conditions it was chosen from."""

    benchmark: ThroughputRecord
    alike: int
    """Benchmarks at the job's conditions whose deployment holds the model and fits an offered unit: the
    fastest per GPU is used (the best published, as MLPerf's results are, not their median)."""


def serving_benchmark(catalog: CatalogSnapshot, p: SizeParams, sizing: Sizing, fit: Fit) -> Matched | NoNumber:
    """The benchmark of this model on this GPU at the job's precision, lengths and latency class whose
    deployment holds the model as sized and fits an offered unit, with the most output tokens per GPU."""
    model, gpu = model_name(sizing), fit.gpu
    rows = [r for r in served_benchmarks(catalog, sizing) if r.gpu == gpu]
    if not rows:
        return NoNumber(gpu, "gpu", f"no benchmark of {model} on {gpu}")
    at_precision = [r for r in rows if r.precision == p.weights]
    if not at_precision:
        published = ", ".join(sorted({r.precision.upper() for r in rows}))
        return NoNumber(gpu, "weights", f"no benchmark of {model} on {gpu} in {p.weights.upper()} (only {published})")
    at_lengths = [r for r in at_precision if (r.input_tokens, r.output_tokens) == (p.input_length, p.output_length)]
    if not at_lengths:
        return NoNumber(
            gpu, "input_length",
            f"no benchmark of {model} on {gpu} at {p.input_length}/{p.output_length} tokens in and out "
            f"(only {_lengths(at_precision)})",
        )  # fmt: skip
    return _holding_within(at_lengths, p, model, fit)


def _holding_within(at_lengths: list[ThroughputRecord], p: SizeParams, model: str, fit: Fit) -> Matched | NoNumber:
    """Of the benchmarks at the job's lengths, the one within its latency class whose deployment holds
    the model as sized with the most output tokens per GPU; else which of the two none meets."""
    gpu = fit.gpu
    within = [r for r in at_lengths if _within(r, p)]
    if not within:
        return NoNumber(gpu, "latency", f"no benchmark of {model} on {gpu} {_latency_bound(p)} at these lengths")
    holding = [r for r in within if fit.quoted <= r.gpus <= (fit.largest_unit or r.gpus)]
    if not holding:
        return NoNumber(
            gpu, "context",
            f"the benchmarks of {model} on {gpu} ran on {max(r.gpus for r in within)} GPUs; "
            f"the model as sized needs {fit.quoted}",
        )  # fmt: skip
    return Matched(max(holding, key=lambda r: (r.tokens_per_s / r.gpus, r.key)), len(holding))


def _latency_bound(p: SizeParams) -> str:
    """The job's latency class as a benchmark must meet it, in words."""
    if p.latency is Latency.OFFLINE:
        return "at maximum throughput"
    return f"within {p.max_ttft_ms:g} ms to the first token and {p.max_tbt_ms:g} ms between tokens"


@dataclass(frozen=True)
class Rate:
    """A replica's throughput for the job and what it rests on: the buyer's own, a benchmark or the estimate."""

    tokens_per_s: float
    replica: int
    benchmark: ThroughputRecord | None = None
    alike: int = 0
    adjusted: Adjusted | None = None
    estimated: Estimated | None = None


def _conditions(p: SizeParams, gpus: int) -> Conditions:
    interactive = p.latency is Latency.INTERACTIVE
    return Conditions(
        gpus, p.weights, p.kv_cache, p.input_length, p.output_length,
        p.max_tbt_ms if interactive else None, p.max_ttft_ms if interactive else None,
    )  # fmt: skip


def _gpu_hours(p: SizeParams) -> Callable[[float, int], float]:
    """A month's GPU-hours of the job on replicas of a throughput and a size (a split's as if up all month)."""

    def gpu_hours(tokens_per_s: float, gpus: int) -> float:
        return serving_plan(ServingJob(p.output_tokens, tokens_per_s, gpus, p.hours_up)).gpu_hours

    return gpu_hours


def serving_rate(catalog: CatalogSnapshot, p: SizeParams, sizing: Sizing, fit: Fit) -> Rate | NoNumber:
    """The buyer's measured throughput; else the benchmark of these conditions; else the nearest benchmark
    of the model on the GPU model adjusted to them by the estimate; else the estimate."""
    if p.measured_tps is not None:
        return Rate(p.measured_tps, fit.quoted)
    found = serving_benchmark(catalog, p, sizing, fit)
    if isinstance(found, Matched):
        return Rate(found.benchmark.tokens_per_s, found.benchmark.gpus, benchmark=found.benchmark, alike=found.alike)
    model, conditions, preset = architecture(sizing.run.shape, sizing.preset), _conditions(p, fit.quoted), sizing.preset
    most = fit.largest_unit or fit.quoted
    near = adjusted(catalog, preset.key, fit.gpu, model, conditions, (fit.quoted, most)) if preset else None
    if near is not None:
        return Rate(near.tokens_per_s, near.benchmark.gpus, benchmark=near.benchmark, adjusted=near)
    estimated = serving_estimate(catalog, fit.gpu, model, conditions, most, _gpu_hours(p))
    if isinstance(estimated, Refusal):
        return NoNumber(fit.gpu, estimated.field, f"{found.reason}, and {estimated.reason}")
    if preset is not None:
        estimated = replace(estimated, beside=beside(catalog, preset.key, fit.gpu, p.weights))
    return Rate(estimated.tokens_per_s, estimated.gpus, estimated=estimated)


def _serving(catalog: CatalogSnapshot, p: SizeParams, sizing: Sizing, fit: Fit) -> JobFit | NoNumber:
    across = _replica_across(catalog, p, fit)
    if across is not None and p.job is Job.SPLIT:
        return NoNumber(fit.gpu, "gpu", f"a replica of {fit.quoted} x {fit.gpu} spans nodes, and the split packs only "
                        "replicas that one instance or node holds")  # fmt: skip
    if isinstance(across, NoNumber):
        return across
    found = serving_rate(catalog, p, sizing, fit)
    if isinstance(found, NoNumber):
        return found
    rate, replica = found.tokens_per_s, found.replica
    if across is None and (fit.largest_unit is None or fit.largest_unit < replica):
        return NoNumber(fit.gpu, "gpu", f"no offered instance or node holds a replica of {replica} x {fit.gpu}")
    job = ServingJob(p.output_tokens, rate, replica, p.hours_up)
    if p.job is Job.SPLIT:
        day = cast(tuple[float, ...], read_daily(p.daily))
        busiest = p.output_tokens / (rate * SECONDS_PER_HOUR) / DAYS_A_MONTH * max(day) / sum(day) * replica
        plan = daily_plan(job, day) if busiest <= SPLIT_GPUS_MAX else None  # no plan of an unbounded day
        if plan is None or plan.gpus_at_once > SPLIT_GPUS_MAX:
            return NoNumber(fit.gpu, "output_tokens_m", f"need more than {SPLIT_GPUS_MAX:,} x {fit.gpu} at the "
                            "busiest hour, the most the split prices")  # fmt: skip
    elif p.output_tokens / (rate * SECONDS_PER_HOUR) / (p.hours_up or HOURS_PER_MONTH) * replica > GPUS_AT_ONCE_MAX:
        return NoNumber(fit.gpu, "output_tokens_m", f"need more than {GPUS_AT_ONCE_MAX:,} x {fit.gpu} at once")
    else:
        plan = serving_plan(job)
    return JobFit(
        fit.gpu, plan.gpu_hours, plan.gpus_at_once, replica, None, serving=plan, benchmark=found.benchmark,
        measured_tps=p.measured_tps, alike=found.alike, adjusted=found.adjusted, estimated=found.estimated,
        across=across,
    )  # fmt: skip


def _replica_across(catalog: CatalogSnapshot, p: SizeParams, fit: Fit) -> AcrossNodes | NoNumber | None:
    """How a replica of the model no offered instance or node holds spans whole nodes of offers whose fabric
    between nodes a source states, at the buyer's measured throughput, or that it needs one; None where one
    instance or node holds it, or no nodes may (the rate found then says why not)."""
    replica, gpu = fit.quoted, fit.gpu
    if fit.largest_unit is None or fit.largest_unit >= replica:
        return None
    node = _whole_nodes(catalog, gpu, replica, fit.largest_unit)
    if isinstance(node, str):
        return None
    if p.measured_tps is None:
        return NoNumber(gpu, "measured_tps", f"a replica of {replica} x {gpu} spans {replica // node} nodes of {node}, "
                        "and no published benchmark measures a replica split across nodes: give your measured "
                        "throughput of one to price it")  # fmt: skip
    return AcrossNodes(node, 1.0, None)


def _training(catalog: CatalogSnapshot, p: SizeParams, sizing: Sizing, fit: Fit) -> JobFit | NoNumber:
    gpu, gpus, loss = fit.gpu, p.run_gpus, loss_of(catalog)
    across = _across(catalog, fit, gpus, loss)
    if isinstance(across, NoNumber):
        return across
    rate = _run_rate(catalog, p, sizing, gpu, across, loss)
    if isinstance(rate, NoNumber):
        return rate
    if rate.gpu_hours / gpus > RUN_MONTHS_MAX * HOURS_PER_MONTH:
        return NoNumber(gpu, "train_tokens_b", f"takes more than {RUN_MONTHS_MAX} months on {gpus} x {gpu}")
    plan = run_plan(rate.gpu_hours, gpus)
    carried = rate.across is not None or rate.scale != 1
    return JobFit(
        gpu, plan.gpu_hours_per_month, gpus, gpus, plan.months, run=plan, benchmark=rate.benchmark, peak=rate.peak,
        utilisation=p.utilisation_pct / 100 if rate.peak else None, across=rate.across, benchmark_scale=rate.scale,
        loss=loss if carried else None,
    )  # fmt: skip


@dataclass(frozen=True)
class _RunRate:
    """What a run's GPU-hours rest on: a training benchmark (carried to the run's size by `scale`), or the
    dense peak; and how the run spans nodes."""

    gpu_hours: float
    benchmark: ThroughputRecord | None = None
    peak: PeakRecord | None = None
    scale: float = 1.0
    across: AcrossNodes | None = None


def _run_rate(
    catalog: CatalogSnapshot, p: SizeParams, sizing: Sizing, gpu: str, across: AcrossNodes | None, loss: Loss | None
) -> _RunRate | NoNumber:
    """The nearest training benchmark of the model, carried to the run's size by the published loss (at its
    own size, as measured); else the dense peak at the utilisation, across nodes at the share kept."""
    gpus, tokens = p.run_gpus, p.train_tokens_b * 1e9
    benchmark = None if p.train_mode is Mode.LORA else _training_benchmark(catalog, p, sizing, gpu)
    scale = None
    if benchmark is not None and benchmark.gpus == gpus:
        scale = 1.0
    elif benchmark is not None and loss is not None:
        scale = share_kept(benchmark.gpus, gpus, loss.kept)
    if benchmark is not None and scale is not None:
        moved = None if across is None else replace(across, node_gpus=benchmark.gpus, share=scale)
        return _RunRate(gpu_hours_at_rate(tokens, benchmark.tokens_per_s * scale), benchmark, scale=scale, across=moved)
    peak = catalog.peaks.get((gpu, p.compute))
    if peak is None:
        return NoNumber(
            gpu, "compute", f"the catalog has no dense peak of {gpu} in {p.compute.upper()} and no training benchmark"
        )
    return _RunRate(_gpu_hours_at_peak(p, sizing, peak) / (across.share if across else 1.0), peak=peak, across=across)


def _across(catalog: CatalogSnapshot, fit: Fit, gpus: int, loss: Loss | None) -> AcrossNodes | NoNumber | None:
    """How a run on `gpus` of the fit's GPU model spans nodes: None where one offered instance or node
    holds it; else on whole nodes of offers whose fabric between nodes a source states, or why not (too
    few GPUs to hold the model, no such offer, a count no node size divides, no published scaling)."""
    gpu = fit.gpu
    if fit.gpus > gpus:
        return NoNumber(
            gpu, "run_gpus", f"the run needs at least {fit.gpus} x {gpu} to hold the model and its training state"
        )
    if fit.largest_unit is not None and fit.largest_unit >= gpus:
        return None
    node = _whole_nodes(catalog, gpu, gpus, fit.largest_unit, fit.gpus)
    if isinstance(node, str):
        return NoNumber(gpu, "run_gpus", node)
    if loss is None:
        return NoNumber(gpu, "run_gpus", "the catalog has no published runs at several cluster sizes to scale a run "
                        "across nodes by")  # fmt: skip
    return AcrossNodes(node, share_kept(node, gpus, loss.kept), loss)


def _whole_nodes(catalog: CatalogSnapshot, gpu: str, gpus: int, largest: int | None, least: int = 1) -> int | str:
    """The largest node that `gpus` of the GPU model fill whole on offers that span nodes, or why none does
    (naming the whole-node counts nearest, of at least `least` GPUs)."""
    offers = catalog.offers_by_gpu.get(gpu, [])
    nodes = {o.priced.gpus_per_unit for o in offers if spans_nodes(catalog, o, gpus)}
    if not nodes:
        return _no_nodes(catalog, offers, gpu, gpus, largest)
    whole = [n for n in nodes if gpus % n == 0]
    if not whole:
        node = max(nodes)
        holding = (n for n in (gpus // node * node, (gpus // node + 1) * node) if n >= least)
        counts = " or ".join(f"{n:,}" for n in holding)
        return f"a run across nodes takes whole nodes of {node} x {gpu}: {counts} GPUs"
    return max(whole)


def _no_nodes(catalog: CatalogSnapshot, offers: list[OfferRecord], gpu: str, gpus: int, largest: int | None) -> str:
    """Why no offer's nodes run `gpus` of the GPU model together: clusters a source bounds otherwise
    (their sizes said), fabrics that are not RDMA on virtualized nodes, or no fabric stated at all."""
    held = f"no offered instance or node holds {gpus} x {gpu} (the largest: {largest})"
    why = [(o, across_nodes_refused(catalog, o, gpus)) for o in offers]
    bounded = [f for o, w in why if w in (CLUSTER_SMALLER, CLUSTER_LARGER) and (f := catalog.fabric_of(o))]
    if bounded:
        sizes = sorted({(f.min_cluster_gpus or f.gpus_per_node, f.max_cluster_gpus) for f in bounded})
        said = "; ".join(f"{least:,} to {most:,}" if most else f"from {least:,}" for least, most in sizes)
        return f"{held}, and the clusters of {gpu} a fabric joins are rented with {said} GPUs"
    if any(w == NOT_RDMA for _, w in why):
        return f"{held}, and the fabric a source states between nodes of {gpu} is not RDMA on virtualized nodes"
    return f"{held}, and no offer of {gpu} has a fabric between nodes that a source states"


def _training_benchmark(catalog: CatalogSnapshot, p: SizeParams, sizing: Sizing, gpu: str) -> ThroughputRecord | None:
    """The training benchmark of the model on the GPU model at the run's precision nearest the run's size
    (in doublings; the fastest among equals), if any."""
    rows = [
        r
        for r in catalog.throughput
        if r.kind == BenchmarkKind.TRAINING and r.gpu == gpu and r.precision == p.compute and _same_model(r, sizing)
    ]
    return min(rows, key=lambda r: (abs(math.log2(r.gpus / p.run_gpus)), -r.tokens_per_s, r.key)) if rows else None


def _gpu_hours_at_peak(p: SizeParams, sizing: Sizing, peak: PeakRecord) -> float:
    """The run's GPU-hours at the share of the dense peak assumed, where no benchmark has them: a
    mixture of experts' FLOPs counted on its active parameters, LoRA's as its share of a full run's."""
    active = sizing.preset.active_parameters if sizing.preset and sizing.preset.active_parameters else None
    flops = training_flops(active or sizing.run.shape.parameters, p.train_tokens_b * 1e9, p.train_mode is Mode.LORA)
    return gpu_hours_at_peak(flops, peak.dense_tflops, p.utilisation_pct / 100)


def job_fit(catalog: CatalogSnapshot, p: SizeParams, sizing: Sizing, fit: Fit) -> JobFit | NoNumber:
    """What the job takes on the fit's GPU model (a split's: a serving job's, over its day)."""
    if p.serves:
        return _serving(catalog, p, sizing, fit)
    return _training(catalog, p, sizing, fit)


def nowhere(unmatched: tuple[NoNumber, ...]) -> dict[str, str]:
    """No GPU model has a number for the job: the reasons of the furthest check, under its input."""
    field = min((u.field for u in unmatched), key=FURTHEST_FIRST.index)
    closest = [u.reason for u in unmatched if u.field == field]
    others = len(unmatched) - len(closest)
    rest = f" (and no number on {others} other GPU model{'s' if others != 1 else ''})" if others else ""
    return {field: "; ".join(closest) + rest}
