"""Wrong passwords sent at once to one process: its memory grows by its few password checks at once,
not by one check per guess (issue 40: 150 guesses took a process from 120 MB to 2.5 GB), no answer
is a server error, and the owner still signs in from an address of her own."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from argon2 import PasswordHasher
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.platform.db import make_engine
from tests.faults.servers import Server, serving
from tests.web.helpers import PASSWORD

CHECK_MIB = 64
AT_ONCE = 2
COST = {
    "PASSWORD_HASH_TIME_COST": "1",
    "PASSWORD_HASH_MEMORY_KIB": str(CHECK_MIB * 1024),
    "PASSWORD_HASH_PARALLELISM": "1",
}
"""Production's memory per check, so that each check running shows in the process's RSS as 64 MiB;
one pass over it, so that a check takes about a tenth of a second."""
GUESSES = 20


def _an_admin(database_url: str) -> None:
    """alice, her password hashed at the server's cost (verifying a hash costs what the hash says)."""
    hasher = PasswordHasher(time_cost=1, memory_cost=CHECK_MIB * 1024, parallelism=1)
    engine = make_engine(database_url)
    with Session(engine) as session:
        session.add(AdminUser(username="alice", password_hash=hasher.hash(PASSWORD)))
        session.commit()
    engine.dispose()


def _sign_in(server: Server, address: str, username: str, password: str, ready: threading.Barrier | None = None):
    """The sign-in form posted from `address` (the server believes 127.0.0.1's X-Forwarded-For):
    its status, Retry-After and seconds taken."""
    with httpx.Client(base_url=server.url, timeout=60) as client:
        form = client.get("/admin/login").text
        token = form.split('name="csrf_token" value="')[1].split('"')[0]
        if ready:
            ready.wait()
        started = time.monotonic()
        response = client.post(
            "/admin/login",
            data={"csrf_token": token, "username": username, "password": password},
            headers={"X-Forwarded-For": address},
        )
        return response.status_code, response.headers.get("Retry-After", ""), time.monotonic() - started


def test_twenty_guesses_at_once_cost_the_memory_of_two_checks_and_the_owner_still_signs_in(
    shipped_database: str,
) -> None:
    """20 wrong passwords at once from one address at 20 names (inside its limit of 20): at most
    two checks run at once, so the process's peak grows by less than three checks' memory."""
    _an_admin(shipped_database)
    ready = threading.Barrier(GUESSES)
    settings = COST | {"PASSWORD_CHECKS_AT_ONCE": str(AT_ONCE), "TRUSTED_PROXIES": "127.0.0.1"}
    with serving(shipped_database, **settings) as server:
        before = server.memory_mb()
        server.reset_peak_memory()
        with ThreadPoolExecutor(GUESSES) as pool:
            guesses = list(
                pool.map(
                    lambda n: _sign_in(server, "198.51.100.1", f"guess{n}", "wrong password!", ready), range(GUESSES)
                )
            )
        grown = server.memory_mb("VmHWM") - before
        owner = _sign_in(server, "203.0.113.7", "alice", PASSWORD)
    assert {status for status, _, _ in guesses} <= {401, 429}, guesses
    assert all(retry_after.isdigit() for status, retry_after, _ in guesses if status == 429), guesses
    assert grown < (AT_ONCE + 1) * CHECK_MIB, f"the peak grew by {grown:.0f} MiB"
    assert owner[0] == 303 and owner[2] < 5, owner
