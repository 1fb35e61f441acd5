"""Sign-in throttling: which attempts are refused, and how long the others wait.

Every attempt is written down as a failure before anything is counted or checked, and only that
one row is struck off if its password was right, so guesses sent at once count each other and a
sign-in forgives no one else's failures. From one address, 5 failures for one account or 20 in
all within 15 minutes refuse the next attempt. Failures for one account from everywhere do not
refuse (a stranger could then lock its owner out from any address): past 10 they make each
attempt wait before its password is checked, twice as long for each further one, 4 s at most,
counted from when it was sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, col, delete, func, select

from app.admin.tables import LoginFailure

FAILURE_WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_ACCOUNT_AND_CLIENT = 5
MAX_FAILURES_PER_CLIENT = 20
ACCOUNT_FAILURES_BEFORE_DELAY = 10
DELAYS_S = (0.25, 0.5, 1.0, 2.0, 4.0)
"""The wait of the 11th failure on record for an account within the window, of the 12th, ...,
and of the 15th and every later one."""


class Throttled(Exception):
    """Too many failed sign-ins from this address."""


@dataclass(frozen=True)
class Attempt:
    """A sign-in attempt on record (as a failure until its password proves right)."""

    id: int
    delay_s: float
    """Seconds to wait before its password is checked."""


def delay_for(account_failures: int) -> float:
    """The wait of an attempt on an account with this many failures on record within the window,
    the attempt itself included."""
    beyond = account_failures - ACCOUNT_FAILURES_BEFORE_DELAY
    return 0.0 if beyond <= 0 else DELAYS_S[min(beyond, len(DELAYS_S)) - 1]


def _failures(session: Session, since: datetime, **match: str) -> int:
    query = select(func.count()).select_from(LoginFailure).where(LoginFailure.at >= since)
    for column, value in match.items():
        query = query.where(getattr(LoginFailure, column) == value)
    return session.exec(query).one()


def record_attempt(session: Session, username: str, client_key: str) -> Attempt:
    """Put the attempt on record, then count: refused (Throttled) beyond an address's limits,
    else its wait. Ends with no transaction open."""
    username = username[:64]
    since = datetime.now(UTC) - FAILURE_WINDOW
    session.execute(delete(LoginFailure).where(col(LoginFailure.at) < since))  # the table holds one window
    attempt = LoginFailure(username=username, client_key=client_key)
    session.add(attempt)
    session.flush()
    assert attempt.id is not None
    attempt_id = attempt.id
    session.commit()
    try:
        if (
            _failures(session, since, username=username, client_key=client_key) > MAX_FAILURES_PER_ACCOUNT_AND_CLIENT
            or _failures(session, since, client_key=client_key) > MAX_FAILURES_PER_CLIENT
        ):
            raise Throttled("Too many failed sign-ins. Wait 15 minutes and try again.")
        return Attempt(attempt_id, delay_for(_failures(session, since, username=username)))
    finally:
        session.commit()


def failures_from(session: Session, client_key: str) -> int:
    """The failures on record from one address within the window, its attempts under way included:
    where its password check queues (app/admin/password_checks.py)."""
    return _failures(session, datetime.now(UTC) - FAILURE_WINDOW, client_key=client_key)


def strike_off(session: Session, attempt: Attempt) -> None:
    """The attempt's password was right: it is no failure."""
    session.execute(delete(LoginFailure).where(col(LoginFailure.id) == attempt.id))
