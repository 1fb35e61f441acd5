"""Benchmark: N of the heaviest answers at once against one server process, while a bystander moves
the slider and a load balancer asks /api/health.

Why (issue 40): a year of hours scattered up to 1,024 GPUs costs `POST /api/split` about a second of
CPU, needs no sign-in and had no limit. 20 at once were answered one after another over 18 s while a
bystander's slider move waited up to 1.1 s; 50 at once took 40-46 s while /api/health answered 503 on
a third of its polls with the database fine. Goals: 20 at once, the bystander's slider p99 under
250 ms, health 200 throughout, every split answered or refused with Retry-After; 50 at once, health
never 503 while the database answers.

Usage: python bench/bench_heavy.py [--sizes 20,50] [--senders one,many] [--runs 2]
       [--backends sqlite,postgresql] [--app-dir CHECKOUT]

One uvicorn process (one worker, production settings, bench/bench_burst.py's `start_server`) on a
fresh SQLite file or PostgreSQL database, `TRUSTED_PROXIES=127.0.0.1` so that each sender's address
is the X-Forwarded-For it sends. `--app-dir` serves another checkout's app (e.g. `git worktree add
/tmp/main-heavy main`) for a before-and-after. Each burst has a server started for it, warmed up with
one split and one slider move, then:

- N `POST /api/split` at once, each a year of 8,760 hours drawn between 0 and 1,024 GPUs
  (`tests/factories.py`'s `scattered_year`), each drawn afresh (the same year twice would be quoted
  once and then found in the memo of its inputs), from one address (`one`) or each from its own
  (`many`);
- from its own address, a bystander's slider move (`GET /?gpu=H100&gpu_hours=...` with
  `HX-Request`, a new GPU-hours each time) every 50 ms, and /api/health every 250 ms from another,
  from half a second before the burst until its last answer, in a process of their own (so that
  sending the burst does not stop their clock); the years are drawn before.

Prints each burst (the splits by status, whether every refusal carried Retry-After, when the last
was answered; the slider's p50, p99 and slowest; health's answers by status and its slowest), then per
size and sender the median of the runs with min and max.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event as EventType
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_burst import ROOT, databases, percentile, start_server  # noqa: E402
from tests.factories import scattered_year  # noqa: E402

TIMEOUT_S = 180.0
BYSTANDER = "10.9.9.9"
BALANCER = "10.9.9.10"
SLIDER = "/?gpu=H100&gpu_hours={h}&checkpoint_gb=140&checkpoints_out=1"
SLIDER_EVERY_S = 0.05
HEALTH_EVERY_S = 0.25
SLIDER_P99_GOAL_S = 0.25


@dataclass
class Burst:
    splits: list[tuple[int | str, bool]]
    """Each split's status, and whether a refusal carried Retry-After."""
    last_s: float
    slider: list[tuple[int | str, float]]
    health: list[tuple[int | str, float]]

    def slider_s(self) -> list[float]:
        return sorted(seconds for _, seconds in self.slider)

    def statuses(self) -> Counter[str]:
        return Counter(str(status) for status, _ in self.splits)

    def refusals_told_when(self) -> bool:
        return all(told for status, told in self.splits if status != 200)

    def line(self) -> str:
        moves = self.slider_s()
        health = Counter(str(status) for status, _ in self.health)
        return (f"splits {dict(sorted(self.statuses().items()))}, Retry-After on every refusal: "
                f"{'yes' if self.refusals_told_when() else 'NO'}, last at {self.last_s:.1f} s | slider "
                f"{len(moves)} moves p50 {percentile(moves, 0.5) * 1000:.0f} ms p99 "
                f"{percentile(moves, 0.99) * 1000:.0f} ms max {moves[-1] * 1000:.0f} ms, not 200: "
                f"{sum(status != 200 for status, _ in self.slider)} | health {dict(sorted(health.items()))} "
                f"max {max(s for _, s in self.health) * 1000:.0f} ms")  # fmt: skip


async def _split(client: httpx.AsyncClient, body: bytes, address: str | None) -> tuple[int | str, bool]:
    headers = {"Content-Type": "application/json"} | ({"X-Forwarded-For": address} if address else {})
    try:
        response = await client.post("/api/split", content=body, headers=headers)
    except httpx.HTTPError as e:
        return type(e).__name__, False
    return response.status_code, response.headers.get("Retry-After", "").isdigit()


async def _poll(base: str, address: str, paths: list[str], every_s: float, done: EventType) -> list:
    answers: list[tuple[int | str, float]] = []
    headers = {"X-Forwarded-For": address, "HX-Request": "true"}
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT_S) as client:
        while not done.is_set():
            start = time.perf_counter()
            try:
                status: int | str = (await client.get(paths[len(answers) % len(paths)], headers=headers)).status_code
            except httpx.HTTPError as e:
                status = type(e).__name__
            answers.append((status, time.perf_counter() - start))
            await asyncio.sleep(every_s)
    return answers


