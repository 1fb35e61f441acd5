"""Admin throughput benchmarks, GPU models' dense peaks and memory bandwidths: add or change one, as a
new catalog version with its source."""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import last_change
from app.catalog.queries import preset_by_key
from app.catalog.snapshot import CatalogSnapshot
from app.catalog.tables import CatalogVersion
from app.catalog.throughput import BandwidthRecord, PeakRecord, ThroughputRecord
from app.catalog.throughput_changes import (
    bandwidth_changed,
    peak_changed,
    save_bandwidth,
    save_peak,
    save_throughput,
)
from app.catalog.throughput_rows import (
    BANDWIDTH_CHECKS,
    BENCHMARK_CHECKS,
    PEAK_CHECKS,
    BenchmarkKind,
    Scenario,
    conditions_refused,
    throughput_key,
)
from app.catalog.throughput_tables import ThroughputVersion
from app.costing.memory import Precision
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, PostedForm
from app.web.admin.forms import KNOWN_GPU, SOURCE_KINDS, Errors, FactEdit, answer, checked, in_catalog
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

KNOWN_PRESET = in_catalog(preset_by_key, "choose a model preset of the catalog (add it under Model presets first)")


class ThroughputEdit(FactEdit):
    """A benchmark under its conditions, with where it was read; the model's parameters in billions."""

    conflict = "Someone changed this benchmark after you opened the page; the current one is shown, yours below."
    key: Annotated[str, checked(throughput_key)]
    kind: Annotated[str, checked(BENCHMARK_CHECKS["kind"])]
    model: Annotated[str, checked(BENCHMARK_CHECKS["model"])]
    preset: Annotated[str, checked(BENCHMARK_CHECKS["preset"]), KNOWN_PRESET]
    parameters_b: Annotated[int, checked(check.billions)]
    gpu: Annotated[str, checked(BENCHMARK_CHECKS["gpu"]), KNOWN_GPU]
    gpus: Annotated[int, checked(BENCHMARK_CHECKS["gpus"])]
    precision: Annotated[str, checked(BENCHMARK_CHECKS["precision"])]
    precision_published: Annotated[str, checked(BENCHMARK_CHECKS["precision_published"])]
    engine: Annotated[str, checked(BENCHMARK_CHECKS["engine"])]
    scenario: Annotated[str, checked(BENCHMARK_CHECKS["scenario"])]
    input_tokens: Annotated[int | None, checked(BENCHMARK_CHECKS["input_tokens"])]
    output_tokens: Annotated[int | None, checked(BENCHMARK_CHECKS["output_tokens"])]
    sequence_length: Annotated[int | None, checked(BENCHMARK_CHECKS["sequence_length"])]
    ttft_ms: Annotated[float | None, checked(BENCHMARK_CHECKS["ttft_ms"])]
    tbt_ms: Annotated[float | None, checked(BENCHMARK_CHECKS["tbt_ms"])]
    latency_published: Annotated[str, checked(BENCHMARK_CHECKS["latency_published"])]
    tokens_per_s: Annotated[Decimal, checked(BENCHMARK_CHECKS["tokens_per_s"])]

    def refused(self) -> Errors:
        return conditions_refused(self.model_dump())

    @property
    def benchmark(self) -> dict[str, Any]:
        """What `save_throughput` stores: every field but the key, the parameters as a whole number."""
        return {name: getattr(self, name) for name in BENCHMARK_CHECKS} | {"parameters": self.parameters_b}


class PeakEdit(FactEdit):
    """A GPU model's dense peak at one precision; posted by its names, keyed `peak_` on the page."""

    prefix = "peak_"
    conflict = "Someone changed this peak after you opened the page; the current one is shown, yours below."
    gpu: Annotated[str, checked(PEAK_CHECKS["gpu"]), KNOWN_GPU]
    precision: Annotated[str, checked(PEAK_CHECKS["precision"])]
    dense_tflops: Annotated[Decimal, checked(PEAK_CHECKS["dense_tflops"])]


class BandwidthEdit(FactEdit):
    """A GPU model's memory bandwidth, TB/s; posted by its names, keyed `bandwidth_` on the page."""

    prefix = "bandwidth_"
    conflict = "Someone changed this bandwidth after you opened the page; the current one is shown, yours below."
    gpu: Annotated[str, checked(BANDWIDTH_CHECKS["gpu"]), KNOWN_GPU]
    tb_per_s: Annotated[Decimal, checked(BANDWIDTH_CHECKS["tb_per_s"])]


def _as_typed(value: object) -> str:
    """A stored figure as an admin would type it again: 2909, not 2909.0; nothing as empty."""
    if value is None:
        return ""
    return check.decimal_text(Decimal(str(value))) if isinstance(value, float) else str(value)


def _benchmark_values(now: ThroughputRecord) -> dict[str, str]:
    typed = {name: _as_typed(getattr(now, name)) for name in BENCHMARK_CHECKS}
    return typed | {"key": now.key, "parameters_b": f"{now.parameters / 1e9:g}", "notes": now.notes}


def _peak_values(now: PeakRecord) -> dict[str, str]:
    typed = {"gpu": now.gpu, "precision": now.precision, "dense_tflops": _as_typed(now.dense_tflops)}
    return {f"peak_{name}": value for name, value in (typed | {"notes": now.notes}).items()}


