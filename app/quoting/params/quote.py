"""The calculator's request models: each input's type, limits and `Input` (how it is shown, named and
described), declared once, on its field."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict

from app.catalog import ages
from app.costing.memory import Mode, Precision, SizingAssumptions
from app.costing.money import CODES, NAMES, USD, CurrencyCode
from app.costing.terms import DEFAULT_TAX, Assumptions, Tenancy, Workload
from app.quoting.params.inputs import (
    Fieldset,
    Flag,
    Input,
    MaybeDay,
    MaybeNumber,
    MaybeWhole,
    Number,
    Whole,
    Widget,
)
from app.quoting.params.job import Job
from app.quoting.params.owning import OwningParams
from app.quoting.params.split import SplitParams

GPU_HOURS_MAX = 1_000_000
ANY_GPU = "any"
"""The GPU model a sized workload may ask for instead of one: every GPU model that fits is quoted."""
VERSION_MAX = 2**31 - 1
"""Catalog versions are database integers; a larger number can name no version."""


PRECISIONS = (("fp32", "FP32"), ("bf16", "BF16 / FP16"), ("fp8", "FP8 / INT8"), ("int4", "INT4"), ("fp4", "FP4"))
MODES = (("inference", "inference"), ("lora", "LoRA fine-tuning"), ("full", "full fine-tuning or training (Adam)"))
CURRENCIES = tuple((code, f"{NAMES[code]} ({'as published' if code == USD.code else 'converted'})") for code in CODES)
FROM_THE_PRESET = "from the preset"
NONE_IS_UNKNOWN = "none: unknown, left out of the total"


def _from_the_preset(label: str, most: int, what: str = "") -> Any:
    """A figure of the model's architecture that a preset states: folded away, typed only to override it."""
    default = "default: the preset's"
    return Input(
        label, Fieldset.MODEL, placeholder=FROM_THE_PRESET, folded=True, help=f"{what} ({default})" if what else default
    ).field(None, ge=1, le=most)


