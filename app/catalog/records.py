"""What a catalog version's records share: where each fact was read, and how a version's rows of a
table that names a GPU model become records naming it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from sqlmodel import Session, select

from app.catalog.server_tables import OwnedServerVersion
from app.catalog.tables import GpuModel, valid_at
from app.catalog.throughput_tables import GpuBandwidthVersion, GpuPeakVersion, ThroughputVersion, TrainingScalingVersion

Record = TypeVar("Record")


@dataclass(frozen=True, kw_only=True)
class Sourced:
    """A fact's provenance, as its row's `Provenance` states it."""

    source: str
    as_of: date | None
    source_kind: str
    quote: str
    notes: str


def records_at(
    session: Session,
    table: type[ThroughputVersion]
    | type[GpuPeakVersion]
    | type[GpuBandwidthVersion]
    | type[TrainingScalingVersion]
    | type[OwnedServerVersion],
    version: int,
    record: Callable[..., Record],
    measure: str = "",
) -> Iterator[Record]:
    """`table`'s rows at `version` as records, which name their GPU model where a row holds its id, and
    hold their `measure` (where one is named) as a float."""
    gpus = {g.id: g.name for g in session.exec(select(GpuModel))}
    for row in session.exec(select(table).where(valid_at(table, version))):
        fields = row.model_dump(exclude={"id", "valid_from", "valid_to"})
        fields["gpu"] = gpus[fields.pop("gpu_model_id")]
        if measure:
            fields[measure] = float(fields[measure])
        yield record(**fields)
