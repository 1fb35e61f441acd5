"""GPU-hours stated on one GPU model, as the same work on another: the hours scaled by the two GPU models'
speeds at what the model runs for, so that any GPU ranks GPU models on equal work rather than equal hours.
Serving speed is output tokens/s per GPU (the buyer's, a benchmark, adjusted or estimated, as a serving job
rests on them); a training run's is its dense peak, as both run at the same assumed utilisation."""

from __future__ import annotations

from dataclasses import dataclass

from app.catalog.snapshot import CatalogSnapshot
from app.catalog.throughput import PeakRecord
from app.costing.memory import Fit, Mode
from app.quoting.jobs import Basis, NoNumber, Rate, serving_rate
from app.quoting.params.quote import SizeParams
from app.quoting.sizing import Sizing


@dataclass(frozen=True)
class Speed:
    """How fast one GPU of a model does the work, and what that rests on."""

    gpu: str
    per_gpu: float
    """Serving: output tokens/s per GPU; a training run: dense TFLOPS at the run's precision."""
    rate: Rate | None = None
    peak: PeakRecord | None = None

    @property
    def basis(self) -> Basis:
        return Basis.BENCHMARK if self.rate is not None and self.rate.benchmark is not None else Basis.ESTIMATE


@dataclass(frozen=True)
class EqualWork:
    """The GPU-hours as stated, of the GPU model they are of: each other GPU model is quoted at the hours
    the same work takes on it."""

    hours: float
    of: Speed

    def hours_on(self, speed: Speed) -> float:
        return self.hours * self.of.per_gpu / speed.per_gpu


def speed_of(catalog: CatalogSnapshot, p: SizeParams, sizing: Sizing, fit: Fit) -> Speed | NoNumber:
    """How fast the fit's GPU model runs the model for what the inputs run it for, from the catalog alone:
    a throughput the buyer measured is of one GPU model, so no ratio between two."""
    if p.run_mode is Mode.INFERENCE:
        found = serving_rate(catalog, p.model_copy(update={"measured_tps": None}), sizing, fit)
        return found if isinstance(found, NoNumber) else Speed(fit.gpu, found.tokens_per_s / found.replica, found)
    peak = catalog.peaks.get((fit.gpu, p.compute))
    if peak is None:
        return NoNumber(fit.gpu, "compute", f"the catalog has no dense peak of {fit.gpu} in {p.compute.upper()}")
    return Speed(fit.gpu, peak.dense_tflops, peak=peak)
