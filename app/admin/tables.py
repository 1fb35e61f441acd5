"""Admin accounts, their sign-in sessions, and failed sign-ins (for throttling)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import Field, SQLModel


def _now() -> datetime:
    return datetime.now(UTC)


# An admin; created by the command line only, never with a default password.
class AdminUser(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(unique=True, index=True, max_length=64)
    password_hash: str
    created_at: datetime = Field(default_factory=_now)


# A signed-in browser: the cookie holds a random token, the table only its SHA-256.
class AdminSession(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(unique=True, index=True, max_length=64)
    user_id: int = Field(foreign_key="adminuser.id", index=True)
    expires_at: datetime


# One failed sign-in, counted per account and per client address over a window.
class LoginFailure(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(index=True, max_length=64)
    client_key: str = Field(index=True, max_length=64)
    at: datetime = Field(default_factory=_now, index=True)
