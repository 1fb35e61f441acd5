"""Passwords (argon2), signing in, and server-side sessions that expire."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from functools import cache, partial

from anyio import to_thread
from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session, col, delete, select

from app.admin.password_checks import PasswordChecks
from app.admin.tables import AdminSession, AdminUser
from app.admin.throttle import Attempt, strike_off
from app.platform.db import in_a_session
from app.platform.settings import settings


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher(
        time_cost=settings.password_hash_time_cost,
        memory_cost=settings.password_hash_memory_kib,
        parallelism=settings.password_hash_parallelism,
    )


@cache
def dummy_hash() -> str:
    """Verified against when the account does not exist, so that timing does not tell; made at
    start (app/main.py), so that the first unknown name costs no more than the others."""
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


async def authenticate(
    db: sessionmaker[Session], checks: PasswordChecks, attempt: Attempt, username: str, password: str,
    failures: int = 0,
) -> AdminUser | None:  # fmt: skip
    """The admin if the password is right (the attempt is then struck off); None if not; ChecksBusy
    (app/admin/password_checks.py) if the checks are too busy to take it. `failures`: those on record
    from the attempt's address, fewest checked first.

    The hash is read in a session of its own and checked with none open, under the process's bound
    on checks at once: argon2 takes most of a second and 64 MiB at production settings, and a burst
    of sign-ins must hold neither the pool's connections nor a check's memory each. A name no admin
    has is checked against the dummy hash under the same bound, so that no answer tells it apart."""
    found = await to_thread.run_sync(in_a_session, db, _account_of, username)
    if not await checks.run(partial(_verifies, found[1] if found else None, password), failures):
        return None
    assert found is not None
    return await to_thread.run_sync(in_a_session, db, _signed_in, attempt, found[0])


def _account_of(session: Session, username: str) -> tuple[int, str] | None:
    """The admin's id and password hash, if there is an admin by that name."""
    found = session.exec(select(AdminUser.id, AdminUser.password_hash).where(AdminUser.username == username)).first()
    return None if found is None or found[0] is None else (found[0], found[1])


def _verifies(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher().verify(password_hash or dummy_hash(), password)
    except VerificationError:
        return False


def _signed_in(session: Session, attempt: Attempt, user_id: int) -> AdminUser | None:
    """The admin whose password proved right, the attempt struck off and expired sessions cleared."""
    strike_off(session, attempt)
    session.execute(delete(AdminSession).where(col(AdminSession.expires_at) < datetime.now(UTC)))
    user = session.get(AdminUser, user_id)
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
