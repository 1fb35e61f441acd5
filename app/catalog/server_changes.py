"""A server a buyer may own added, changed or retired: a catalog version of its own (which is also the
audit log's entry), refused if the server changed since the admin's form was opened."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from app.catalog.changes import Change, StaleRecord, commit_change, last_change, replace_current, replace_record
from app.catalog.server_tables import OwnedServerVersion
from app.catalog.tables import GpuModel, Provenance


def server_changed(session: Session, key: str) -> int:
    """The last version that added, changed or retired the server `key` (0: none): an edit's `based_on`."""
    return last_change(session, OwnedServerVersion, "key", key)


def save_server(session: Session, key: str, fields: dict[str, Any], provenance: Provenance, change: Change) -> int:
    """`fields`: the server's (SERVER_CHECKS'), its GPU model by name (`gpu`). Returns the new version."""
    gpu_id = session.exec(select(GpuModel.id).where(GpuModel.name == fields["gpu"])).first()
    assert gpu_id is not None, "the form checks the GPU model is in the catalog"
    server = {name: value for name, value in fields.items() if name != "gpu"} | {"gpu_model_id": gpu_id}
    return replace_record(session, OwnedServerVersion, "key", key, f"server {key}", change, provenance, [server])


def retire_server(session: Session, key: str, change: Change) -> int:
    """Take a server out of new quotes from a new version on; it stays in history, and quotes at
    earlier versions keep it. StaleRecord if it changed since `change.based_on` or is not current."""
    version, closed = replace_current(session, OwnedServerVersion, "key", key, f"server {key}", change)
    if not closed:
        session.rollback()
        raise StaleRecord(f"there is no current server {key}")
    commit_change(session)
    return version
