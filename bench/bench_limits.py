"""Benchmark: do the save limits hold when the saves arrive all at once, and does the owner of an
admin account still sign in after a burst of strangers' wrong passwords?

Why: a limit that counts the saves and then inserts, with nothing in between, lets every request
of a burst count before any has inserted (issue 18: 60 saves at once from one address against a
limit of 20 were stored up to 51 times on SQLite with 4 workers, 32 times on PostgreSQL).

Usage: python bench/bench_limits.py [--runs 3] [--burst 60] [--limit 20] [--workers 4]
       [--backends sqlite,postgresql] [--logs FOLDER]

For each backend, a fresh database as the app's first start leaves it (PostgreSQL: a throwaway
server started as the tests start one, or TEST_POSTGRESQL_URL), served by one uvicorn with
`--workers N` that believes 127.0.0.1's X-Forwarded-For. Two bursts, each `--runs` times on an
emptied scenario table:

- per client: `--burst` saves at once from one address, SAVES_PER_CLIENT_PER_10_MIN = `--limit`;
- in all: `--burst` saves at once from as many addresses, SAVES_PER_HOUR = `--limit`.

Then, on a server with the default limits: 50 wrong passwords at once for one admin account, 5
from each of 10 addresses (argon2 at the settings in the environment: production's by default),
and after them the owner's right one from her own address (issue 18: refused 429 for 15 minutes).

Prints for each burst of saves the saves stored (goal: exactly the limit), the answers other than
201 and 429, and the slowest answer; for the sign-ins the strangers' answers and the slowest, the
owner's answer (goal: 303) and her wait; the median of the runs with min and max.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from sqlalchemy import text
from sqlmodel import Session

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.admin.accounts import create_admin  # noqa: E402
from app.catalog.updates import bring_up_to_date  # noqa: E402
from app.platform.db import make_engine  # noqa: E402
from bench.bench_partial import HOST, free_port  # noqa: E402

OWNER, PASSWORD = "owner", "correct horse battery"
SIGN_IN_FAILURES, TRIES = 50, 5


def database(backend: str, folder: Path) -> str:
    if backend == "sqlite":
        url = f"sqlite:///{folder / 'bench.db'}"
    else:
        from tests.databases import postgres

        url = postgres().url_of(postgres().create())
    bring_up_to_date(url)
    return url


def serve(url: str, workers: int, log: Path, **limits: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = os.environ | {"DATABASE_URL": url, "TRUSTED_PROXIES": "127.0.0.1"}
    env |= {name.upper(): str(value) for name, value in limits.items()}
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", HOST, "--port", str(port)]
    command += ["--workers", str(workers), "--no-proxy-headers", "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    base = f"http://{HOST}:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                time.sleep(2)  # every worker up, not only the first
                return server, base
        except httpx.TransportError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"the server did not start; see {log}")


async def burst(base: str, count: int, addresses: int) -> tuple[list[int], float]:
    """`count` saves sent at once, from `addresses` distinct client addresses; their statuses and
    the slowest answer in seconds."""
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:

        async def save(n: int) -> tuple[int, float]:
            headers = {"X-Forwarded-For": f"198.51.100.{n % addresses}"}
            started = time.perf_counter()
            response = await client.post("/api/scenarios", json={"params": {"gpu_hours": 100 + n}}, headers=headers)
            return response.status_code, time.perf_counter() - started

        answers = await asyncio.gather(*(save(n) for n in range(count)))
    return [status for status, _ in answers], max(seconds for _, seconds in answers)


async def sign_ins(base: str) -> tuple[list[int], float, int, float]:
    """SIGN_IN_FAILURES wrong passwords for the owner's account at once, TRIES from each of as many
    addresses; then her right one from her own address. The strangers' statuses and slowest answer,
    her status and how long she waited."""
    limits = httpx.Limits(max_connections=SIGN_IN_FAILURES, max_keepalive_connections=SIGN_IN_FAILURES)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        found = re.search(r'name="csrf_token" value="([^"]+)"', (await client.get("/admin/login")).text)
        assert found, "the sign-in form carries a CSRF token"

        async def attempt(address: str, password: str) -> tuple[int, float]:
            form = {"csrf_token": found.group(1), "username": OWNER, "password": password}
            started = time.perf_counter()
            response = await client.post("/admin/login", data=form, headers={"X-Forwarded-For": address})
            return response.status_code, time.perf_counter() - started

        strangers = await asyncio.gather(
            *(attempt(f"198.51.100.{n // TRIES}", "wrong password!") for n in range(SIGN_IN_FAILURES))
        )
        owner, waited = await attempt("203.0.113.7", PASSWORD)
    return [status for status, _ in strangers], max(seconds for _, seconds in strangers), owner, waited


def spread(values: list[float], unit: str = "") -> str:
    return f"{statistics.median(values):g}{unit} ({min(values):g}-{max(values):g})"


def counted(statuses: list[int]) -> str:
    return ", ".join(f"{status} x{n}" for status, n in sorted(Counter(statuses).items()))


def bench_saves(backend: str, url: str, args: argparse.Namespace, logs: Path) -> bool:
    """Both bursts of saves; whether each run stored exactly the limit."""
    engine = make_engine(url)
    met = True
    for name, addresses, limits in (
        ("per client", 1, {"saves_per_client_per_10_min": args.limit, "saves_per_hour": 1_000_000}),
        ("in all", args.burst, {"saves_per_client_per_10_min": 1_000_000, "saves_per_hour": args.limit}),
    ):
        server, base = serve(url, args.workers, logs / f"{backend} {name}.log", **limits)
        stored, others, slowest = [], [], []
        try:
            for _ in range(args.runs):
                with engine.begin() as connection:
                    connection.execute(text("DELETE FROM scenario"))
                statuses, seconds = asyncio.run(burst(base, args.burst, addresses))
                with engine.connect() as connection:
                    stored.append(connection.execute(text("SELECT count(*) FROM scenario")).scalar_one())
                others.append(sum(status not in (201, 429) for status in statuses))
                slowest.append(round(seconds, 2))
                assert statuses.count(201) == stored[-1], "every 201 is a stored save"
        finally:
            server.terminate()
            server.wait(timeout=30)
        met &= all(n == args.limit for n in stored)
        print(
            f"{backend:10} saves {name:10} stored {spread(stored)}   not 201/429: {spread(others)}   "
            f"slowest answer: {spread(slowest, ' s')}"
        )
    engine.dispose()
    return met


def bench_sign_ins(backend: str, url: str, args: argparse.Namespace, logs: Path) -> bool:
    """The strangers' burst and the owner after it; whether she signed in every run."""
    engine = make_engine(url)
    with Session(engine) as session:
        create_admin(session, OWNER, PASSWORD)
    server, base = serve(url, args.workers, logs / f"{backend} sign-in.log")
    strangers, slowest, owner, waited = [], [], [], []
    try:
        for _ in range(args.runs):
            with engine.begin() as connection:
                connection.execute(text("DELETE FROM loginfailure"))
                connection.execute(text("DELETE FROM adminsession"))
            statuses, seconds, status, owner_seconds = asyncio.run(sign_ins(base))
            strangers += statuses
            slowest.append(round(seconds, 2))
            owner.append(status)
            waited.append(round(owner_seconds, 2))
    finally:
        server.terminate()
        server.wait(timeout=30)
    engine.dispose()
    print(
        f"{backend:10} sign-in: {SIGN_IN_FAILURES} wrong at once from {SIGN_IN_FAILURES // TRIES} addresses: "
        f"{counted(strangers)}, slowest {spread(slowest, ' s')}; then the owner: {counted(owner)} "
        f"in {spread(waited, ' s')}"
    )
    return set(owner) == {303}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--burst", type=int, default=60)
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--logs", type=Path, help="a folder to keep the servers' logs in (default: thrown away)")
    args = parser.parse_args()
    print(f"{args.burst} saves at once, limit {args.limit}; uvicorn --workers {args.workers}; {args.runs} runs")
    met = True
    with tempfile.TemporaryDirectory() as folder:
        logs = args.logs or Path(folder)
        for backend in args.backends.split(","):
            url = database(backend, Path(folder))
            met &= bench_saves(backend, url, args, logs)
            met &= bench_sign_ins(backend, url, args, logs)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
