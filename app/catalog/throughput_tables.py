"""The tables of what turns a job into GPU-hours (DOMAIN.md, "From a job to GPU-hours"): measured
throughput, GPUs' dense peaks and memory bandwidth, training runs at several cluster sizes, versioned
like prices, so that a saved quote keeps the benchmark it rests on. Their fields are checked by throughput_rows.py."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import BigInteger, Column, Numeric
from sqlmodel import Field

from app.catalog.tables import Provenance, Versioned


def _measure() -> Column[Decimal]:
    """Up to 3 decimal places, as sources print tokens per second (7430.99) and TFLOPS (989.4)."""
    return Column(Numeric(20, 3, asdecimal=True), nullable=False)


# One benchmark of a model on a GPU model under named conditions (engine and version, precision,
# lengths, latency), in one range of catalog versions; `key` names it across them.
class ThroughputVersion(Provenance, Versioned, table=True):
    __tablename__ = "throughput"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True)
    kind: str
    model: str
    """As the source names it; `preset` is the catalog's model preset it is matched to."""
    preset: str
    parameters: int = Field(sa_type=BigInteger)
    gpu_model_id: int = Field(foreign_key="gpumodel.id", index=True)
    gpus: int
    """Of one deployment (inference), of the benchmark run (training)."""
    precision: str
    precision_published: str
    engine: str
    scenario: str
    input_tokens: int | None = None
    output_tokens: int | None = None
    sequence_length: int | None = None
    ttft_ms: float | None = None
    """The time to first token the run measured or was held to; None offline."""
    tbt_ms: float | None = None
    """The time between tokens the run measured or was held to; None offline."""
    latency_published: str = ""
    tokens_per_s: Decimal = Field(sa_column=_measure())
    """Inference: output tokens per second of the whole deployment of `gpus` GPUs; training: per GPU."""
    virtualized: bool = False
    """Run in virtual machines: set beside bare-metal runs of the GPU, it measures virtualization's tax."""


# A GPU model's dense peak at one precision (not the sparse figure datasheets print beside it, twice
# as large), in one range of catalog versions: what a training run's compute is divided by.
class GpuPeakVersion(Provenance, Versioned, table=True):
    __tablename__ = "gpupeak"

    id: int | None = Field(default=None, primary_key=True)
    gpu_model_id: int = Field(foreign_key="gpumodel.id", index=True)
    precision: str
    dense_tflops: Decimal = Field(sa_column=_measure())


# A GPU model's memory bandwidth as published, in one range of catalog versions: what a decode step,
# which reads the weights and every sequence's cache, is bounded by.
class GpuBandwidthVersion(Provenance, Versioned, table=True):
    __tablename__ = "gpubandwidth"

    id: int | None = Field(default=None, primary_key=True)
    gpu_model_id: int = Field(foreign_key="gpumodel.id", index=True)
    tb_per_s: Decimal = Field(sa_column=_measure())
    """TB/s, 10^12 bytes a second."""


# A published training run's rate per GPU at its cluster size, in one range of catalog versions: set
# against the same series' runs at other sizes, what a run across nodes keeps per doubling of its GPUs.
class TrainingScalingVersion(Provenance, Versioned, table=True):
    __tablename__ = "trainingscaling"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(index=True)
    model: str
    gpu_model_id: int = Field(foreign_key="gpumodel.id", index=True)
    system: str
    """The submitter's system, as the results name it."""
    series: str
    """The submitter and GPU model: the runs set against each other."""
    gpus: int
    global_batch: int
    """Sequences a step."""
    sequence_length: int
    tokens_per_s: Decimal = Field(sa_column=_measure())
    """Per GPU."""


PEAK_RECORD = ("gpu_model_id", "precision")
"""What names a peak across versions: a GPU model and a precision."""
