"""Benchmark: N saves of a year's split at once from one address, within its save limit and over it,
against one server process, while a bystander moves the slider and a load balancer asks /api/health.

Why (issue 40): `POST /api/scenarios` (and the page's `/s` and `/s/import`) quoted a save before
counting the client's saves, on a worker thread, outside the heavy lane: a client over its limit
still cost a second of CPU on every refused save, and a burst within it as many seconds unbounded.
Goals: over the limit, every save refused at once without a quote; within it, the heavy lane's
bounds (2 per client) and its goals (the slider's p99 under 250 ms, health 200 throughout).

Usage: python bench/bench_heavy_saves.py [--size 20] [--kinds within,over] [--runs 2]
       [--backends sqlite,postgresql] [--app-dir CHECKOUT]

One uvicorn process per burst (bench/bench_heavy.py's, production settings and the lane's defaults,
SAVES_PER_CLIENT_PER_10_MIN 20 as by default), warmed up with a split and a slider move, then N
`POST /api/scenarios` at once, each a split of a year of 8,760 hours drawn afresh between 0 and
1,024 GPUs, all from one address of the burst's own: `within`, an address that saved nothing yet;
`over`, one that has just saved its 20 (a GPU-hours quote each). The bystander and the balancer as
in bench/bench_heavy.py. Prints each burst (the saves by status, Retry-After on every refusal but
the save limit's, when the last was answered, the slider's p50, p99 and slowest, health's answers),
the scenarios stored by the burst, then per kind the median of the runs with min and max.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

import httpx
from sqlmodel import Session, func, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.platform.db import make_engine  # noqa: E402
from app.scenarios.tables import Scenario  # noqa: E402
from bench.bench_burst import ROOT, databases, percentile, start_server  # noqa: E402
from bench.bench_heavy import SLIDER_P99_GOAL_S, TIMEOUT_S, Burst, warm_up, watched  # noqa: E402
from tests.factories import scattered_year  # noqa: E402

SAVES_PER_CLIENT = 20
SAVE_LIMIT = "try again in ten minutes"
"""The save limit's refusal, which says when in words: its 429 carries no Retry-After."""


async def _save(client: httpx.AsyncClient, body: bytes, address: str) -> tuple[int | str, bool]:
    headers = {"Content-Type": "application/json", "X-Forwarded-For": address}
    try:
        response = await client.post("/api/scenarios", content=body, headers=headers)
    except httpx.HTTPError as e:
        return type(e).__name__, False
    told = response.headers.get("Retry-After", "").isdigit() or SAVE_LIMIT in response.text
    return response.status_code, told or response.status_code == 201  # Burst takes all but 200 for a refusal


async def _send(base: str, bodies: list[bytes], address: str) -> list[tuple[int | str, bool]]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT_S, limits=limits) as client:
        return list(await asyncio.gather(*(_save(client, body, address) for body in bodies)))


def _stored(url: str) -> int:
    engine = make_engine(url)
    with Session(engine) as session:
        count = session.exec(select(func.count()).select_from(Scenario)).one()
    engine.dispose()
    return count


def burst(base: str, url: str, n: int, kind: str, offset: int) -> tuple[Burst, int]:
    """The burst and the scenarios it stored."""
    address = f"10.2.{offset // 250 % 250}.{offset % 250}"
    if kind == "over":
        for hours in range(SAVES_PER_CLIENT):
            body = {"params": {"gpu": "H100", "gpu_hours": 100 + hours}}
            saved = httpx.post(f"{base}/api/scenarios", json=body, headers={"X-Forwarded-For": address})
            assert saved.status_code == 201, saved.text
    years = [scattered_year(offset + i) for i in range(n)]
    bodies = [json.dumps({"params": {"gpu": "H100", "job": "split", "demand": "hourly", "hourly": y}}).encode()
              for y in years]  # fmt: skip
    before = _stored(url)
    found = watched(base, offset, lambda: asyncio.run(_send(base, bodies, address)))
    return found, _stored(url) - before


def bench_backend(name: str, url: str, args: argparse.Namespace, tmp: Path) -> None:
    found: dict[str, list[tuple[Burst, int]]] = {}
    offset = 0
    for run in range(1, args.runs + 1):
        for kind in args.kinds:
            limits = {"TRUSTED_PROXIES": "127.0.0.1", "SAVES_PER_CLIENT_PER_10_MIN": str(SAVES_PER_CLIENT)}
            server = start_server(args.app_dir, url, tmp / f"{name}.log", **limits)
            try:
                warm_up(server.base)
                measured, stored = burst(server.base, url, args.size, kind, offset)
            finally:
                server.stop()
            offset += 500
            found.setdefault(kind, []).append((measured, stored))
            print(f"  run {run} N={args.size} {kind:6} {measured.line()} | stored {stored}", flush=True)
    print(f"\n{name}: median of {args.runs} runs (min-max)")
    for kind, runs in found.items():
        print(f"  N={args.size} {kind:6} {_summary(runs)}")
    print()


def _summary(runs: list[tuple[Burst, int]]) -> str:
    def spread(values: list[float], unit: str = " ms", scale: float = 1000) -> str:
        values = [v * scale for v in values]
        return f"{statistics.median(values):.0f}{unit} ({min(values):.0f}-{max(values):.0f})"

    bursts = [b for b, _ in runs]
    p99 = [percentile(b.slider_s(), 0.99) for b in bursts]
    last = spread([b.last_s for b in bursts], " s", 1)
    slowest = spread([b.slider_s()[-1] for b in bursts])
    statuses = sorted(set().union(*(b.statuses() for b in bursts)))
    saves = ", ".join(f"{s} x {'/'.join(str(b.statuses()[s]) for b in bursts)}" for s in statuses)
    stored = "/".join(str(s) for _, s in runs)
    health = dict(sorted(Counter(str(status) for b in bursts for status, _ in b.health).items()))
    health_slowest = spread([max(s for _, s in b.health) for b in bursts])
    goal = "met" if statistics.median(p99) < SLIDER_P99_GOAL_S else "NOT met"
    return (f"saves {saves}; stored {stored}; last {last} | slider p99 {spread(p99)} ({goal}), max {slowest} | "
            f"health {health}, slowest {health_slowest}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=20, help="saves at once")
    parser.add_argument("--kinds", default="within,over", help="within the client's save limit, or over it")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout whose app is served")
    args = parser.parse_args()
    args.kinds = args.kinds.split(",")
    with tempfile.TemporaryDirectory(prefix="bench-heavy-saves-") as folder:
        for backend, url, tmp in databases(args, Path(folder), "heavy-saves"):
            bench_backend(backend, url, args, tmp)


if __name__ == "__main__":
    main()
