"""The calculator's inputs as the page and the API take them, checked at the edge, and as a URL."""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import urlencode

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.costing.memory import Mode, Precision, SizingAssumptions
from app.costing.terms import Assumptions, Tenancy, Workload
from app.quoting.inputs import Flag, MaybeNumber, MaybeWhole, Number, Whole

GPU_HOURS_MAX = 1_000_000
VERSION_MAX = 2**31 - 1
"""Catalog versions are database integers; a larger number can name no version."""


class SizeParams(BaseModel):
    """A model and how it runs; every field is a query parameter of `/api/size`, and of `/` and
    `/api/quote`, where a model (a preset or a parameter count) sets the GPUs used at once and the
    checkpoint size."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    preset: str = Field(
        "", max_length=60, description="a model preset's key, e.g. llama-3.1-70b (none: type the model)"
    )
    parameters_b: MaybeNumber = Field(
        None, gt=0, le=100_000, description="parameters in billions (all of them for a mixture of experts)"
    )
    layers: MaybeWhole = Field(None, ge=1, le=10_000, description="transformer layers")
    hidden_size: MaybeWhole = Field(None, ge=1, le=1_000_000, description="hidden size")
    kv_heads: MaybeWhole = Field(None, ge=1, le=10_000, description="key-value heads (grouped-query attention)")
    head_dim: MaybeWhole = Field(None, ge=1, le=100_000, description="dimension of one attention head")
    weights: Precision = Field(Precision.BF16, description="precision of the weights")
    mode: Mode = Field(
        Mode.INFERENCE, description="inference, lora (fine-tuning an adapter) or full (training with Adam)"
    )
    context: MaybeWhole = Field(
        None, ge=0, le=10_000_000, description="tokens per sequence (default: the preset's context, else 8,192)"
    )
    sequences: Whole = Field(
        1, ge=1, le=100_000, description="concurrent sequences when serving, micro-batch when training"
    )
    kv_cache: Precision = Field(Precision.BF16, description="precision of the KV cache")
    overhead_pct: Number = Field(10, ge=0, le=100, description="runtime overhead, percent of the other terms")
    usable_pct: Number = Field(90, ge=10, le=100, description="share of each GPU's memory a workload can use, percent")
    lora_pct: Number = Field(1, gt=0, le=100, description="LoRA adapter parameters, percent of the model's")
    activation_bytes: Number = Field(
        2, ge=0, le=1000, description="training: bytes kept per hidden value, layer and token (2: recomputed)"
    )
    catalog_version: MaybeWhole = Field(
        None, ge=1, le=VERSION_MAX, description="catalog version to quote at (default: newest)"
    )

    @property
    def sized(self) -> bool:
        """A model is given: sizing decides the GPUs used at once and the checkpoint size."""
        return bool(self.preset) or self.parameters_b is not None

    def sizing_assumptions(self) -> SizingAssumptions:
        return SizingAssumptions(
            self.overhead_pct / 100, self.usable_pct / 100, self.lora_pct / 100, self.activation_bytes
        )


class QuoteParams(SizeParams):
    """One scenario; every field is a query parameter of `/` and `/api/quote`."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    gpu: str = Field("H100", max_length=40, description="GPU model, e.g. H100")
    gpu_hours: Number = Field(500, ge=0, le=GPU_HOURS_MAX, description="GPU-hours per month")
    peak_gpus: Whole = Field(
        1, ge=1, le=10_000, description="GPUs used at once; an instance is billed for all its GPUs"
    )
    checkpoint_gb: Number = Field(140, ge=0, le=1_000_000, description="checkpoint size, GB")
    checkpoints_out: Whole = Field(1, ge=0, le=10_000, description="checkpoints moved out per month")
    egress_gb: Number = Field(0, ge=0, le=10_000_000, description="other egress, GB per month")
    stored_gb: Number = Field(0, ge=0, le=10_000_000, description="stored GB")
    months: Whole = Field(1, ge=1, le=120, description="horizon in months")
    tenancy: list[Tenancy] = Field(default_factory=list, description="tenancies to include (none = all)")
    region: str = Field("", max_length=100, description="only offers in this region")
    eu_only: Flag = Field(False, description="only offers processed in an EU member state")
    exclude_us_hq: Flag = Field(False, description="only providers known to be headquartered outside the US")
    hide_spot: Flag = Field(False, description="leave out spot offers, which the provider can interrupt")
    offer: str = Field("", max_length=300, description="price only this offer: its key, as the offers list links it")
    virt_tax: Number = Field(5, ge=0, le=50, description="virtualization tax of virtualized offers, percent")
    virt_tax_bare_metal: Number = Field(0, ge=0, le=50, description="throughput lost on bare metal, percent")
    virt_tax_serverless: Number = Field(0, ge=0, le=50, description="throughput lost on serverless, percent")
    invocations: Whole = Field(1000, ge=0, le=100_000_000, description="serverless invocations per month")
    cold_start_s: Number = Field(20, ge=0, le=3600, description="cold-start seconds per invocation")
    assumed_egress_usd_per_gb: MaybeNumber = Field(
        None, ge=0, le=10, description="USD per GB you assume for egress no price is published for (none: unknown)"
    )
    assumed_storage_usd_per_gb_month: MaybeNumber = Field(
        None, ge=0, le=10, description="USD per GB-month you assume for storage a provider publishes no price for"
    )
    currency: Literal["USD", "EUR"] = Field(
        "USD", description="display currency; EUR converts at the catalog version's exchange rate"
    )

    def workload(self) -> Workload:
        return Workload(
            gpu_hours=self.gpu_hours,
            peak_gpus=self.peak_gpus,
            checkpoint_gb=self.checkpoint_gb,
            checkpoints_out=self.checkpoints_out,
            egress_gb=self.egress_gb,
            stored_gb=self.stored_gb,
            months=self.months,
        )

    def assumptions(self) -> Assumptions:
        return Assumptions(
            virt_tax={
                Tenancy.BARE_METAL: self.virt_tax_bare_metal / 100,
                Tenancy.VIRTUALIZED: self.virt_tax / 100,
                Tenancy.SERVERLESS: self.virt_tax_serverless / 100,
            },
            invocations=self.invocations,
            cold_start_s=self.cold_start_s,
            assumed_egress_usd_per_gb=self.assumed_egress_usd_per_gb,
            assumed_storage_usd_per_gb_month=self.assumed_storage_usd_per_gb_month,
        )


