"""Benchmark: one server process's peak memory while everything a busy or hostile internet sends
arrives at once, sign-ins included.

Why (issue 40): "A process stays under a stated RSS (say 300 MB at the shipped catalog, measured)
under any mix of requests, sign-ins included." Each bound was measured on its own (argon2 checks,
bench/bench_sign_ins.py; heavy answers, bench/bench_heavy.py; catalog versions kept,
bench/bench_memory.py); a process meets them all at once. Goal: peak RSS (VmHWM) under 300 MB on
SQLite and PostgreSQL, and no 5xx but the documented refusal (503 with Retry-After).

Usage: python bench/bench_budget.py [--seconds 30] [--runs 3] [--kinds all] [--backends sqlite,postgresql]
       [--app-dir CHECKOUT]

For each backend a fresh database as the app's first start leaves it (bench/bench_limits.py's
`database`: PostgreSQL a throwaway server), VERSIONS price changes more, and an admin `owner` hashed at
production's argon2 cost. Each run starts one uvicorn process on it (one worker, production settings,
bench/bench_burst.py's `start_server`, believing 127.0.0.1's X-Forwarded-For), signs the admin in,
saves a scenario at catalog version 1, resets the peak (VmHWM, through /proc/PID/clear_refs), then for
`--seconds` sends at once, each kind from senders of its own that ask again as soon as answered:

- `sign-in`: every STORM_EVERY_S a storm of 150 wrong passwords at `owner`, 5 from each of 30 new
  addresses, all at once (bench/bench_sign_ins.py's first storm);
- `split`: `POST /api/split` of a year of hours scattered up to 1,024 GPUs, each drawn afresh
  (bench/bench_heavy.py's body), from several addresses;
- `history`: `/history/{gpu}` with other filters each time, `/api/history` and `/history/{gpu}.csv`
  for several GPU models, while the newest catalog version moves (a price change every
  VERSION_EVERY_S, written to the database as an admin's edit is), so each is worked out afresh;
- `explorer`: `/offers` pages and their htmx partials with filters, sorts and pages;
- `any GPU`: quotes of a model on any GPU that holds it, at other GPU-hours each time;
- `scenarios`: saves (`POST /api/scenarios` at catalog version 1) and views of the saved one: its page,
  its versions page and feed (a quote at every version since), its JSON;
- `sizing`: `/api/size` of a preset and of a typed model at other contexts and batches;
- `slider`: the calculator's htmx partial at other GPU-hours each time;
- `csv`: `/offers.csv`, `/api/offers.csv`, a saved scenario's CSV and the admin's whole export;
- `import`: the signed-in admin's preview of a SkyPilot CSV at the 8 MB upload limit;
- `versions`: `/api/quote`, the partial and `/offers` at every catalog version in turn.

A process of the bench samples the server's RSS every SAMPLE_EVERY_S and notes which kinds were in
flight at its highest. After the last answer: the peak (VmHWM) and RSS. Prints each run (the peak,
the kinds in flight at the sampled peak, RSS after, each kind's answers by status with p50 and p99),
then the median of the runs with min and max. `--kinds` sends some kinds only (to find what makes
the peak). Exit 1 if the median peak is 300 MB or more, or any answer is a 5xx other than a 503
with Retry-After, or no answer.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path

import httpx
from sqlalchemy import text
from sqlmodel import Session, col, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.admin.accounts import create_admin  # noqa: E402
from app.catalog.changes import change_offer_price  # noqa: E402
from app.catalog.tables import CatalogVersion, OfferVersion  # noqa: E402
from app.platform.db import make_engine  # noqa: E402
from bench.bench_burst import ROOT, percentile, start_server  # noqa: E402
from bench.bench_limits import database  # noqa: E402
from bench.bench_partial import HX, PARTIAL, hours  # noqa: E402
from tests.factories import scattered_year  # noqa: E402
from tests.faults.servers import Server  # noqa: E402

BUDGET_MB = 300
OWNER, PASSWORD, WRONG = "owner", "correct horse battery", "wrong password!"
ADMIN = "203.0.113.7"
"""The admin's own address."""
VERSIONS = 20
"""Price changes added to the fresh database, each a catalog version of its own."""
STORM_EVERY_S = 5.0
VERSION_EVERY_S = 5.0
SAMPLE_EVERY_S = 0.02
TIMEOUT_S = 180.0
IMPORT_BYTES = 8 * 1024 * 1024 - 4096
"""Just under the admin import's upload limit (8 MiB)."""
GPUS = ["H100", "A100-80GB", "H200", "L40S", "A100", "L4"]
TENANCIES = ["", "bare_metal", "virtualized", "serverless"]
BILLINGS = ["", "on_demand", "spot", "committed", "monthly"]
SENDERS = {
    "split": 6,
    "history": 4,
    "explorer": 3,
    "any GPU": 3,
    "scenarios": 4,
    "sizing": 2,
    "slider": 4,
    "csv": 3,
    "import": 1,
    "versions": 3,
}
"""Senders of each kind, each from an address of its own; `sign-in` sends storms instead."""
KINDS = ["sign-in", *SENDERS]
ONE_CONNECTION_EACH = httpx.Limits(max_connections=None, max_keepalive_connections=0)
"""A storm's guesses each on a connection of its own, as from many machines: one kept alive for the next
storm would meet the server's closing it after 5 s idle (a ReadError that is the client's doing)."""


