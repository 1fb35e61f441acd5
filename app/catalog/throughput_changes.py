"""A throughput benchmark, a GPU model's dense peak or its memory bandwidth added or changed: a catalog
version of its own, refused if the record changed since the admin's form was opened."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlmodel import Session, select

from app.catalog.changes import Change, commit_change, last_change, replace_current, replace_record
from app.catalog.tables import GpuModel, Provenance
from app.catalog.throughput_tables import PEAK_RECORD, GpuBandwidthVersion, GpuPeakVersion, ThroughputVersion


def _gpu_id(session: Session, gpu: str) -> int | None:
    return session.exec(select(GpuModel.id).where(GpuModel.name == gpu)).first()


def save_throughput(session: Session, key: str, fields: dict[str, Any], provenance: Provenance, change: Change) -> int:
    """`fields`: the benchmark's (BENCHMARK_CHECKS' and `parameters`), its GPU model by name (`gpu`)."""
    version, _ = replace_current(session, ThroughputVersion, "key", key, f"throughput {key}", change)
    gpu_id = _gpu_id(session, fields["gpu"])
    assert gpu_id is not None, "the form checks the GPU model is in the catalog"
    benchmark = {name: value for name, value in fields.items() if name != "gpu"}
    session.add(ThroughputVersion(key=key, gpu_model_id=gpu_id, valid_from=version, **benchmark,
                                  **provenance.model_dump()))  # fmt: skip
    commit_change(session)
    return version


def peak_changed(session: Session, gpu: str, precision: str) -> int:
    """The last version that changed a GPU model's peak at a precision (0: none): an edit's `based_on`."""
    return last_change(session, GpuPeakVersion, PEAK_RECORD, (_gpu_id(session, gpu), precision))


def save_peak(
    session: Session, gpu: str, precision: str, dense_tflops: Decimal, provenance: Provenance, change: Change
) -> int:
    gpu_id = _gpu_id(session, gpu)
    assert gpu_id is not None, "the form checks the GPU model is in the catalog"
    record = f"gpu peak {gpu} {precision}"
    version, _ = replace_current(session, GpuPeakVersion, PEAK_RECORD, (gpu_id, precision), record, change)
    session.add(GpuPeakVersion(gpu_model_id=gpu_id, precision=precision, dense_tflops=dense_tflops,
                               valid_from=version, **provenance.model_dump()))  # fmt: skip
    commit_change(session)
    return version


def bandwidth_changed(session: Session, gpu: str) -> int:
    """The last version that changed a GPU model's memory bandwidth (0: none): an edit's `based_on`."""
    return last_change(session, GpuBandwidthVersion, "gpu_model_id", _gpu_id(session, gpu))


def save_bandwidth(session: Session, gpu: str, tb_per_s: Decimal, provenance: Provenance, change: Change) -> int:
    """A GPU model's one current memory bandwidth, TB/s, from a new version on."""
    gpu_id = _gpu_id(session, gpu)
    assert gpu_id is not None, "the form checks the GPU model is in the catalog"
    record = f"gpu bandwidth {gpu}"
    return replace_record(session, GpuBandwidthVersion, "gpu_model_id", gpu_id, record, change, provenance,
                          [{"tb_per_s": tb_per_s}])  # fmt: skip
