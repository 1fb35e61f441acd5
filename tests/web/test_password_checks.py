"""Password checks bounded (issue 40): at most a few run at once, the others queue without a thread,
and one that would queue too long is refused at once, a name no admin has exactly like a known one."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import anyio
import pytest
from anyio import wait_all_tasks_blocked
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlmodel import func, select

from app.admin.accounts import create_admin
from app.admin.password_checks import FIRST_GUESS_S, ChecksBusy, PasswordChecks
from app.admin.tables import LoginFailure
from app.deps import get_password_checks
from app.main import app
from tests.web.helpers import PASSWORD, html, sign_in


def test_no_more_checks_run_at_once_than_the_bound_however_many_are_asked():
    checks = PasswordChecks(at_once=2, wait_max_s=60)
    running, most = [0], [0]
    count = threading.Lock()

    def check(n: int) -> int:
        with count:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.02)
        with count:
            running[0] -= 1
        return n

    async def ten_at_once() -> list[int]:
        answers: list[int] = []
        async with anyio.create_task_group() as tasks:
            for n in range(10):
                tasks.start_soon(lambda n=n: _append(answers, checks.run(lambda: check(n))))
        return answers

    assert sorted(_in_own_loop(ten_at_once)) == list(range(10))
    assert most[0] <= 2


async def _append(answers, asked):
    answers.append(await asked)


def _in_own_loop(main):
    """`anyio.run(main)` in a thread of its own: an event loop another test left set on this thread
    must not refuse it."""
    with ThreadPoolExecutor(1) as own:
        return own.submit(anyio.run, main).result()


def test_a_check_that_would_queue_past_the_most_wait_is_refused_before_it_runs():
    """One slot, a check's time 1 s until measured, 1 s the most wait: the second check asked waits
    one check's time and is taken; the third would wait two and is refused, told 2 s."""
    checks = PasswordChecks(at_once=1, wait_max_s=FIRST_GUESS_S)
    release = threading.Event()
    ran: list[str] = []

    def check(name: str) -> str:
        ran.append(name)
        if name == "first":
            release.wait(10)
        return name

    async def three() -> ChecksBusy:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(checks.run, lambda: check("first"))
            await wait_all_tasks_blocked()
            tasks.start_soon(checks.run, lambda: check("second"))
            await wait_all_tasks_blocked()
            with pytest.raises(ChecksBusy) as refused:
                await checks.run(lambda: check("third"))
            release.set()
        return refused.value

    refused = _in_own_loop(three)
    assert refused.retry_after_s == 2
    assert ran == ["first", "second"]


def test_the_address_with_the_fewest_failures_is_checked_first_then_first_come():
    """One slot held; then guesses from an address with 5 failures, 5 and 3, and the owner's from hers
    with 1 (her attempt itself): hers runs next, then 3, then the two 5s in the order asked. A check
    given up while waiting gives its place on."""
    checks = PasswordChecks(at_once=1, wait_max_s=60)
    release = threading.Event()
    ran: list[str] = []

    def check(name: str) -> str:
        ran.append(name)
        if name == "running":
            release.wait(10)
        return name

    async def queued() -> None:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(checks.run, lambda: check("running"))
            await wait_all_tasks_blocked()
            for name, failures in [("storm a", 5), ("storm b", 5), ("storm c", 3), ("owner", 1)]:
                tasks.start_soon(checks.run, lambda name=name: check(name), failures)
                await wait_all_tasks_blocked()
            with anyio.move_on_after(0.01):
                await checks.run(lambda: check("given up"), 2)
            assert checks.wait_s(1) == 2 * FIRST_GUESS_S and checks.wait_s(5) == 5 * FIRST_GUESS_S
            release.set()

    _in_own_loop(queued)
    assert ran == ["running", "owner", "storm c", "storm a", "storm b"]
    assert checks.running == 0


@pytest.fixture
def busy_checks():
    """A process whose one slot is taken (the check is counted as running) and whose most wait is
    shorter than one check: every sign-in would have to queue too long."""
    checks = PasswordChecks(at_once=1, wait_max_s=FIRST_GUESS_S / 2)
    checks.running = 1
    app.dependency_overrides[get_password_checks] = lambda: checks
    yield checks
    app.dependency_overrides.pop(get_password_checks)


def test_while_the_checks_are_busy_a_known_and_an_unknown_name_are_both_refused_unchecked(
    client: TestClient, session, busy_checks, monkeypatch
):
    create_admin(session, "alice", PASSWORD)
    checked = []
    monkeypatch.setattr(PasswordHasher, "verify", lambda *args: checked.append(args))
    answers = [sign_in(client, username=name) for name in ("alice", "nobody")]
    assert [a.status_code for a in answers] == [429, 429]
    assert [a.headers["Retry-After"] for a in answers] == ["1", "1"]
    assert all("Too many sign-ins at once" in html(a).get_text() for a in answers)
    assert checked == []
    assert session.exec(select(func.count()).select_from(LoginFailure)).one() == 2, "each stays on record"
