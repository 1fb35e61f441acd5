"""Benchmark: N requests at once against one server process, as one client can fire them: the
answers by status, and how long the slowest waited.

Why (issue 18): about 55 requests at once took a process down for 30 s. Each held a pooled
connection (5 + 10) from its first query to the end of the request, rendering and serialisation
included, so the holders waited for worker threads that were waiting for connections, until the
pool's 30 s ran out and they answered 500; another client's `/api/quote` too, while `/api/health`
answered 200. Goal: no 5xx but the documented 503, nobody waiting more than a few seconds.

Usage: python bench/bench_burst.py [--sizes 25,50,100,200] [--kinds page,api,save,mix] [--runs 3]
       [--backends sqlite,postgresql] [--app-dir CHECKOUT]

One uvicorn process (one worker, production settings, save limits lifted so that saves are not
refused) on a fresh SQLite file or a fresh PostgreSQL database (a throwaway server started as the
tests start theirs, tests/databases.py). `--app-dir` serves another checkout's app
(e.g. `git worktree add /tmp/main-burst main`) with this script, for a before-and-after. Each
burst opens N connections at once and sends on each one request of its kind:

- `page`: `GET /s/{slug}`, the page of one saved scenario;
- `api`: `GET /api/scenarios/{slug}`, the same scenario as JSON with its quote;
- `save`: `POST /api/scenarios`, each with other inputs;
- `mix`: a quarter of each: the page, the JSON, saves and `GET /api/quote`.

Each burst has a server started for it, warmed up with one request of each kind, then left
quiet for 1.5 s (so that the burst reads the newest catalog version again). A quarter
of a second into each burst another client asks `GET /api/quote` and `GET /api/health`.
A request's latency runs from the burst's start to its answer. Prints each burst, then per kind
and N the median of the runs with min and max: p50, p99 and max latency, the other client's quote
and health, and every answer that was neither 2xx nor 3xx by status and run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
QUOTE = "/api/quote?gpu=H100&gpu_hours={h}&checkpoint_gb=140&checkpoints_out=1"
BYSTANDER_AFTER_S = 0.25
QUIET_S = 1.5
"""The pause between the warm-up and the burst: longer than the second for which a process trusts
the newest catalog version it read, so the burst's requests read it again, as after a quiet moment."""
TIMEOUT_S = 90.0
"""Longer than the 30 s a request waited for a connection before the fix, so that wait is measured."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    base: str
    log: Path

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_server(app_dir: Path, database_url: str, log: Path, **settings: str) -> Server:
    """`settings`: more of the environment (`TRUSTED_PROXIES`, say), over the production settings here."""
    port = free_port()
    env = (
        os.environ
        | {
            "ENVIRONMENT": "production",
            "SECRET_KEY": "bench-burst-" + "k" * 32,
            "DATABASE_URL": database_url,
            "PUBLIC_URL": f"http://{HOST}:{port}",
            "SAVES_PER_CLIENT_PER_10_MIN": "1000000000",
            "SAVES_PER_HOUR": "1000000000",
        }
        | settings
    )
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", HOST, "--port", str(port),
               "--no-proxy-headers", "--no-server-header", "--log-level", "warning"]  # fmt: skip
    process = subprocess.Popen(command, cwd=app_dir, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    server = Server(process, f"http://{HOST}:{port}", log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{server.base}/api/health", timeout=2).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    server.stop()
    sys.exit(f"the server did not answer /api/health within 120 s:\n{log.read_text()[-3000:]}")


@dataclass
class Answer:
    kind: str
    status: int | str
    seconds: float


@dataclass
class Burst:
    answers: list[Answer]
    quote: Answer
    health: Answer

    def latencies(self) -> list[float]:
        return sorted(a.seconds for a in self.answers)

    def line(self) -> str:
        lat = self.latencies()
        return (f"p50 {percentile(lat, 0.5):6.2f} s  max {lat[-1]:6.2f} s  quote {self.quote.status} "
                f"{self.quote.seconds:.2f} s  health {self.health.status} {self.health.seconds:.2f} s  "
                f"not 2xx/3xx {dict(self.not_ok()) or '-'}")  # fmt: skip

    def not_ok(self) -> Counter[str]:
        return Counter(str(a.status) for a in [*self.answers, self.quote, self.health] if not _ok(a.status))


def _ok(status: int | str) -> bool:
    return isinstance(status, int) and 200 <= status < 400


def requests_of(kind: str, n: int, slug: str, offset: int) -> list[tuple[str, str, str, dict | None]]:
    """(kind, method, path, JSON body) of each request of a burst; inputs differ between requests."""
    page = ("page", "GET", f"/s/{slug}", None)
    api = ("api", "GET", f"/api/scenarios/{slug}", None)

    def save(i: int) -> tuple[str, str, str, dict]:
        return ("save", "POST", "/api/scenarios", {"name": "burst", "params": {"gpu_hours": 100 + offset + i}})

    def quote(i: int) -> tuple[str, str, str, None]:
        return ("quote", "GET", QUOTE.format(h=10 + (offset + i) % 5000), None)

    if kind == "page":
        return [page] * n
    if kind == "api":
        return [api] * n
    if kind == "save":
        return [save(i) for i in range(n)]
    return [(page, api, save(i), quote(i))[i % 4] for i in range(n)]


async def _send(client: httpx.AsyncClient, kind: str, method: str, path: str, body: dict | None,
                start: float) -> Answer:  # fmt: skip
    try:
        response = await client.request(method, path, json=body)
        status: int | str = response.status_code
    except httpx.TimeoutException:
        status = "timeout"
    except httpx.TransportError as e:
        status = type(e).__name__
    return Answer(kind, status, time.perf_counter() - start)


async def _burst(base: str, requests: list[tuple[str, str, str, dict | None]], offset: int) -> Burst:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with (
        httpx.AsyncClient(base_url=base, timeout=TIMEOUT_S, limits=limits) as client,
        httpx.AsyncClient(base_url=base, timeout=TIMEOUT_S) as bystander,
    ):
        start = time.perf_counter()
        burst = asyncio.gather(*(_send(client, *request, start=start) for request in requests))
        await asyncio.sleep(BYSTANDER_AFTER_S)
        asked = time.perf_counter()
        quote, health = await asyncio.gather(
            _send(bystander, "quote", "GET", QUOTE.format(h=4321 + offset % 100), None, asked),
            _send(bystander, "health", "GET", "/api/health", None, asked),
        )
        return Burst(list(await burst), quote, health)


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, round(share * (len(values) - 1)))]


@dataclass
class Series:
    """One kind and size of burst over the runs."""

    bursts: list[Burst] = field(default_factory=list)

    def line(self) -> str:
        def spread(values: list[float]) -> str:
            return f"{statistics.median(values):6.2f} ({min(values):.2f}-{max(values):.2f})"

        p50 = [percentile(b.latencies(), 0.5) for b in self.bursts]
        p99 = [percentile(b.latencies(), 0.99) for b in self.bursts]
        top = [b.latencies()[-1] for b in self.bursts]
        quote = [b.quote.seconds for b in self.bursts]
        health = [b.health.seconds for b in self.bursts]
        statuses = sorted(set().union(*(b.not_ok() for b in self.bursts)))
        errors = ", ".join(f"{s} x {'/'.join(str(b.not_ok()[s]) for b in self.bursts)}" for s in statuses) or "none"
        return (f"p50 {spread(p50)}  p99 {spread(p99)}  max {spread(top)} s | other client: quote {spread(quote)} s, "
                f"health {spread(health)} s | not 2xx/3xx: {errors}")  # fmt: skip


def saved_slug(base: str) -> str:
    saved = httpx.post(f"{base}/api/scenarios", json={"name": "opened at once", "params": {"gpu_hours": 730}})
    saved.raise_for_status()
    return saved.json()["slug"]


def warm_up(base: str, slug: str) -> None:
    """Each kind once, so that the burst does not pay for a cold process."""
    for request in requests_of("mix", 4, slug, 0):
        _, method, path, body = request
        assert httpx.request(method, f"{base}{path}", json=body, timeout=30).status_code < 300, path


def bench_backend(name: str, database_url: str, app_dir: Path, args: argparse.Namespace, tmp: Path) -> None:
    """Each burst on a server started for it (on the same database), so that none inherits the
    requests still queued from the one before."""
    server = start_server(app_dir, database_url, tmp / f"{name}.log")
    try:
        slug = saved_slug(server.base)
    finally:
        server.stop()
    series: dict[tuple[str, int], Series] = {}
    offset = 0
    for run in range(1, args.runs + 1):
        for n in args.sizes:
            for kind in args.kinds:
                server = start_server(app_dir, database_url, tmp / f"{name}.log")
                try:
                    warm_up(server.base, slug)
                    time.sleep(QUIET_S)
                    requests = requests_of(kind, n, slug, offset)
                    offset += n
                    burst = asyncio.run(_burst(server.base, requests, offset))
                finally:
                    server.stop()
                series.setdefault((kind, n), Series()).bursts.append(burst)
                print(f"  run {run} {kind:8} N={n:<4} {burst.line()}", flush=True)
    print(f"\n{name}: median of {args.runs} runs (min-max), latency from the burst's start")
    for (kind, n), found in sorted(series.items(), key=lambda item: (args.kinds.index(item[0][0]), item[0][1])):
        print(f"  {kind:8} N={n:<4} {found.line()}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="25,50,100,200", help="requests at once, comma-separated")
    parser.add_argument("--kinds", default="page,api,save,mix", help="of page, api, save, mix")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout whose app is served")
    args = parser.parse_args()
    args.sizes = [int(n) for n in args.sizes.split(",")]
    args.kinds = args.kinds.split(",")
    with tempfile.TemporaryDirectory(prefix="bench-burst-") as folder:
        for backend, url, tmp in databases(args, Path(folder), "burst"):
            bench_backend(backend, url, args.app_dir, args, tmp)


def databases(args: argparse.Namespace, tmp: Path, name: str) -> Iterator[tuple[str, str, Path]]:
    """Says which checkout is served, then each backend of `--backends` with a new database on it."""
    commit = subprocess.run(["git", "-C", str(args.app_dir), "log", "-1", "--format=%h %s"], capture_output=True,
                            text=True).stdout.strip()  # fmt: skip
    print(f"serving {args.app_dir} at {commit}\n")
    for backend in args.backends.split(","):
        if backend == "sqlite":
            url = f"sqlite:///{tmp / f'{name}.db'}"
        else:
            from tests.databases import postgres

            url = postgres().url_of(postgres().create())
        print(f"{backend}: {url}")
        yield backend, url, tmp


if __name__ == "__main__":
    main()
