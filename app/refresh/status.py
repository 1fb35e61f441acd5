"""Each source's last refresh that succeeded and last that failed, kept in the database so that
every replica's admin page shows what the scheduled refresh did, wherever it ran."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import Field, Session, SQLModel, select

NOTE_MAX = 2000


# A source's last applied refresh and last failed one, each with its time and what it said.
class RefreshStatus(SQLModel, table=True):
    source: str = Field(primary_key=True, max_length=64)
    succeeded_at: datetime | None = None
    success_note: str = Field(default="", max_length=NOTE_MAX)
    failed_at: datetime | None = None
    failure_note: str = Field(default="", max_length=NOTE_MAX)


def record(session: Session, source: str, ok: bool, note: str) -> None:
    """A refresh of `source` that succeeded (`ok`) or failed, at this moment, with what it said."""
    status = session.get(RefreshStatus, source) or RefreshStatus(source=source)
    now, note = datetime.now(UTC), note[:NOTE_MAX]
    if ok:
        status.succeeded_at, status.success_note = now, note
    else:
        status.failed_at, status.failure_note = now, note
    session.add(status)
    session.commit()


def statuses(session: Session) -> dict[str, RefreshStatus]:
    return {status.source: status for status in session.exec(select(RefreshStatus))}