def _watch(base: str, offset: int, done: EventType, found: Queue) -> None:
    """The bystander's moves and the balancer's checks, in a process of their own, so that sending
    the burst does not delay their clock."""

    async def watching() -> tuple[list, list]:
        moves = [SLIDER.format(h=10 + (offset + i) % 5000) for i in range(2000)]
        slider = asyncio.create_task(_poll(base, BYSTANDER, moves, SLIDER_EVERY_S, done))
        health = asyncio.create_task(_poll(base, BALANCER, ["/api/health"], HEALTH_EVERY_S, done))
        return await slider, await health

    found.put(asyncio.run(watching()))


async def _send(base: str, bodies: list[bytes], addresses: list[str | None]) -> list[tuple[int | str, bool]]:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT_S, limits=limits) as client:
        return list(await asyncio.gather(*(_split(client, b, a) for b, a in zip(bodies, addresses, strict=True))))


def burst(base: str, n: int, sender: str, offset: int) -> Burst:
    years = [json.dumps({"gpu": "H100", "demand": "hourly", "hourly": scattered_year(offset + i)}) for i in range(n)]
    bodies = [year.encode() for year in years]  # drawn before the clock starts: the bench shares the cores
    addresses = [None if sender == "one" else f"10.1.{i // 250}.{i % 250}" for i in range(n)]
    return watched(base, offset, lambda: asyncio.run(_send(base, bodies, addresses)))


def watched(base: str, offset: int, send: Callable[[], list[tuple[int | str, bool]]]) -> Burst:
    """`send()`'s answers and how long it took, while a process of its own moves the slider and asks
    for health from half a second before it until its last answer."""
    forked = multiprocessing.get_context("fork")
    done, found = forked.Event(), forked.Queue()
    watcher = forked.Process(target=_watch, args=(base, offset, done, found))
    watcher.start()
    time.sleep(0.5)  # the watcher's first answers, before the burst
    start = time.perf_counter()
    answers = send()
    last = time.perf_counter() - start
    done.set()
    slider, health = found.get(timeout=TIMEOUT_S)
    watcher.join()
    return Burst(answers, last, slider, health)


def warm_up(base: str) -> None:
    body = {"gpu": "H100", "demand": "hourly", "hourly": scattered_year(seed=-1)}
    assert httpx.post(f"{base}/api/split", json=body, timeout=TIMEOUT_S).status_code == 200
    assert httpx.get(f"{base}{SLIDER.format(h=1)}", headers={"HX-Request": "true"}).status_code == 200


@dataclass
class Series:
    bursts: list[Burst] = field(default_factory=list)

    def line(self) -> str:
        def spread(values: list[float], unit: str = " ms", scale: float = 1000) -> str:
            values = [v * scale for v in values]
            return f"{statistics.median(values):.0f}{unit} ({min(values):.0f}-{max(values):.0f})"

        p99 = [percentile(b.slider_s(), 0.99) for b in self.bursts]
        top = [b.slider_s()[-1] for b in self.bursts]
        last = [b.last_s for b in self.bursts]
        not_ready = [sum(status != 200 for status, _ in b.health) for b in self.bursts]
        polls = [len(b.health) for b in self.bursts]
        statuses = sorted(set().union(*(b.statuses() for b in self.bursts)))
        splits = ", ".join(f"{s} x {'/'.join(str(b.statuses()[s]) for b in self.bursts)}" for s in statuses)
        told = all(b.refusals_told_when() for b in self.bursts)
        goal = "met" if statistics.median(p99) < SLIDER_P99_GOAL_S else "NOT met"
        return (f"slider p99 {spread(p99)} ({goal}), max {spread(top)} | health not 200 on "
                f"{'/'.join(map(str, not_ready))} of {'/'.join(map(str, polls))} polls | splits {splits}; "
                f"Retry-After on every refusal: {'yes' if told else 'NO'}; last {spread(last, ' s', 1)}")  # fmt: skip


def bench_backend(name: str, url: str, args: argparse.Namespace, tmp: Path) -> None:
    series: dict[tuple[int, str], Series] = {}
    offset = 0
    for run in range(1, args.runs + 1):
        for n in args.sizes:
            for sender in args.senders:
                server = start_server(args.app_dir, url, tmp / f"{name}.log", TRUSTED_PROXIES="127.0.0.1")
                try:
                    warm_up(server.base)
                    found = burst(server.base, n, sender, offset)
                finally:
                    server.stop()
                offset += 500
                series.setdefault((n, sender), Series()).bursts.append(found)
                print(f"  run {run} N={n:<3} from {sender:4} {found.line()}", flush=True)
    print(f"\n{name}: median of {args.runs} runs (min-max)")
    for (n, sender), runs in series.items():
        print(f"  N={n:<3} from {sender:4} {runs.line()}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="20,50", help="splits at once, comma-separated")
    parser.add_argument("--senders", default="one,many", help="one address for all, or many (one each)")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout whose app is served")
    args = parser.parse_args()
    args.sizes = [int(n) for n in args.sizes.split(",")]
    args.senders = args.senders.split(",")
    with tempfile.TemporaryDirectory(prefix="bench-heavy-") as folder:
        for backend, url, tmp in databases(args, Path(folder), "heavy"):
            bench_backend(backend, url, args, tmp)


if __name__ == "__main__":
    main()
