"""The virtualization tax measured where the catalog can: MLPerf Inference has runs in VMware virtual
machines beside bare-metal runs of the same round, model, GPU and scenario, and the throughput a GPU
loses between the two is the tax. `DEFAULT_TAX` is the median of the shipped pairs, which a test
checks; the page and /api/throughput name the pairs."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from app.catalog.snapshot import CatalogSnapshot
from app.catalog.throughput import ThroughputRecord


@dataclass(frozen=True)
class TaxPair:
    """A virtualized run and the fastest bare-metal run per GPU of the same round, model, GPU model,
    precision, scenario and latency bounds."""

    virtualized: ThroughputRecord
    bare_metal: ThroughputRecord

    @property
    def tax(self) -> float:
        """1 - tokens/s per GPU virtualized / tokens/s per GPU on bare metal."""
        per_gpu = self.virtualized.tokens_per_s / self.virtualized.gpus
        return 1 - per_gpu / (self.bare_metal.tokens_per_s / self.bare_metal.gpus)


def _conditions(r: ThroughputRecord) -> tuple[object, ...]:
    """What a pair shares: the round (the engine's words before the submitter), the model, GPU model,
    precision, scenario and the bounds it was held to (the latency in the source's words, before what
    the run measured)."""
    return r.engine.split(":")[0], r.preset, r.gpu, r.precision, r.scenario, r.latency_published.split(";")[0]


def tax_pairs(catalog: CatalogSnapshot) -> tuple[TaxPair, ...]:
    def make() -> tuple[TaxPair, ...]:
        pairs = []
        for v in (r for r in catalog.throughput if r.virtualized):
            bare = [r for r in catalog.throughput if not r.virtualized and _conditions(r) == _conditions(v)]
            if bare:
                pairs.append(TaxPair(v, max(bare, key=lambda r: (r.tokens_per_s / r.gpus, r.key))))
        return tuple(pairs)

    return catalog.derived.memo("tax pairs", make)


def measured_tax(pairs: tuple[TaxPair, ...]) -> float | None:
    """The median tax of the pairs; None without any."""
    return statistics.median(p.tax for p in pairs) if pairs else None
