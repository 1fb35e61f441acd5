"""Saved scenarios are written once and never changed; a new save makes a new row and slug."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import Field, SQLModel

NAME_MAX = 120
NOTE_MAX = 2000


def _now() -> datetime:
    return datetime.now(UTC)


# One saved scenario: the inputs as JSON, the catalog version they were quoted at, and a label.
class Scenario(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(unique=True, index=True, max_length=32)
    name: str = Field(default="", max_length=NAME_MAX)
    note: str = Field(default="", max_length=NOTE_MAX)
    params: str
    catalog_version: int = Field(foreign_key="catalogversion.id")
    totals: str = "[]"
    """The options' offers and totals as quoted at saving, JSON: the proof that opening the link
    later recomputes the same numbers (a change of the arithmetic itself would show up here)."""
    created_at: datetime = Field(default_factory=_now, index=True)
    client_key: str = Field(index=True, max_length=64)
