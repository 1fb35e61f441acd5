"""Model presets as catalog data: a model's published architecture, versioned like a price, so a
saved scenario sized from a preset keeps the numbers it was sized with."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlmodel import Session, col, select

from app.catalog.tables import ModelPresetVersion, valid_at
from app.costing.memory import ModelShape


@dataclass(frozen=True)
class PresetRecord:
    key: str
    name: str
    parameters: int
    active_parameters: int | None
    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    head_dim: int
    default_context: int
    source: str
    parameters_source: str
    as_of: date | None
    notes: str

    @property
    def shape(self) -> ModelShape:
        return ModelShape(float(self.parameters), self.layers, self.hidden_size, self.kv_heads, self.head_dim)


def presets_at(session: Session, version: int) -> dict[str, PresetRecord]:
    query = (
        select(ModelPresetVersion)
        .where(valid_at(ModelPresetVersion, version))
        .order_by(col(ModelPresetVersion.parameters))
    )
    return {
        p.key: PresetRecord(
            p.key,
            p.name,
            p.parameters,
            p.active_parameters,
            p.layers,
            p.hidden_size,
            p.attention_heads,
            p.kv_heads,
            p.head_dim,
            p.default_context,
            p.source,
            p.parameters_source,
            p.as_of,
            p.notes,
        )  # fmt: skip
        for p in session.exec(query)
    }