def _bandwidth_values(now: BandwidthRecord) -> dict[str, str]:
    typed = {"gpu": now.gpu, "tb_per_s": _as_typed(now.tb_per_s), "notes": now.notes}
    return {f"bandwidth_{name}": value for name, value in typed.items()}


def _shown(now: ThroughputRecord | None, peak: PeakRecord | None, bandwidth: BandwidthRecord | None) -> dict[str, str]:
    """What the forms are filled in with: each record opened, as an admin would type it again."""
    return (
        (_benchmark_values(now) if now else {})
        | (_peak_values(peak) if peak else {})
        | (_bandwidth_values(bandwidth) if bandwidth else {})
    )


def _page(
    request: Request, admin: AdminUser, db: Database, catalogs: CatalogsDep, status: int = 200,
    errors: Errors | None = None, values: dict[str, str] | None = None, *, key: str = "", gpu: str = "",
    precision: str = "", bandwidth: str = "",
) -> Response:  # fmt: skip
    """The benchmarks, peaks and bandwidths now, and a form for each: a benchmark's (`key`'s, else
    empty), a peak's (`gpu` at `precision`'s) and a bandwidth's (GPU model `bandwidth`'s); refused as
    stale, with the change that came first."""
    catalog = catalogs.current()
    now = next((t for t in catalog.throughput if t.key == key), None)
    peak = catalog.peaks.get((gpu, precision))
    bandwidth_now = catalog.bandwidths.get(bandwidth)
    with db() as session:
        based_on = last_change(session, ThroughputVersion, "key", key) if key else 0
        peak_based_on = peak_changed(session, gpu, precision) if gpu else 0
        bandwidth_based_on = bandwidth_changed(session, bandwidth) if bandwidth else 0
        first = based_on or peak_based_on or bandwidth_based_on
        change = session.get(CatalogVersion, first) if errors and "conflict" in errors else None
    return admin_page(
        request, admin, "throughput", status, catalog=catalog, now=now, peak=peak, bandwidth=bandwidth_now,
        based_on=based_on, peak_based_on=peak_based_on, bandwidth_based_on=bandwidth_based_on, change=change,
        source_kinds=SOURCE_KINDS, errors=errors or {}, values=_shown(now, peak, bandwidth_now) | (values or {}),
        **_options(catalog),
    )  # fmt: skip


def _options(catalog: CatalogSnapshot) -> dict[str, list[tuple[str, str]]]:
    """The choices of the forms' select fields, as (value, label): the catalog's presets and GPU
    models, and the kinds, scenarios and precisions a benchmark may state."""
    return {
        "kinds": [(k, k) for k in BenchmarkKind],
        "preset_options": [(p.key, p.name) for p in catalog.presets.values()],
        "gpu_options": [(g, g) for g in catalog.gpus],
        "scenarios": [(s, s.replace("_", " ")) for s in Scenario],
        "precisions": [(p, p) for p in Precision],
    }


@router.get("/throughput", response_class=HTMLResponse)
def throughput(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, key: str = "", gpu: str = "",
    precision: str = "", bandwidth: str = "",
) -> Response:  # fmt: skip
    return _page(request, admin, db, catalogs, key=key, gpu=gpu, precision=precision, bandwidth=bandwidth)


@router.post("/throughput", response_class=HTMLResponse)
def save_benchmark(request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm) -> Response:
    """A benchmark's every field as a new version; its key decides whether it is new."""

    def save(session: Session, edit: ThroughputEdit) -> str:
        save_throughput(session, edit.key, edit.benchmark, edit.provenance, edit.change(admin.username))
        return f"/admin/throughput?{urlencode({'key': edit.key})}"

    page = partial(_page, request, admin, db, catalogs, key=posted.get("key", ""))
    return answer(ThroughputEdit, posted, db, save, page)


@router.post("/throughput/peaks", response_class=HTMLResponse)
def save_gpu_peak(request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm) -> Response:
    """A GPU model's dense peak at a precision as a new version."""

    def save(session: Session, edit: PeakEdit) -> str:
        save_peak(session, edit.gpu, edit.precision, edit.dense_tflops, edit.provenance, edit.change(admin.username))
        return f"/admin/throughput?{urlencode({'gpu': edit.gpu, 'precision': edit.precision})}"

    page = partial(
        _page, request, admin, db, catalogs, gpu=posted.get("gpu", ""), precision=posted.get("precision", "")
    )
    return answer(PeakEdit, posted, db, save, page)


@router.post("/throughput/bandwidths", response_class=HTMLResponse)
def save_gpu_bandwidth(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm
) -> Response:
    """A GPU model's memory bandwidth as a new version."""

    def save(session: Session, edit: BandwidthEdit) -> str:
        save_bandwidth(session, edit.gpu, edit.tb_per_s, edit.provenance, edit.change(admin.username))
        return f"/admin/throughput?{urlencode({'bandwidth': edit.gpu})}"

    page = partial(_page, request, admin, db, catalogs, bandwidth=posted.get("gpu", ""))
    return answer(BandwidthEdit, posted, db, save, page)