INPUT_LABELS = {
    "gpu": "GPU model",
    "gpu_hours": "GPU-hours per month",
    "peak_gpus": "GPUs used at once",
    "checkpoint_gb": "Checkpoint size, GB",
    "checkpoints_out": "Checkpoints moved out per month",
    "egress_gb": "Other egress, GB per month",
    "stored_gb": "Stored data, GB",
    "months": "Horizon, months",
    "tenancy": "Tenancies",
    "region": "Region",
    "eu_only": "Processing in the EU",
    "exclude_us_hq": "Provider not headquartered in the US",
    "hide_spot": "Spot offers left out",
    "offer": "Offer",
    "virt_tax": "Virtualization tax, %",
    "virt_tax_bare_metal": "Throughput lost on bare metal, %",
    "virt_tax_serverless": "Throughput lost on serverless, %",
    "invocations": "Serverless invocations per month",
    "cold_start_s": "Cold start, seconds",
    "assumed_egress_usd_per_gb": "Assumed egress where unpublished, USD/GB",
    "assumed_storage_usd_per_gb_month": "Assumed storage where unpublished, USD/GB-month",
    "preset": "Model preset",
    "parameters_b": "Parameters, billions",
    "weights": "Weights precision",
    "mode": "Run for",
    "context": "Context, tokens",
    "sequences": "Sequences at once",
    "kv_cache": "KV cache precision",
    "layers": "Layers",
    "hidden_size": "Hidden size",
    "kv_heads": "KV heads",
    "head_dim": "Head dimension",
    "overhead_pct": "Runtime overhead, %",
    "usable_pct": "Usable GPU memory, %",
    "lora_pct": "LoRA adapter, % of parameters",
    "activation_bytes": "Training activations, bytes per value",
    "currency": "Money shown in",
    "catalog_version": "Catalog version (prices)",
}
"""Each input as the page labels it: what error messages and the comparison name it by."""

FieldErrors = dict[str, str]

_MESSAGES = {
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be greater than {gt}",
    "less_than_equal": "must be at most {le}",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "finite_number": "must be a finite number",
    "bool_parsing": "must be on or off",
    "enum": "must be one of {expected}",
    "string_too_long": "is too long",
    "literal_error": "must be one of {expected}",
}


_MAY_BE_EMPTY = {
    "region",
    "tenancy",
    "catalog_version",
    "parameters_b",
    "layers",
    "hidden_size",
    "kv_heads",
    "head_dim",
    "context",
    "assumed_egress_usd_per_gb",
    "assumed_storage_usd_per_gb_month",
}


def _number(value: object) -> object:
    """1000000 -> '1,000,000' and 0.0 -> '0' in messages; anything else as it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,}"
    return value


def parse_params(query: dict[str, str | list[str]]) -> QuoteParams | FieldErrors:
    """Read a query string into params, or a plain message per bad field.

    A parameter left out takes its default (a short shared URL); a number field sent empty is an
    error, so that a cleared input never quietly shows the default's numbers.
    """
    data = {k: v for k, v in query.items() if not (v in ("", [], [""]) and k in _MAY_BE_EMPTY)}
    try:
        return QuoteParams.model_validate(data)
    except ValidationError as e:
        errors: FieldErrors = {}
        for err in e.errors():
            field = str(err["loc"][0])
            template = _MESSAGES.get(err["type"], err["msg"])
            errors.setdefault(field, template.format(**{k: _number(v) for k, v in err.get("ctx", {}).items()}))
        return errors


def form_values(params: QuoteParams) -> dict[str, Any]:
    """Inputs as a person would type them: 500, not 500.0."""
    return {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in params.model_dump().items()}


DEFAULT_VALUES = form_values(QuoteParams())
"""What an empty form shows; worked out once, not on every move of a slider."""


def query_string(params: QuoteParams) -> str:
    """The calculator's URL for these inputs at today's prices."""
    pairs: list[tuple[str, Any]] = []
    for name, value in form_values(params).items():
        if name == "catalog_version" or value is False or value is None or value == "":
            continue
        if isinstance(value, list):
            pairs += [(name, str(v)) for v in value]
        else:
            pairs.append((name, "on" if value is True else value))
    return urlencode(pairs)
