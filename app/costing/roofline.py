"""The estimate of a deployment's serving throughput from the physics, where no benchmark was
published for the model on the GPU (DOMAIN.md, "From a job to GPU-hours").

Each decode step reads the weights it uses and every sequence's KV cache from memory and does two
FLOPs per active parameter per sequence: it takes as long as the slower of the two at the shares of
bandwidth and of the dense peak that published runs reach (`Efficiency`, calibrated in
calibration.py). Each request's prefill is compute: two FLOPs per active parameter per input token
plus attention's. The batch is what the memory left after the weights holds at the request's full
length; under a latency bound, the largest batch whose time between tokens stays within it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.costing.memory import BYTES, GIB, Precision


@dataclass(frozen=True)
class Chip:
    """The figures of one GPU model the estimate rests on."""

    memory_gib: float
    bandwidth_tb_s: float
    """Memory bandwidth as published, TB/s (10^12 bytes a second)."""
    dense_tflops: float
    """Dense peak at the precision the matrix multiplies run in."""


@dataclass(frozen=True)
class Architecture:
    """What a model's serving speed scales with."""

    parameters: float
    """All of them: memory holds every expert of a mixture."""
    active_parameters: float
    """Used per token: all of them for a dense model."""
    layers: int
    kv_values: int
    """Values the KV cache holds per token and layer: 2 x KV heads x head dimension, or the latent
    width where attention compresses keys and values into one (DeepSeek's MLA)."""
    attention_width: int
    """Query heads x head dimension: what attention's FLOPs per token of context scale with."""


@dataclass(frozen=True)
class Conditions:
    """How the deployment serves: the lengths of each request and the bound its users are held to."""

    gpus: int
    """Of one deployment, tensor parallel: their memory, bandwidth and peak add up."""
    weights: Precision
    kv_cache: Precision
    input_tokens: int
    output_tokens: int
    max_tbt_ms: float | None = None
    """The time between tokens a user may wait at most; None offline (as fast as it can go)."""
    max_ttft_ms: float | None = None


@dataclass(frozen=True)
class Efficiency:
    """The shares of the roofline published runs reach: of memory bandwidth while decoding, of the
    dense peak where compute bounds (prefill, and decoding at a large batch)."""

    memory: float
    compute: float


class Bound(StrEnum):
    MEMORY = "memory"
    COMPUTE = "compute"


@dataclass(frozen=True)
class Estimate:
    tokens_per_s: float
    """Output tokens per second of the whole deployment."""
    batch: int
    """Sequences decoded together."""
    bound: Bound
    """What limits a decode step at that batch."""
    tbt_ms: float
    """The time between a user's tokens at that batch, prefills of the others included."""


@dataclass(frozen=True)
class Refusal:
    """Why no batch serves under these conditions, under the input that decides it."""

    field: str
    reason: str


USABLE_SHARE = 0.90
"""Of the GPUs' memory, what weights and cache may use (as sizing's default)."""


@dataclass(frozen=True)
class _Deployment:
    """The per-step times of a deployment, worked out once for the batch search."""

    weight_bytes: float
    active_bytes: float
    kv_bytes_decoding: float
    """One sequence's cache read per step, at its average length while decoding."""
    bandwidth: float
    flops: float
    decode_flops: float
    """Per sequence and step: the active parameters and attention over the average context."""
    prefill_s: float
    output_tokens: int

    def step_s(self, batch: int) -> tuple[float, Bound]:
        read = min(self.weight_bytes, self.active_bytes * batch) + self.kv_bytes_decoding * batch
        memory, compute = read / self.bandwidth, self.decode_flops * batch / self.flops
        return (memory, Bound.MEMORY) if memory >= compute else (compute, Bound.COMPUTE)

    def tbt_s(self, batch: int) -> float:
        """A user's time between tokens: a step, plus the share of the others' prefills per token."""
        return self.step_s(batch)[0] + batch * self.prefill_s / self.output_tokens


def _deployment(chip: Chip, model: Architecture, c: Conditions, eff: Efficiency) -> _Deployment:
    weight, kv = BYTES[c.weights], BYTES[c.kv_cache]
    decoding_context = c.input_tokens + c.output_tokens / 2
    prefill_flops = 2 * model.active_parameters * c.input_tokens + 2 * model.layers * model.attention_width * (
        c.input_tokens**2
    )
    flops = c.gpus * chip.dense_tflops * 1e12 * eff.compute
    return _Deployment(
        weight_bytes=model.parameters * weight,
        active_bytes=model.active_parameters * weight,
        kv_bytes_decoding=model.layers * model.kv_values * decoding_context * kv,
        bandwidth=c.gpus * chip.bandwidth_tb_s * 1e12 * eff.memory,
        flops=flops,
        decode_flops=2 * model.active_parameters + 4 * model.layers * model.attention_width * decoding_context,
        prefill_s=prefill_flops / flops,
        output_tokens=c.output_tokens,
    )


def batch_room(chip: Chip, model: Architecture, c: Conditions) -> int:
    """Sequences of the request's full length whose cache the memory left after the weights holds."""
    room = c.gpus * chip.memory_gib * GIB * USABLE_SHARE - model.parameters * BYTES[c.weights]
    per_sequence = model.layers * model.kv_values * (c.input_tokens + c.output_tokens) * BYTES[c.kv_cache]
    return max(0, int(room // per_sequence))


def _largest_within(d: _Deployment, most: int, bound_s: float) -> int:
    """The largest batch up to `most` whose time between tokens is within the bound (it grows with
    the batch); 0 where even one sequence's is not."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if d.tbt_s(middle) <= bound_s:
            low = middle
        else:
            high = middle - 1
    return low


def estimate(chip: Chip, model: Architecture, c: Conditions, eff: Efficiency) -> Estimate | Refusal:
    room = batch_room(chip, model, c)
    if room < 1:
        return Refusal(
            "input_length",
            f"the memory the weights leave on {c.gpus} GPU{'s' if c.gpus != 1 else ''} holds no sequence of "
            f"{c.input_tokens + c.output_tokens:,} tokens",
        )
    d = _deployment(chip, model, c, eff)
    batch = room
    if c.max_ttft_ms is not None and d.prefill_s * 1000 > c.max_ttft_ms:
        return Refusal("max_ttft_ms", f"a request's prefill alone takes {d.prefill_s * 1000:,.0f} ms")
    if c.max_tbt_ms is not None:
        batch = _largest_within(d, room, c.max_tbt_ms / 1000)
        if batch < 1:
            return Refusal("max_tbt_ms", f"even one sequence waits {d.tbt_s(1) * 1000:,.1f} ms between tokens")
    tbt = d.tbt_s(batch)
    return Estimate(batch / tbt, batch, d.step_s(batch)[1], tbt * 1000)
