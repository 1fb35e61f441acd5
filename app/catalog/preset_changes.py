"""A model preset added or changed: a catalog version of its own, refused if the preset changed
since the admin's form was opened."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.catalog.changes import Change, replace_record
from app.catalog.tables import ModelPresetVersion, Provenance


def save_preset(
    session: Session, key: str, architecture: dict[str, Any], provenance: Provenance, change: Change
) -> int:
    """`architecture`: name, parameters, active_parameters, parameters_source, layers, hidden_size,
    attention_heads, kv_heads, head_dim, kv_latent (None: no latent), default_context."""
    return replace_record(session, ModelPresetVersion, "key", key, f"model preset {key}", change, provenance,
                          [architecture])  # fmt: skip
