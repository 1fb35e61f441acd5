"""Model presets as catalog data: a model's published architecture, versioned like a price, so a
saved scenario sized from a preset keeps the numbers it was sized with."""

from __future__ import annotations

from sqlmodel import Session, col, select
from sqlmodel.main import SQLModelConfig

from app.catalog.tables import ModelPresetVersion, PresetBase, valid_at
from app.costing.memory import ModelShape


class PresetRecord(PresetBase):
    """A preset as a catalog version holds it."""

    model_config = SQLModelConfig(frozen=True)

    @property
    def shape(self) -> ModelShape:
        return ModelShape(
            float(self.parameters), self.layers, self.hidden_size, self.kv_heads, self.head_dim, self.kv_latent
        )


def presets_at(session: Session, version: int) -> dict[str, PresetRecord]:
    query = (
        select(ModelPresetVersion)
        .where(valid_at(ModelPresetVersion, version))
        .order_by(col(ModelPresetVersion.parameters))
    )
    return {p.key: PresetRecord.model_validate(p, from_attributes=True) for p in session.exec(query)}
