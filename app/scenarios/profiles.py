"""Uploaded demand profiles, kept under a key derived from their hours and never changed: the page
carries the key in its URL, which the hours (up to a year of them) would not fit."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlmodel import Field, Session, SQLModel

from app.platform.db import serialised
from app.platform.settings import settings
from app.scenarios.store import refuse_beyond_limits

KEY_HEX = 16
"""64 bits of the hours' SHA-256: one key per profile among any number a calculator keeps."""
KEY = re.compile(r"^[0-9a-f]{1,64}$")


def _now() -> datetime:
    return datetime.now(UTC)


# One demand profile: GPUs in use hour by hour, one hour a line, under the key its hours make.
class DemandProfile(SQLModel, table=True):
    key: str = Field(primary_key=True, max_length=KEY_HEX)
    hours: str
    created_at: datetime = Field(default_factory=_now, index=True)
    client_key: str = Field(index=True, max_length=64)
    """The client that first kept it, whose uploads are counted against its limit."""


def profile_text(hours: Sequence[int]) -> str:
    """The hours as kept: the same profile is the same text (and key) however it was written."""
    return "\n".join(str(gpus) for gpus in hours)


def profile_key(hours: Sequence[int]) -> str:
    return hashlib.sha256(profile_text(hours).encode()).hexdigest()[:KEY_HEX]


def keep_profile(session: Session, hours: Sequence[int], client_key: str) -> str:
    """The profile's key, its row inserted unless kept already. Under one lock for every keeper, so
    the same hours sent at once land once, and uploads sent at once count each other."""
    with serialised(session, f"profile uploads by {client_key}", "profile uploads"):
        key = profile_key(hours)
        if session.get(DemandProfile, key) is None:
            limits = settings.uploads_per_client_per_10_min, settings.uploads_per_hour
            refuse_beyond_limits(session, DemandProfile, client_key, limits, ("profiles", "uploaded", "Uploading"))
            add_profile(session, hours, client_key)
    return key


def add_profile(session: Session, hours: Sequence[int], client_key: str) -> None:
    """The profile's row added unless kept already, uncounted: a saved scenario's hours, in its save's
    transaction, whose limits count them (the same hours saved at once elsewhere: the save retries)."""
    key = profile_key(hours)
    if session.get(DemandProfile, key) is None:
        session.add(DemandProfile(key=key, hours=profile_text(hours), client_key=client_key))


def profile_hours(session: Session, key: str) -> str | None:
    """The hours kept under `key`, one a line; None for a key no upload made here."""
    found = session.get(DemandProfile, key) if KEY.match(key) else None
    return found.hours if found else None
