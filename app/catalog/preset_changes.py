"""A model preset added or changed: a catalog version of its own, refused if the preset changed
since the admin's form was opened."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, func, select

from app.catalog.changes import StaleRecord, commit_change, new_version
from app.catalog.tables import ModelPresetVersion, Provenance


def last_preset_change(session: Session, key: str) -> int:
    changed = func.max(func.coalesce(ModelPresetVersion.valid_to, ModelPresetVersion.valid_from))
    return session.exec(select(changed).where(ModelPresetVersion.key == key)).one() or 0


def save_preset(
    session: Session, key: str, architecture: dict[str, Any], provenance: Provenance, note: str, who: str,
    based_on: int | None = None,
) -> int:  # fmt: skip
    """`architecture`: name, parameters, active_parameters, parameters_source, layers, hidden_size,
    attention_heads, kv_heads, head_dim, default_context."""
    version = new_version(session, note, who, f"model preset {key}")
    if based_on is not None and last_preset_change(session, key) != based_on:
        session.rollback()
        raise StaleRecord("changed by someone else since it was opened")
    session.execute(
        update(ModelPresetVersion)
        .where(col(ModelPresetVersion.key) == key, col(ModelPresetVersion.valid_to).is_(None))
        .values(valid_to=version)
    )
    session.add(ModelPresetVersion(key=key, valid_from=version, **architecture, **provenance.model_dump()))
    commit_change(session)
    return version
