"""A workload's GPU memory, term by term, each with its formula in words (DOMAIN.md, memory
footprint), and how many GPUs of a model hold it.

GB are 10^9 bytes, as the page states needs; a GPU's memory is published in GiB (2^30 bytes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum


class Precision(StrEnum):
    FP32 = "fp32"
    BF16 = "bf16"
    FP8 = "fp8"
    INT4 = "int4"
    FP4 = "fp4"
    """NVIDIA's 4-bit floating point (Blackwell): as many bytes as INT4, another number format."""


BYTES = {Precision.FP32: 4.0, Precision.BF16: 2.0, Precision.FP8: 1.0, Precision.INT4: 0.5, Precision.FP4: 0.5}
"""Bytes per parameter or per cached value: FP32 4, BF16/FP16 2, FP8/INT8 1, INT4 and FP4 0.5."""


class Mode(StrEnum):
    INFERENCE = "inference"
    LORA = "lora"
    FULL = "full"
    """Full fine-tuning or training with mixed-precision Adam."""


TRAINING_BYTES = 16.0
"""Mixed-precision Adam per trained parameter, before activations: 16-bit weights and gradients
(2 + 2), FP32 master weights (4) and two FP32 moments (4 + 4)."""
SAVED_STATE_BYTES = 12.0
"""What a training checkpoint saves per trained parameter beside its weights: FP32 master weights
and two moments (gradients are not saved)."""
GIB = 2**30
GB = 1e9


@dataclass(frozen=True)
class ModelShape:
    """What memory needs of a model: all its parameters (a mixture of experts holds every expert)
    and the numbers its KV cache and activations scale with."""

    parameters: float
    layers: int
    hidden_size: int
    kv_heads: int
    head_dim: int
    kv_latent: int | None = None
    """Values cached per token and layer where attention compresses keys and values into one latent
    (multi-head latent attention); None: a key and a value per KV head."""

    @property
    def kv_values(self) -> int:
        """Values the KV cache holds per token and layer."""
        return self.kv_latent or 2 * self.kv_heads * self.head_dim


@dataclass(frozen=True)
class SizingAssumptions:
    """What sizing cannot know; each on the page to change."""

    overhead_share: float = 0.10
    """Runtime overhead (CUDA context, allocator fragmentation, buffers) on top of the terms."""
    usable_share: float = 0.90
    """Of each GPU's memory, what a workload can count on (vLLM's default gpu_memory_utilization)."""
    lora_share: float = 0.01
    """LoRA adapter parameters as a share of the model's."""
    activation_bytes: float = 2.0
    """Bytes kept per hidden value, layer and token while training: 2 is one BF16 hidden state per
    layer with the rest recomputed in the backward pass; without recomputation it is far more."""


@dataclass(frozen=True)
class Run:
    shape: ModelShape
    weights: Precision = Precision.BF16
    mode: Mode = Mode.INFERENCE
    context: int = 8192
    sequences: int = 1
    """Concurrent sequences when serving; the micro-batch when training."""
    kv_cache: Precision = Precision.BF16


@dataclass(frozen=True)
class Term:
    name: str
    bytes: float
    formula: str

    @property
    def gb(self) -> float:
        return self.bytes / GB


@dataclass(frozen=True)
class Need:
    terms: list[Term]
    checkpoint_bytes: float
    """What one checkpoint moved out weighs: the weights served, or what is trained (the whole
    model, or the LoRA adapter in BF16) with its master weights and Adam moments."""

    @property
    def bytes(self) -> float:
        return sum(t.bytes for t in self.terms)

    @property
    def gb(self) -> float:
        return self.bytes / GB


def kv_bytes_per_token(shape: ModelShape, precision: Precision) -> float:
    """2 (keys and values) x layers x KV heads x head dimension x bytes: Llama 3.1 70B at BF16 is
    2 x 80 x 8 x 128 x 2 = 327,680 bytes per token; with a latent, layers x its width x bytes."""
    return shape.layers * shape.kv_values * BYTES[precision]