class SizeParams(SplitParams):
    """A model and how it runs; every field is a query parameter of `/api/size`, and of `/` and
    `/api/quote`, where a model (a preset or a parameter count) sets the GPUs used at once and the
    checkpoint size."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    preset: str = Input(
        "Preset", Fieldset.MODEL, widget=Widget.PRESET, placeholder="none",
        help="a model preset's key, e.g. llama-3.1-70b (none: type the model)",
    ).field("", max_length=60)  # fmt: skip
    parameters_b: MaybeNumber = Input(
        "Parameters", Fieldset.MODEL, unit="billions", placeholder=FROM_THE_PRESET,
        help="all of them for a mixture of experts",
    ).field(None, gt=0, le=100_000)  # fmt: skip
    layers: MaybeWhole = _from_the_preset("Layers", 10_000, "of the transformer")
    hidden_size: MaybeWhole = _from_the_preset("Hidden size", 1_000_000)
    kv_heads: MaybeWhole = _from_the_preset("KV heads", 10_000, "key-value heads, for grouped-query attention")
    head_dim: MaybeWhole = _from_the_preset("Head dimension", 100_000, "of one attention head")
    weights: Precision = Input(
        "Weights", Fieldset.MODEL, widget=Widget.CHOICE, options=PRECISIONS,
        help="the precision they are stored in",
    ).field(Precision.BF16)  # fmt: skip
    mode: Mode = Input(
        "Run for", Fieldset.MODEL, widget=Widget.CHOICE, options=MODES, job=Job.HOURS,
        help="inference, lora (fine-tuning an adapter) or full (training with Adam)",
    ).field(Mode.INFERENCE)  # fmt: skip
    context: MaybeWhole = Input(
        "Context", Fieldset.MODEL, unit="tokens per sequence", placeholder="the preset's",
        help="default: the preset's context, else 8,192",
    ).field(None, ge=0, le=10_000_000)  # fmt: skip
    sequences: Whole = Input(
        "Sequences at once", Fieldset.MODEL, unit="or micro-batch",
        help="concurrent sequences when serving, micro-batch when training",
    ).field(1, ge=1, le=100_000)  # fmt: skip
    kv_cache: Precision = Input(
        "KV cache", Fieldset.MODEL, widget=Widget.CHOICE, options=PRECISIONS,
        help="the precision it is stored in",
    ).field(Precision.BF16)  # fmt: skip
    overhead_pct: Number = Input(
        "Runtime overhead", Fieldset.MODEL, unit="% of the rest", folded=True,
        help="the rest: the other terms of the memory need",
    ).field(10, ge=0, le=100)  # fmt: skip
    usable_pct: Number = Input(
        "Usable GPU memory", Fieldset.MODEL, unit="% of each GPU", folded=True,
        help="the share of each GPU's memory a workload can use",
    ).field(90, ge=10, le=100)  # fmt: skip
    lora_pct: Number = Input(
        "LoRA adapter", Fieldset.MODEL, unit="% of the parameters", folded=True,
        help="its parameters as a share of the model's",
    ).field(1, gt=0, le=100)  # fmt: skip
    activation_bytes: Number = Input(
        "Training activations", Fieldset.MODEL, unit="bytes per hidden value, layer and token", folded=True,
        help="kept while training (2: recomputed)",
    ).field(2, ge=0, le=1000)  # fmt: skip
    catalog_version: MaybeWhole = Input(
        "Catalog version (prices)", None, widget=Widget.HIDDEN,
        help="whose prices to quote at (default: the newest)",
    ).field(None, ge=1, le=VERSION_MAX)  # fmt: skip

    @property
    def sized(self) -> bool:
        """A model is given: sizing decides the GPUs used at once and the checkpoint size."""
        return bool(self.preset) or self.parameters_b is not None

    @property
    def run_mode(self) -> Mode:
        """What the model runs for: a job says it (serving, a served day's split too, is inference);
        GPU-hours take `mode`."""
        if self.serves:
            return Mode.INFERENCE
        return self.train_mode if self.job is Job.TRAIN else self.mode

    def sizing_assumptions(self) -> SizingAssumptions:
        return SizingAssumptions(
            self.overhead_pct / 100, self.usable_pct / 100, self.lora_pct / 100, self.activation_bytes
        )


class QuoteParams(SizeParams, OwningParams):
    """One scenario; every field is a query parameter of `/` and `/api/quote`."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False)

    gpu: str = Input(
        "GPU model", Fieldset.WORKLOAD, widget=Widget.GPU,
        help="e.g. H100, or any (every GPU model that holds the model)",
    ).field("H100", max_length=40)  # fmt: skip
    gpu_hours: Number = Input(
        "GPU-hours per month", Fieldset.WORKLOAD, unit="GPU-h", slider=730, slider_each="peak_gpus", job=Job.HOURS,
        help="at most 730 for each GPU used at once: a month has 730 hours",
        beyond="More than {each} at once can run in a month ({end} GPU-hours): the quote uses more GPUs at once.",
    ).field(500, ge=0, le=GPU_HOURS_MAX)  # fmt: skip
    hours_gpu: str = Input(
        "GPU-hours of", Fieldset.WORKLOAD, widget=Widget.GPU, job=Job.HOURS,
        placeholder="the GPU model above (any: first that fits)",
        help="the GPU model the GPU-hours were measured on, with a model: every other GPU model is quoted at "
        "the hours the same work takes on it, by the two GPU models' speeds",
    ).field("", max_length=40)  # fmt: skip
    peak_gpus: Whole = Input(
        "GPUs used at once", Fieldset.WORKLOAD, unit="GPUs", slider=64, job=Job.HOURS, sized=True,
        help="an instance is billed for all its GPUs",
    ).field(1, ge=1, le=10_000)  # fmt: skip
    checkpoint_gb: Number = Input(
        "Checkpoint size", Fieldset.WORKLOAD, unit="GB", slider=2_000, sized=True
    ).field(140, ge=0, le=1_000_000)  # fmt: skip
    checkpoints_out: Whole = Input(
        "Checkpoints moved out", Fieldset.WORKLOAD, unit="per month", slider=60
    ).field(1, ge=0, le=10_000)  # fmt: skip
    egress_gb: Number = Input(
        "Other egress", Fieldset.WORKLOAD, unit="GB per month", slider=20_000
    ).field(0, ge=0, le=10_000_000)  # fmt: skip
    stored_gb: Number = Input("Stored data", Fieldset.DATA, unit="GB", slider=50_000).field(0, ge=0, le=10_000_000)
    months: Whole = Input("Horizon", Fieldset.DATA, unit="months").field(1, ge=1, le=120)
    tenancy: list[Tenancy] = Input(
        "Tenancy", Fieldset.FILTERS, widget=Widget.TENANCY,
        help="the tenancies to include (none: all)",
    ).field(default_factory=list)  # fmt: skip
    region: str = Input(
        "Region", Fieldset.FILTERS, widget=Widget.REGION, placeholder="Any region",
        help="only offers in this region",
    ).field("", max_length=100)  # fmt: skip
    eu_only: Flag = Input(
        "Processing in the EU", Fieldset.FILTERS, unit="data centre in an EU member state", widget=Widget.FLAG,
        help="only offers processed in an EU member state",
    ).field(False)  # fmt: skip
    exclude_us_hq: Flag = Input(
        "Provider not headquartered in the US", Fieldset.FILTERS, unit="as a cited source says", widget=Widget.FLAG,
        help="only providers a cited source places outside the US; an unknown headquarters never passes",
    ).field(False)  # fmt: skip
    hide_spot: Flag = Input(
        "Leave out spot offers", Fieldset.FILTERS, unit="the provider can interrupt them", widget=Widget.FLAG
    ).field(False)  # fmt: skip
    dated_within: MaybeWhole = Input(
        "Only prices dated within", Fieldset.FILTERS, unit="days", placeholder="any date",
        help="only prices whose source dates them this many days before today (or `dated_on`) or since; an "
        "undated price never passes",
    ).field(None, ge=0, le=36_500)  # fmt: skip
    dated_on: MaybeDay = Input(
        "Prices dated within, counted back from", None, widget=Widget.HIDDEN,
        help="the day `dated_within` counts back from (default: today): a saved link keeps the day it was saved",
    ).field(None, examples=["2026-11-30"])  # fmt: skip
    offer: str = Input(
        "Offer", None, widget=Widget.HIDDEN,
        help="price only this offer: its key, as the offers list links it",
    ).field("", max_length=300)  # fmt: skip
    virt_tax: Number = Input(
        "Virtualization tax, virtualized", Fieldset.ASSUMPTIONS, unit="% of throughput lost",
        help="the same work needs H / (1 - tax) GPU-hours; default: measured, MLPerf's VMware runs against bare metal",
    ).field(DEFAULT_TAX[Tenancy.VIRTUALIZED] * 100, ge=0, le=50)  # fmt: skip
    virt_tax_bare_metal: Number = Input(
        "Throughput lost, bare metal", Fieldset.ASSUMPTIONS, unit="%", help="and on servers you own",
    ).field(0, ge=0, le=50)  # fmt: skip
    virt_tax_serverless: Number = Input(
        "Throughput lost, serverless", Fieldset.ASSUMPTIONS, unit="%"
    ).field(0, ge=0, le=50)  # fmt: skip
    invocations: Whole = Input(
        "Serverless invocations", Fieldset.ASSUMPTIONS, unit="per month"
    ).field(1000, ge=0, le=100_000_000)  # fmt: skip
    cold_start_s: Number = Input(
        "Cold start", Fieldset.ASSUMPTIONS, unit="seconds per invocation"
    ).field(20, ge=0, le=3600)  # fmt: skip
    assumed_egress_usd_per_gb: MaybeNumber = Input(
        "Egress where the provider publishes no price", Fieldset.ASSUMPTIONS, unit="USD per GB",
        placeholder="unknown", help=NONE_IS_UNKNOWN,
    ).field(None, ge=0, le=10)  # fmt: skip
    assumed_storage_usd_per_gb_month: MaybeNumber = Input(
        "Storage where the provider publishes no price", Fieldset.ASSUMPTIONS, unit="USD per GB-month",
        placeholder="unknown", help=NONE_IS_UNKNOWN,
    ).field(None, ge=0, le=10)  # fmt: skip
    currency: CurrencyCode = Input(
        "Show money in", Fieldset.DATA, widget=Widget.CHOICE, options=CURRENCIES,
        help="EUR converts at the exchange rate of the prices quoted",
    ).field("USD")  # fmt: skip

    @property
    def dated_kept(self) -> dict[str, Any]:
        """What a saved link adds so that "only prices dated within N days" keeps the prices it passed when
        saved: the day it counts back from."""
        return {"dated_on": self.dated_on or ages.today()} if self.dated_within is not None else {}

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
                Tenancy.OWNED: self.virt_tax_bare_metal / 100,
            },
            invocations=self.invocations,
            cold_start_s=self.cold_start_s,
            assumed_egress_usd_per_gb=self.assumed_egress_usd_per_gb,
            assumed_storage_usd_per_gb_month=self.assumed_storage_usd_per_gb_month,
        )


FieldErrors = dict[str, str]