def skypilot_file(size: int) -> bytes:
    """A SkyPilot CSV of distinct offers of known GPUs, `size` bytes at most: a big provider's file."""
    lines = ["InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,GpuInfo"]
    total = len(lines[0]) + 1
    for i in itertools.count():
        line = (f"bench-{i},{GPUS[i % len(GPUS)]},{1 + i % 8},8,64,{1 + i % 300 / 100:.2f},"
                f"{0.5 + i % 200 / 100:.2f},region-{i % 40},")  # fmt: skip
        if total + len(line) + 1 > size:
            break
        lines.append(line)
        total += len(line) + 1
    return ("\n".join(lines) + "\n").encode()


@dataclass
class Answer:
    kind: str
    status: int | str
    seconds: float
    retry_after: bool


@dataclass
class Mix:
    """What the senders share: the server, the saved scenario, what they send, what they were answered."""

    base: str
    slug: str
    newest: int
    admin_token: str
    years: list[bytes]
    import_file: bytes
    stop_at: float
    answers: list[Answer] = field(default_factory=list)
    in_flight: Counter[str] = field(default_factory=Counter)
    counter: itertools.count = field(default_factory=itertools.count)

    def next(self) -> int:
        return next(self.counter)


ADMIN_KINDS = {"csv", "import"}
"""Sent from the signed-in admin's browser (the whole export and the import): the others from strangers'."""