def _kv_formula(shape: ModelShape, precision: Precision) -> str:
    if shape.kv_latent:
        return f"{shape.layers} layers x {shape.kv_latent} latent values x {BYTES[precision]:g} bytes ({precision})"
    return (
        f"2 x {shape.layers} layers x {shape.kv_heads} KV heads x {shape.head_dim} head dimension x "
        f"{BYTES[precision]:g} bytes ({precision})"
    )


def memory_need(run: Run, assumptions: SizingAssumptions = SizingAssumptions()) -> Need:
    shape, p = run.shape, BYTES[run.weights]
    terms = [Term("weights", shape.parameters * p, f"{shape.parameters:,.0f} parameters x {p:g} bytes ({run.weights})")]
    if run.mode is Mode.INFERENCE:
        per_token = kv_bytes_per_token(shape, run.kv_cache)
        tokens = run.context * run.sequences
        terms.append(Term("KV cache", per_token * tokens,
                          f"{_kv_formula(shape, run.kv_cache)} x {run.context:,} tokens x "
                          f"{run.sequences:,} sequence{'s' if run.sequences != 1 else ''}"))  # fmt: skip
        checkpoint = shape.parameters * p
    else:
        trained = shape.parameters * (assumptions.lora_share if run.mode is Mode.LORA else 1.0)
        state = TRAINING_BYTES - (0.0 if run.mode is Mode.LORA else p)
        who = (
            f"{assumptions.lora_share:.1%} of the parameters (the adapter)"
            if run.mode is Mode.LORA
            else "each parameter"
        )
        terms.append(Term("gradients and optimizer state", trained * state,
                          f"{trained:,.0f} trained parameters x {state:g} bytes: {TRAINING_BYTES:g} bytes of "
                          f"mixed-precision Adam per trained parameter for {who}"
                          + ("" if run.mode is Mode.LORA else f", less the {p:g} of its weights")))  # fmt: skip
        per_value = assumptions.activation_bytes
        terms.append(Term("activations", per_value * run.context * run.sequences * shape.hidden_size * shape.layers,
                          f"{per_value:g} bytes x {run.context:,} tokens x {run.sequences:,} sequence(s) x "
                          f"{shape.hidden_size:,} hidden size x {shape.layers} layers"))  # fmt: skip
        saved_weights = BYTES[Precision.BF16] if run.mode is Mode.LORA else p
        checkpoint = trained * (saved_weights + SAVED_STATE_BYTES)
    subtotal = sum(t.bytes for t in terms)
    terms.append(Term("runtime overhead", subtotal * assumptions.overhead_share,
                      f"{assumptions.overhead_share:.0%} of the above"))  # fmt: skip
    return Need(terms, checkpoint)


@dataclass(frozen=True)
class Fit:
    """How many GPUs of one model hold a need."""

    gpu: str
    memory_gib: int
    gpus: int
    """The least count whose usable memory holds the need."""
    tensor_parallel: int
    """The next power of two: tensor-parallel serving splits the model into equal powers of two."""
    largest_unit: int | None
    """The most GPUs one offered instance or node has; None where none is offered."""
    serving: bool = False
    """Served with tensor parallelism: the quote rents the power of two, not the least count."""

    @property
    def quoted(self) -> int:
        """The GPUs a quote rents at once."""
        return self.tensor_parallel if self.serving else self.gpus

    def utilisation(self, need: Need) -> float:
        return need.bytes / (self.quoted * self.memory_gib * GIB)

    @property
    def fits_a_unit(self) -> bool:
        return self.largest_unit is not None and self.quoted <= self.largest_unit


def fit(
    need: Need, gpu: str, memory_gib: int, largest_unit: int | None, assumptions: SizingAssumptions,
    serving: bool = False,
) -> Fit:  # fmt: skip
    usable = memory_gib * GIB * assumptions.usable_share
    gpus = max(1, math.ceil(need.bytes / usable))
    return Fit(gpu, memory_gib, gpus, 1 << (gpus - 1).bit_length(), largest_unit, serving)
