"""Sizing at a catalog version: a model (a preset, or its numbers typed in) and a run, checked at the
edge, worked into a memory need and the fit of every GPU model in the catalog."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from app.catalog.presets import PresetRecord
from app.catalog.snapshot import Catalogs, CatalogSnapshot
from app.costing.memory import Fit, Mode, ModelShape, Need, Precision, Run, fit, memory_need
from app.quoting.params.quote import FieldErrors, SizeParams

SHAPE_FIELDS = ("parameters_b", "layers", "hidden_size", "kv_heads", "head_dim")


@dataclass(frozen=True)
class Sizing:
    params: SizeParams
    catalog: CatalogSnapshot
    preset: PresetRecord | None
    run: Run
    need: Need
    fits: list[Fit]


def _shape(params: SizeParams, preset: PresetRecord | None) -> ModelShape | FieldErrors:
    """The preset's architecture with any number typed over it; without a preset, all of them."""
    if preset is None:
        missing = [name for name in SHAPE_FIELDS if getattr(params, name) is None]
        if missing:
            return {name: "choose a preset or give this number" for name in missing}
    base = preset.shape if preset else ModelShape(0.0, 0, 0, 0, 0)
    return ModelShape(
        parameters=params.parameters_b * 1e9 if params.parameters_b else base.parameters,
        layers=params.layers or base.layers,
        hidden_size=params.hidden_size or base.hidden_size,
        kv_heads=params.kv_heads or base.kv_heads,
        head_dim=params.head_dim or base.head_dim,
        kv_latent=None if params.kv_heads or params.head_dim else base.kv_latent,
    )


def _past_context(params: SizeParams, preset: PresetRecord | None, context: int) -> str:
    """Why a request longer than the context cannot be served, and what would."""
    tokens = f"{params.input_length:,} tokens in and {params.output_length:,} out"
    if preset is not None and params.input_length + params.output_length > preset.default_context:
        return f"{tokens} are more than {preset.name}'s context of {preset.default_context:,} tokens"
    return f"{tokens} are more than the {context:,}-token context sized for: raise Context to hold them"


def size(catalogs: Catalogs, params: SizeParams) -> Sizing | FieldErrors:
    catalog = catalogs.at(params.catalog_version)
    if catalog is None:
        return {"catalog_version": f"there is no catalog version {params.catalog_version}"}
    preset = catalog.presets.get(params.preset) if params.preset else None
    if params.preset and preset is None:
        return {"preset": "is not a model preset in the catalog"}
    shape = _shape(params, preset)
    if isinstance(shape, dict):
        return shape
    mode = params.run_mode
    if mode is Mode.FULL and params.weights not in (Precision.FP32, Precision.BF16):
        return {"weights": "full training keeps FP32 or BF16 weights (mixed-precision Adam)"}
    context = params.context if params.context is not None else preset.default_context if preset else 8192
    if params.serves and params.input_length + params.output_length > context:
        return {"input_length": _past_context(params, preset, context)}
    run = Run(shape, params.weights, mode, context, params.sequences, params.kv_cache)
    assumptions = params.sizing_assumptions()
    need = memory_need(run, assumptions)
    units = {gpu: max(o.priced.gpus_per_unit for o in offers) for gpu, offers in catalog.offers_by_gpu.items()}
    serving = mode is Mode.INFERENCE
    fits = [fit(need, gpu, memory, units.get(gpu), assumptions, serving) for gpu, memory in catalog.gpus.items()]
    fits.sort(key=lambda f: (not f.fits_a_unit, f.quoted, f.memory_gib, f.gpu))
    return Sizing(params, catalog, preset, run, need, fits)


class TermOut(BaseModel):
    name: str
    gb: float
    formula: str


class FitOut(BaseModel):
    gpu: str
    memory_gib: int
    gpus: int = Field(description="the least count whose usable memory holds the need")
    tensor_parallel: int = Field(description="the next power of two, for tensor-parallel serving")
    quoted: int = Field(description="the GPUs a quote rents at once: tensor_parallel when serving, else gpus")
    memory_used_pct: float = Field(description="of all the memory of the `quoted` GPUs")
    largest_unit: int | None = Field(description="the most GPUs of one offered instance or node; null: none offered")
    fits_a_unit: bool


class PresetOut(BaseModel):
    key: str
    name: str
    parameters: int
    active_parameters: int | None
    source: str
    parameters_source: str


class SizeOut(BaseModel):
    catalog_version: int
    params: SizeParams
    preset: PresetOut | None
    context: int
    need_gb: float
    checkpoint_gb: float
    terms: list[TermOut]
    fits: list[FitOut]


def size_out(s: Sizing) -> SizeOut:
    return SizeOut(
        catalog_version=s.catalog.version,
        params=s.params,
        preset=None if s.preset is None else PresetOut.model_validate(s.preset, from_attributes=True),
        context=s.run.context,
        need_gb=round(s.need.gb, 2),
        checkpoint_gb=round(s.need.checkpoint_bytes / 1e9, 2),
        terms=[TermOut(name=t.name, gb=round(t.gb, 3), formula=t.formula) for t in s.need.terms],
        fits=[
            FitOut(
                gpu=f.gpu,
                memory_gib=f.memory_gib,
                gpus=f.gpus,
                tensor_parallel=f.tensor_parallel,
                quoted=f.quoted,
                memory_used_pct=round(100 * f.utilisation(s.need), 1),
                largest_unit=f.largest_unit,
                fits_a_unit=f.fits_a_unit,
            )  # fmt: skip
            for f in s.fits
        ],
    )