def request_of(kind: str, mix: Mix, n: int) -> tuple[str, str, dict]:
    """(method, path, httpx keyword arguments) of the n-th request of a kind."""
    gpu = GPUS[n % len(GPUS)]
    if kind == "split":
        body = mix.years[n % len(mix.years)]
        return "POST", "/api/split", {"content": body, "headers": {"Content-Type": "application/json"}}
    if kind == "history":
        tenancy, billing = TENANCIES[n % len(TENANCIES)], BILLINGS[(n // len(TENANCIES)) % len(BILLINGS)]
        query = "&".join(f"{name}={value}" for name, value in (("tenancy", tenancy), ("billing", billing)) if value)
        return "GET", [f"/history/{gpu}?{query}", f"/api/history?gpu={gpu}&{query}", f"/history/{gpu}.csv"][n % 3], {}
    if kind == "explorer":
        filters = ["gpu=H100&gpu=A100-80GB&billing=on_demand&sort=country&dir=desc", "q=aws+us-east&sort=product",
                   f"sort=region&page={1 + n % 9}", f"tenancy=bare_metal&eu_only=on&gpu={gpu}", ""][n % 5]  # fmt: skip
        return "GET", f"/offers?{filters}", {"headers": HX} if n % 2 else {}
    if kind == "any GPU":
        path = [f"/api/quote?preset=llama-3.1-70b&context=8192&gpu=any&gpu_hours={100 + n}",
                f"/api/quote?job=train&preset=llama-3.1-8b&train_tokens_b={1 + n}&gpu=any",
                f"/?gpu=any&job=serve&preset=llama-3.1-70b&hours_up=0&gpu_hours={100 + n}"][n % 3]  # fmt: skip
        return "GET", path, {}
    if kind == "scenarios":
        if n % 5 == 0:
            params = {"gpu": gpu, "gpu_hours": 100 + n}
            return "POST", "/api/scenarios", {"json": {"name": "budget", "params": params, "catalog_version": 1}}
        return "GET", ["/s/{}", "/s/{}/versions", "/s/{}/feed.xml", "/api/scenarios/{}"][n % 4].format(mix.slug), {}
    if kind == "sizing":
        path = [f"/api/size?preset=llama-3.1-70b&context={1024 * (1 + n % 64)}&sequences={1 + n % 16}",
                f"/api/size?parameters_b={7 + n % 400}&layers=80&hidden_size=8192&kv_heads=8&head_dim=128"
                f"&context=8192&mode=full&gpu={gpu}&gpu_hours=500"][n % 2]  # fmt: skip
        return "GET", path, {}
    if kind == "slider":
        return "GET", PARTIAL.format(h=hours(n)), {"headers": HX}
    if kind == "csv":
        path = ["/offers.csv", "/api/offers.csv", f"/s/{mix.slug}.csv", "/admin/api/export.csv"][n % 4]
        return "GET", path, {}
    if kind == "import":
        form = {"csrf_token": mix.admin_token, "provider": "lambda", "tenancy": "virtualized",
                "source_url": "https://example.test/vms.csv", "as_of": "2026-11-30"}  # fmt: skip
        files = {"file": ("vms.csv", mix.import_file, "text/csv")}
        return "POST", "/admin/import", {"data": form, "files": files}
    assert kind == "versions", kind
    version = 1 + n % mix.newest
    path = [f"/api/quote?gpu=H100&gpu_hours={100 + n}&catalog_version={version}",
            f"{PARTIAL.format(h=hours(n))}&catalog_version={version}",
            f"/offers?catalog_version={version}"][n % 3]  # fmt: skip
    return "GET", path, {"headers": HX} if n % 3 == 1 else {}


async def _ask(client: httpx.AsyncClient, mix: Mix, kind: str, method: str, path: str, **asked: object) -> None:
    mix.in_flight[kind] += 1
    started = time.perf_counter()
    try:
        response = await client.request(method, path, **asked)  # type: ignore[arg-type]
        status: int | str = response.status_code
        retry_after = response.headers.get("Retry-After", "").isdigit()
    except httpx.HTTPError as e:
        status, retry_after = type(e).__name__, False
    finally:
        mix.in_flight[kind] -= 1
    mix.answers.append(Answer(kind, status, time.perf_counter() - started, retry_after))


async def _sender(client: httpx.AsyncClient, mix: Mix, kind: str, address: str) -> None:
    while time.perf_counter() < mix.stop_at:
        method, path, asked = request_of(kind, mix, mix.next())
        headers = {"X-Forwarded-For": address} | asked.pop("headers", {})  # type: ignore[operator]
        await _ask(client, mix, kind, method, path, headers=headers, **asked)


async def _storms(client: httpx.AsyncClient, mix: Mix) -> None:
    """A storm of 150 wrong passwords at once every STORM_EVERY_S, from 30 addresses new each time."""
    form = {"csrf_token": _token((await client.get("/admin/login")).text), "username": OWNER, "password": WRONG}
    storms = []
    for wave in itertools.count():
        if time.perf_counter() >= mix.stop_at:
            break
        storms += [
            asyncio.create_task(
                _ask(
                    client,
                    mix,
                    "sign-in",
                    "POST",
                    "/admin/login",
                    data=form,
                    headers={"X-Forwarded-For": f"198.51.{wave}.{n // 5}"},
                )  # fmt: skip
            )
            for n in range(150)
        ]
        await asyncio.sleep(STORM_EVERY_S)
    await asyncio.gather(*storms)


async def _sample(server: Server, mix: Mix, done: asyncio.Event) -> tuple[float, Counter[str]]:
    """The highest RSS sampled and the kinds in flight then."""
    highest, then = 0.0, Counter[str]()
    while not done.is_set():
        rss = server.memory_mb()
        if rss > highest:
            highest, then = rss, +mix.in_flight
        await asyncio.sleep(SAMPLE_EVERY_S)
    return highest, then


async def send_mix(
    server: Server, mix: Mix, kinds: list[str], admin_cookies: httpx.Cookies
) -> tuple[float, Counter[str]]:
    """Every kind of `kinds` from its senders until `mix.stop_at`, and their last answers; the highest
    RSS sampled and the kinds in flight then. Strangers, the storm and the admin each have a client
    (cookies) of their own."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with (
        httpx.AsyncClient(base_url=mix.base, timeout=TIMEOUT_S, limits=limits) as strangers,
        httpx.AsyncClient(base_url=mix.base, timeout=TIMEOUT_S, limits=ONE_CONNECTION_EACH) as storm,
        httpx.AsyncClient(base_url=mix.base, timeout=TIMEOUT_S, cookies=admin_cookies) as admin,
    ):
        done = asyncio.Event()
        sampler = asyncio.create_task(_sample(server, mix, done))
        senders = [_storms(storm, mix)] if "sign-in" in kinds else []
        for k, kind in enumerate(KINDS):
            if kind in kinds and kind != "sign-in":
                client, address = (admin, ADMIN) if kind in ADMIN_KINDS else (strangers, f"10.{k}.0.{{}}")
                senders += [_sender(client, mix, kind, address.format(i + 1)) for i in range(SENDERS[kind])]
        await asyncio.gather(*senders)
        done.set()
        return await sampler


def move_versions(url: str, stop: threading.Event) -> None:
    """A price change every VERSION_EVERY_S, as an admin's edit makes one: a new newest catalog version."""
    engine = make_engine(url)
    with Session(engine) as session:
        offer = session.exec(select(OfferVersion.id).where(col(OfferVersion.valid_to).is_(None))).first()
    assert offer is not None
    for n in itertools.count():
        if stop.wait(VERSION_EVERY_S):
            break
        with Session(engine) as session:
            price = Decimal("3.00") + Decimal(n % 100) / 100
            offer = change_offer_price(session, offer, price, "https://example.test/budget", date(2026, 11, 30),
                                       "bench").id  # fmt: skip
            assert offer is not None
    engine.dispose()


def prepare(url: str) -> None:
    """VERSIONS price changes and the admin `owner`, at the argon2 cost in the environment."""
    engine = make_engine(url)
    with Session(engine) as session:
        offer = session.exec(select(OfferVersion.id).where(col(OfferVersion.valid_to).is_(None))).first()
        for n in range(VERSIONS):
            assert offer is not None
            offer = change_offer_price(session, offer, Decimal("2.00") + Decimal(n) / 100,
                                       "https://example.test/bench", date(2026, 11, 30), "bench").id  # fmt: skip
        create_admin(session, OWNER, PASSWORD)
    engine.dispose()


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "the form carries a CSRF token"
    return found.group(1)


def set_up(base: str, url: str) -> tuple[str, int, httpx.Cookies, str]:
    """On an emptied failure table, the admin signed in from ADMIN: the scenario saved, the newest
    version, the admin's cookies and CSRF token."""
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM loginfailure"))
        connection.execute(text("DELETE FROM adminsession"))
    with Session(engine) as session:
        newest = session.exec(select(CatalogVersion.id).order_by(col(CatalogVersion.id).desc())).first()
    engine.dispose()
    assert newest is not None
    with httpx.Client(base_url=base, timeout=TIMEOUT_S, headers={"X-Forwarded-For": ADMIN}) as admin:
        form = {"csrf_token": _token(admin.get("/admin/login").text), "username": OWNER, "password": PASSWORD}
        assert admin.post("/admin/login", data=form).status_code == 303, "the admin signs in"
        admin_token = _token(admin.get("/admin/import").text)
        scenario = {"name": "budget", "params": {"gpu_hours": 730}, "catalog_version": 1}
        saved = admin.post("/api/scenarios", json=scenario)
        saved.raise_for_status()
        return saved.json()["slug"], newest, admin.cookies, admin_token


@dataclass
class Run:
    peak_mb: float
    after_mb: float
    sampled_mb: float
    in_flight_then: Counter[str]
    answers: list[Answer]

    def by_kind(self) -> dict[str, list[Answer]]:
        found: dict[str, list[Answer]] = {}
        for answer in self.answers:
            found.setdefault(answer.kind, []).append(answer)
        return found

    def failures(self) -> list[Answer]:
        """5xx but a 503 with Retry-After (the documented refusal), and no answer at all."""
        return [a for a in self.answers if not isinstance(a.status, int) or (a.status >= 500 and not (
            a.status == 503 and a.retry_after))]  # fmt: skip


def one_run(args: argparse.Namespace, backend: str, url: str, run: int, years: list[bytes],
            import_file: bytes) -> Run:  # fmt: skip
    started = start_server(args.app_dir, url, args.logs / f"{backend}-{run}.log", TRUSTED_PROXIES="127.0.0.1")
    server = Server(started.process, started.base)
    stop = threading.Event()
    mover = threading.Thread(target=move_versions, args=(url, stop))
    try:
        slug, newest, cookies, admin_token = set_up(started.base, url)
        server.reset_peak_memory()
        mover.start()
        mix = Mix(started.base, slug, newest, admin_token, years, import_file, time.perf_counter() + args.seconds)
        sampled, then = asyncio.run(send_mix(server, mix, args.kinds, cookies))
        stop.set()
        mover.join()
        return Run(server.memory_mb("VmHWM"), server.memory_mb(), sampled, then, mix.answers)
    finally:
        stop.set()
        started.stop()


def run_line(run: Run) -> str:
    kinds = []
    for kind, answers in run.by_kind().items():
        seconds = sorted(a.seconds for a in answers)
        statuses = Counter(str(a.status) for a in answers)
        kinds.append(f"    {kind:10} {dict(sorted(statuses.items()))} p50 {percentile(seconds, 0.5):.2f} s "
                     f"p99 {percentile(seconds, 0.99):.2f} s")  # fmt: skip
    flying = ", ".join(f"{kind} {n}" for kind, n in run.in_flight_then.most_common())
    return (f"peak {run.peak_mb:.0f} MB (sampled {run.sampled_mb:.0f} MB with in flight: {flying}), "
            f"RSS after {run.after_mb:.0f} MB, failures {len(run.failures())}\n" + "\n".join(kinds))  # fmt: skip


def spread(values: list[float], unit: str) -> str:
    return f"{statistics.median(values):.0f}{unit} ({min(values):.0f}-{max(values):.0f})"


def summary(backend: str, runs: list[Run]) -> bool:
    """Prints the median of the runs; whether the budget held and nothing failed."""
    peak = statistics.median(r.peak_mb for r in runs)
    print(f"\n{backend}: median of {len(runs)} runs (min-max)")
    after = spread([r.after_mb for r in runs], " MB")
    print(f"  peak RSS {spread([r.peak_mb for r in runs], ' MB')} (goal under {BUDGET_MB} MB: "
          f"{'met' if peak < BUDGET_MB else 'NOT met'}), RSS after {after}")  # fmt: skip
    for kind in KINDS:
        answers = [r.by_kind().get(kind, []) for r in runs]
        if not all(answers):
            continue
        p50 = [percentile(sorted(a.seconds for a in found), 0.5) * 1000 for found in answers]
        p99 = [percentile(sorted(a.seconds for a in found), 0.99) * 1000 for found in answers]
        counts = [len(found) for found in answers]
        print(f"  {kind:10} {spread(counts, '')} answers, p50 {spread(p50, ' ms')}, p99 {spread(p99, ' ms')}")
    failed = sum(len(r.failures()) for r in runs)
    print(f"  failures (5xx but 503 with Retry-After, or no answer): {failed}")
    return peak < BUDGET_MB and not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kinds", default="all", help=f"all, or some of {','.join(KINDS)}")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout whose app is served")
    parser.add_argument("--logs", type=Path, help="a folder to keep the server's logs in (default: thrown away)")
    args = parser.parse_args()
    args.kinds = KINDS if args.kinds == "all" else args.kinds.split(",")
    assert set(args.kinds) <= set(KINDS), f"kinds are {KINDS}"
    years = [json.dumps({"gpu": "H100", "demand": "hourly", "hourly": scattered_year(n)}).encode() for n in range(60)]
    import_file = skypilot_file(IMPORT_BYTES)
    print(f"serving {args.app_dir}; {', '.join(args.kinds)} for {args.seconds:g} s; {args.runs} run(s)")
    met = True
    with tempfile.TemporaryDirectory(prefix="bench-budget-") as folder:
        args.logs = args.logs or Path(folder)
        for backend in args.backends.split(","):
            url = database(backend, Path(folder))
            prepare(url)
            runs = []
            for run in range(1, args.runs + 1):
                runs.append(one_run(args, backend, url, run, years, import_file))
                print(f"{backend} run {run}: {run_line(runs[-1])}", flush=True)
            met &= summary(backend, runs)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
