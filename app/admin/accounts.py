"""Passwords (argon2), signing in, and server-side sessions that expire."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from sqlmodel import Session, col, delete, select

from app.admin.tables import AdminSession, AdminUser
from app.admin.throttle import Attempt, strike_off
from app.platform.settings import settings


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher(
        time_cost=settings.password_hash_time_cost,
        memory_cost=settings.password_hash_memory_kib,
        parallelism=settings.password_hash_parallelism,
    )


@cache
def _dummy_hash() -> str:
    """Verified against when the account does not exist, so that timing does not tell."""
    return _hasher().hash(secrets.token_urlsafe(16))


PASSWORD_MIN = 12


def create_admin(session: Session, username: str, password: str) -> AdminUser:
    if len(password) < PASSWORD_MIN:
        raise ValueError(f"the password needs at least {PASSWORD_MIN} characters")
    if session.exec(select(AdminUser).where(AdminUser.username == username)).first():
        raise ValueError(f"there is already an admin called {username}")
    user = AdminUser(username=username, password_hash=_hasher().hash(password))
    session.add(user)
    session.commit()
    session.refresh(user)
    return user


def authenticate(session: Session, attempt: Attempt, username: str, password: str) -> AdminUser | None:
    """The admin if the password is right (the attempt is then struck off); None if not.

    The hash is read in one short transaction and verified with none open: argon2 takes most of a
    second at production settings, and a burst of sign-ins must not hold the pool's connections."""
    found = session.exec(select(AdminUser.id, AdminUser.password_hash).where(AdminUser.username == username)).first()
    session.commit()
    try:
        _hasher().verify(found[1] if found else _dummy_hash(), password)
    except VerificationError:
        return None
    assert found is not None
    strike_off(session, attempt)
    session.execute(delete(AdminSession).where(col(AdminSession.expires_at) < datetime.now(UTC)))
    user = session.get(AdminUser, found[0])
    session.commit()
    return user


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start_session(session: Session, user: AdminUser) -> str:
    """A new session token for the cookie; only its hash is stored."""
    token = secrets.token_urlsafe(32)
    expires = datetime.now(UTC) + timedelta(hours=settings.admin_session_hours)
    assert user.id is not None
    session.add(AdminSession(token_hash=_hash(token), user_id=user.id, expires_at=expires))
    session.commit()
    return token


def session_user(session: Session, token: str | None) -> AdminUser | None:
    if not token:
        return None
    found = session.exec(select(AdminSession).where(AdminSession.token_hash == _hash(token))).first()
    if found is None or found.expires_at.replace(tzinfo=found.expires_at.tzinfo or UTC) <= datetime.now(UTC):
        return None
    return session.get(AdminUser, found.user_id)


def end_session(session: Session, token: str | None) -> None:
    if token:
        session.execute(delete(AdminSession).where(col(AdminSession.token_hash) == _hash(token)))
        session.commit()
