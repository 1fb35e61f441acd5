"""A model preset added or changed: a catalog version of its own, refused if the preset changed
since the admin's form was opened."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from app.catalog.changes import commit_change, replace_current
from app.catalog.tables import ModelPresetVersion, Provenance


def save_preset(
    session: Session, key: str, architecture: dict[str, Any], provenance: Provenance, note: str, who: str,
    based_on: int | None = None,
) -> int:  # fmt: skip
    """`architecture`: name, parameters, active_parameters, parameters_source, layers, hidden_size,
    attention_heads, kv_heads, head_dim, default_context."""
    version, _ = replace_current(session, ModelPresetVersion, "key", key, f"model preset {key}", note, who, based_on)
    session.add(ModelPresetVersion(key=key, valid_from=version, **architecture, **provenance.model_dump()))
    commit_change(session)
    return version
