"""Sign-in throttling slows a guesser without locking out the owner of the password (issue 18):
failures for an account from everywhere make attempts wait, never refuse them."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlmodel import Session, SQLModel, func, select

from app.admin.accounts import create_admin
from app.admin.tables import LoginFailure
from app.admin.throttle import Throttled, delay_for, record_attempt
from app.main import app, create_app
from app.platform.db import make_engine
from app.web.admin import auth
from tests.web.helpers import PASSWORD, sign_in

STRANGERS = [f"198.51.100.{i}" for i in range(10)]
OWNER = "203.0.113.7"
WRONG = "wrong password!"


@pytest.fixture
def admin(session):
    return create_admin(session, "alice", PASSWORD)


@pytest.fixture
def waits(monkeypatch):
    """The waits the sign-in route asks for, recorded instead of waited."""
    asked: list[float] = []

    async def wait(seconds: float) -> None:
        asked.append(seconds)

    monkeypatch.setattr(auth, "sleep", wait)
    return asked


def _from(address):
    return TestClient(app, client=(address, 40000))


def _fifty_failures_from_ten_strangers():
    for address in STRANGERS:
        for _ in range(5):
            assert sign_in(_from(address), password=WRONG).status_code == 401


def test_owner_signs_in_after_50_failures_from_strangers(client, session, admin, waits):
    _fifty_failures_from_ten_strangers()
    assert sign_in(_from(OWNER)).status_code == 303
    assert [sign_in(_from(address), password=WRONG).status_code for address in STRANGERS] == [429] * 10


def test_the_owners_sign_in_forgives_no_strangers_failures(client, session, admin, waits):
    guesser = _from(STRANGERS[0])
    assert [sign_in(guesser, password=WRONG).status_code for _ in range(5)] == [401] * 5
    assert sign_in(_from(OWNER)).status_code == 303
    assert sign_in(guesser, password=WRONG).status_code == 429


def test_the_wait_doubles_from_a_quarter_second_past_ten_failures_for_the_account_up_to_four():
    """The attempt itself counts: the 11th failure on record waits 0.25 s, the 12th 0.5, the 13th 1,
    the 14th 2, the 15th and every later one 4."""
    assert [delay_for(n) for n in (0, 1, 10, 11, 12, 13, 14, 15, 51, 10**9)] == [0, 0, 0, 0.25, 0.5, 1, 2, 4, 4, 4]


def test_each_sign_in_waits_as_its_accounts_failures_say_before_its_password_is_checked(
    client, session, admin, monkeypatch
):
    happened: list[tuple] = []

    async def wait(seconds: float) -> None:
        happened.append(("wait", seconds))

    check = PasswordHasher.verify

    def checked(hasher, hash, password):
        happened.append(("check",))
        return check(hasher, hash, password)

    monkeypatch.setattr(auth, "sleep", wait)
    monkeypatch.setattr(PasswordHasher, "verify", checked)
    _fifty_failures_from_ten_strangers()
    assert sign_in(_from(OWNER)).status_code == 303
    expected_waits = [0] * 10 + [0.25, 0.5, 1, 2] + [4] * 37  # failures 1-10, 11-14, 15-50 and the owner's
    assert [step[0] for step in happened] == [kind for _ in expected_waits for kind in ("wait", "check")]
    waited = [step[1] for step in happened if step[0] == "wait"]
    assert waited == pytest.approx(expected_waits, abs=0.1), "each less the time its attempt took to record"
    assert all(0 <= wait <= delay for wait, delay in zip(waited, expected_waits, strict=True))


def test_no_database_connection_is_held_while_a_password_is_checked(database_url, monkeypatch):
    """argon2 takes about 0.7 s at production settings: a burst of sign-ins must not hold connections."""
    app = create_app(database_url)
    held_during_check = []
    check = PasswordHasher.verify

    def checked(hasher, hash, password):
        held_during_check.append(app.state.engine.pool.checkedout())
        return check(hasher, hash, password)

    monkeypatch.setattr(PasswordHasher, "verify", checked)
    with TestClient(app) as client:
        with Session(app.state.engine) as session:
            create_admin(session, "alice", PASSWORD)
        assert sign_in(client, password=WRONG).status_code == 401
        assert sign_in(client).status_code == 303
    assert held_during_check == [0, 0]


def test_thirty_guesses_at_once_from_one_address_are_all_on_record_and_at_most_five_go_on(database_url):
    """Each attempt is on record before it counts the others, so however they interleave, the k-th
    to be written counts at least k and only the first five can pass."""
    engine = make_engine(database_url)
    SQLModel.metadata.create_all(engine)
    ready = threading.Barrier(30)
    passed = []

    def guess() -> None:
        with Session(engine) as session:
            ready.wait()
            try:
                passed.append(record_attempt(session, "alice", "guesser"))
            except Throttled:
                pass

    threads = [threading.Thread(target=guess) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(LoginFailure)).one() == 30
    engine.dispose()
    assert len(passed) <= 5


def test_failures_older_than_the_window_are_cleared_by_any_attempt_not_only_by_a_sign_in(session, admin):
    """A guesser who never gets in must not grow the table without end: it holds one window."""
    old = datetime.now(UTC) - timedelta(minutes=16)
    session.add_all([LoginFailure(username="alice", client_key="k", at=old) for _ in range(30)])
    session.commit()
    record_attempt(session, "alice", "another")
    assert session.exec(select(func.count()).select_from(LoginFailure)).one() == 1
