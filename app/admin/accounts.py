"""Passwords (argon2), sign-in with throttling, and server-side sessions that expire."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from sqlmodel import Session, col, delete, func, select

from app.admin.tables import AdminSession, AdminUser, LoginFailure
from app.settings import settings


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


FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_ACCOUNT_AND_CLIENT = 5
MAX_FAILURES_PER_CLIENT = 20
MAX_FAILURES_PER_ACCOUNT = 50
PASSWORD_MIN = 12


class Throttled(Exception):
    """Too many failed sign-ins for this account or from this address."""


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


def _failures(session: Session, since: datetime, **match: str) -> int:
    query = select(func.count()).select_from(LoginFailure).where(LoginFailure.at >= since)
    for column, value in match.items():
        query = query.where(getattr(LoginFailure, column) == value)
    return session.exec(query).one()


def authenticate(session: Session, username: str, password: str, client_key: str) -> AdminUser | None:
    """The admin if the password is right; None if not.

    Each attempt is written down as a failure before the password is checked (and struck off if it
    was right), so parallel guesses count too. Throttled: 5 failures for one account from one
    address, 20 from one address, or 50 for one account from anywhere, within 15 minutes; a wrong
    guesser elsewhere thus cannot lock the real admin out with a handful of tries.
    """
    attempt = LoginFailure(username=username[:64], client_key=client_key)
    session.add(attempt)
    session.commit()
    since = datetime.now(UTC) - FAILURE_WINDOW
    if (
        _failures(session, since, username=username, client_key=client_key) > MAX_FAILURES_PER_ACCOUNT_AND_CLIENT
        or _failures(session, since, client_key=client_key) > MAX_FAILURES_PER_CLIENT
        or _failures(session, since, username=username) > MAX_FAILURES_PER_ACCOUNT
    ):
        raise Throttled("Too many failed sign-ins. Wait 15 minutes and try again.")
    user = session.exec(select(AdminUser).where(AdminUser.username == username)).first()
    try:
        _hasher().verify(user.password_hash if user else _dummy_hash(), password)
    except VerificationError:
        return None
    assert user is not None
    session.execute(delete(LoginFailure).where(col(LoginFailure.username) == username))
    session.execute(delete(LoginFailure).where(col(LoginFailure.at) < since))
    session.execute(delete(AdminSession).where(col(AdminSession.expires_at) < datetime.now(UTC)))
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
