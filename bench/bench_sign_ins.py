"""Benchmark: one server process under a storm of wrong passwords: its peak memory, the owner's
wait, and no server error.

Why: each argon2id check holds its memory (64 MiB at production's cost) while it runs, and before
issue 40 as many ran at once as there were worker threads (40): 150 wrong guesses at once took one
process from 120 MB to 2,577 MB of RSS, answers up to 20 s and one 500. Goals: peak RSS under
300 MB, the owner's right password from her own address answered within 5 s, no 5xx.

Usage: python bench/bench_sign_ins.py [--runs 1] [--backends sqlite,postgresql] [--checkout DIR]

For each backend a fresh database as the app's first start leaves it (PostgreSQL: a throwaway
server started as the tests start one, or TEST_POSTGRESQL_URL), an admin `owner` hashed at the cost
in the environment (production's by default), served by one uvicorn process (one worker) that
believes 127.0.0.1's X-Forwarded-For. Each run, on an emptied failure table, two storms:

- one account: 150 wrong passwords for `owner` at once, 5 from each of 30 addresses (inside the
  per-address limits), the owner's right one from her own address a tenth of a second in;
- twenty names: 20 wrong passwords at once from one address, one at each of 20 names (unknown
  names: checked against the dummy hash), the owner's right one from her own address with them.

After each storm, once every answer is in, the owner's right password again from a third address.
Prints for each storm the answers by status, the slowest, the server's RSS before and its peak
(VmHWM, reset before the storm through /proc/PID/clear_refs), the owner's answer and wait during
the storm and after it. `--checkout DIR` serves the app from another checkout (e.g.
`git archive main | tar -x -C DIR`), to compare before and after on one machine in one session.
Exit 1 if a storm gets a 5xx or the owner's answer after a storm is not 303 within 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from sqlmodel import Session

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.admin.accounts import create_admin  # noqa: E402
from app.platform.db import make_engine  # noqa: E402
from bench.bench_limits import database  # noqa: E402
from bench.bench_partial import HOST, free_port, wait_ready  # noqa: E402
from tests.faults.servers import Server  # noqa: E402

OWNER, PASSWORD, WRONG = "owner", "correct horse battery", "wrong password!"
OWNER_WAIT_GOAL_S = 5.0


@dataclass
class Storm:
    name: str
    guesses: list[tuple[str, str]]
    """(address, user name) of each wrong password, all sent at once."""
    owner_during: str
    owner_after: str


STORMS = [
    Storm(
        "150 at one account from 30 addresses",
        [(f"198.51.100.{n // 5}", OWNER) for n in range(150)],
        owner_during="203.0.113.7",
        owner_after="203.0.113.8",
    ),
    Storm(
        "20 at 20 names from one address",
        [("198.51.100.200", f"guess{n}") for n in range(20)],
        owner_during="203.0.113.9",
        owner_after="203.0.113.10",
    ),
]


def serve(url: str, checkout: Path, log: Path) -> tuple[Server, int]:
    port = free_port()
    env = os.environ | {"DATABASE_URL": url, "TRUSTED_PROXIES": "127.0.0.1", "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", HOST, "--port", str(port)]
    command += ["--no-proxy-headers", "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=checkout, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    wait_ready(server, port, log)
    return Server(server, f"http://{HOST}:{port}"), port


async def _token(client: httpx.AsyncClient) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', (await client.get("/admin/login")).text)
    assert found, "the sign-in form carries a CSRF token"
    return found.group(1)


async def _attempt(client: httpx.AsyncClient, token: str, address: str, name: str, password: str) -> tuple[int, float]:
    form = {"csrf_token": token, "username": name, "password": password}
    started = time.perf_counter()
    response = await client.post("/admin/login", data=form, headers={"X-Forwarded-For": address})
    return response.status_code, time.perf_counter() - started


async def _later(seconds: float, work: Awaitable[tuple[int, float]]) -> tuple[int, float]:
    await asyncio.sleep(seconds)
    return await work


async def storm(port: int, storm: Storm) -> dict[str, Any]:
    """The storm's wrong passwords and the owner's right one among them; then hers once more. She
    signs in from browsers of her own (a sign-in changes the CSRF token), each given its form first."""
    base = f"http://{HOST}:{port}"
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with (
        httpx.AsyncClient(base_url=base, timeout=300, limits=limits) as client,
        httpx.AsyncClient(base_url=base, timeout=300) as owner_during,
        httpx.AsyncClient(base_url=base, timeout=300) as owner_after,
    ):
        token, during_token, after_token = [await _token(c) for c in (client, owner_during, owner_after)]
        guesses = [_attempt(client, token, address, name, WRONG) for address, name in storm.guesses]
        owner = _later(0.1, _attempt(owner_during, during_token, storm.owner_during, OWNER, PASSWORD))
        *answers, during = await asyncio.gather(*guesses, owner)
        after = await _attempt(owner_after, after_token, storm.owner_after, OWNER, PASSWORD)
    return {"answers": answers, "owner during": during, "owner after": after}


def run_storms(url: str, checkout: Path, log: Path) -> list[tuple[Storm, dict[str, Any]]]:
    engine = make_engine(url)
    server, port = serve(url, checkout, log)
    results = []
    try:
        for each in STORMS:
            with engine.begin() as connection:
                connection.execute(text("DELETE FROM loginfailure"))
                connection.execute(text("DELETE FROM adminsession"))
            before = server.memory_mb()
            server.reset_peak_memory()
            found = asyncio.run(storm(port, each))
            results.append((each, found | {"RSS before": before, "peak RSS": server.memory_mb("VmHWM")}))
    finally:
        server.process.terminate()
        server.process.wait(timeout=30)
        engine.dispose()
    return results


def report(backend: str, each: Storm, found: dict[str, Any]) -> bool:
    """Prints one storm's figures; whether it met the goals."""
    slowest: dict[int, float] = {}
    for status, seconds in found["answers"]:
        slowest[status] = max(slowest.get(status, 0.0), seconds)
    counted = Counter(status for status, _ in found["answers"])
    statuses = ", ".join(f"{status} x{counted[status]} (slowest {slowest[status]:.1f} s)" for status in sorted(counted))
    during, after = found["owner during"], found["owner after"]
    print(
        f"{backend:10} {each.name}: {statuses}; "
        f"RSS {found['RSS before']:.0f} MB before, peak {found['peak RSS']:.0f} MB; "
        f"owner during: {during[0]} in {during[1]:.2f} s, after: {after[0]} in {after[1]:.2f} s",
        flush=True,
    )
    server_errors = [status for status in [*counted, during[0], after[0]] if status >= 500]
    return not server_errors and after[0] == 303 and after[1] < OWNER_WAIT_GOAL_S


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="serve the app from this checkout")
    parser.add_argument("--logs", type=Path, help="a folder to keep the server's logs in (default: thrown away)")
    args = parser.parse_args()
    print(f"serving {args.checkout.resolve()}; {args.runs} run(s)")
    met = True
    with tempfile.TemporaryDirectory(prefix="bench-sign-ins-") as folder:
        logs = args.logs or Path(folder)
        for backend in args.backends.split(","):
            url = database(backend, Path(folder))
            engine = make_engine(url)
            with Session(engine) as session:
                create_admin(session, OWNER, PASSWORD)
            engine.dispose()
            for run in range(args.runs):
                for each, found in run_storms(url, args.checkout.resolve(), logs / f"{backend}-{run}.log"):
                    met &= report(backend, each, found)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
