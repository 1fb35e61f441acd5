"""Benchmark: a SkyPilot file imported at /admin/import of a real server, as an admin meets it, and
the first answers the catalog it leaves gives: time and the server's peak memory for each step.

Why (issue 40): a generated file of 360,000 offers (180,000 lines, 8.2 MB: the largest of
`skypilot_csv` the 8 MiB upload takes) previewed in 15 s and applied in 83 s with 2.3 GB of RSS,
and the first quote after it took 44 s and 4.3 GB. CATALOG_OFFERS_MAX now bounds the current offers
of one catalog version. Goals: a file past the bound refused (422) in seconds and little memory; at
the bound, a version whose first quote, new set of inputs and explorer page stay fast, and whose
memory the README can state.

Usage: python bench/bench_import.py [--runs 3] [--backends sqlite,postgresql] [--cases big,bound]
       [--bound 20000] [--checkout DIR] [--logs DIR]

For each backend, case and run: a fresh database as the app's first start leaves it (the shipped
catalog; PostgreSQL: a throwaway server started as the tests start one, or TEST_POSTGRESQL_URL) with
an admin, served by one uvicorn process (one worker, CATALOG_OFFERS_MAX=`--bound`). The admin signs
in (CSRF token, as a browser), then, each step timed from request to answer with the server's peak
RSS (VmHWM, reset through /proc/PID/clear_refs before the step):

- preview: the file uploaded to /admin/import (provider lambda, today), its status (200: a plan to
  apply; 422: refused) and the page's summary;
- apply: the previewed plan applied, where the preview offered it (303);
- first quote: /api/quote?gpu=H100&gpu_hours=100, the first after the import;
- new inputs: the same with an egress figure no earlier request asked (the offers priced afresh);
- explorer: /offers?gpu=H100, its first page.

Cases: `big`, the 360,000-offer file; `bound`, a file of as many new offers as bring the shipped
catalog exactly to `--bound`. Prints each run, then per case and step the median of the runs with
min and max. `--checkout DIR` serves another checkout (`git archive 7f55e17 | tar -x -C DIR`), to
measure before and after in one session; a checkout without the bound applies every file.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

# A sign-in's argon2 check is not what this measures: the cheapest cost, set before the app reads its
# settings and inherited by the server, keeps its memory out of the peaks.
os.environ |= {"PASSWORD_HASH_TIME_COST": "1", "PASSWORD_HASH_MEMORY_KIB": "8", "PASSWORD_HASH_PARALLELISM": "1"}

import httpx  # noqa: E402
from sqlmodel import Session  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.admin.accounts import create_admin  # noqa: E402
from app.catalog.plans import current_offer_count  # noqa: E402
from app.platform.db import make_engine  # noqa: E402
from bench.bench_limits import database  # noqa: E402
from bench.bench_sign_ins import serve  # noqa: E402
from tests.faults.servers import Server  # noqa: E402

ADMIN, PASSWORD = "owner", "correct horse battery"
BIG_OFFERS = 360_000
"""180,000 lines, 8.2 MB: the largest file of `skypilot_csv` under the 8 MiB upload limit."""
QUOTE = "/api/quote?gpu=H100&gpu_hours=100"
RESTARTED = "restarted: "
STEPS = (
    "preview",
    "apply",
    "first quote",
    "new inputs",
    "explorer",
    *(RESTARTED + s for s in ("first quote", "new inputs", "explorer")),
)


def skypilot_csv(rows: int) -> str:
    """`rows` distinct offers of known GPUs, two a line (on demand and spot; an odd one on demand
    alone): what a big provider file looks like."""
    gpus = ["H100", "A100-80GB", "L40S", "L4", "H200"]
    lines = ["InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,GpuInfo"]
    for i in range((rows + 1) // 2):
        gpu = gpus[i % len(gpus)]
        spot = f"{0.5 + i % 200 / 100:.2f}" if 2 * i + 1 < rows else ""
        lines.append(f"bench-{i},{gpu},{1 + i % 8},8,64,{1 + i % 300 / 100:.2f},{spot},region-{i % 40},")
    return "\n".join(lines) + "\n"


@dataclass
class Step:
    status: int
    seconds: float
    peak_mb: float


def _token(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "the page carries a CSRF token"
    return found.group(1)


def sign_in(client: httpx.Client) -> None:
    form = {"csrf_token": _token(client.get("/admin/login").text), "username": ADMIN, "password": PASSWORD}
    answer = client.post("/admin/login", data=form)
    assert answer.status_code == 303, f"sign-in answered {answer.status_code}"


def timed(server: Server, ask: httpx.Request, client: httpx.Client) -> tuple[httpx.Response, Step]:
    server.reset_peak_memory()
    started = time.perf_counter()
    response = client.send(ask)
    seconds = time.perf_counter() - started
    return response, Step(response.status_code, seconds, server.memory_mb("VmHWM"))


def import_steps(server: Server, client: httpx.Client, csv_text: str, run: int) -> tuple[dict[str, Step], str]:
    """Each step's status, time and peak; the preview's summary."""
    steps = {}
    form = {"csrf_token": _token(client.get("/admin/import").text), "provider": "lambda", "tenancy": "virtualized",
            "source_url": "https://example.test/vms.csv", "as_of": date.today().isoformat()}  # fmt: skip
    files = {"file": ("vms.csv", csv_text.encode(), "text/csv")}
    preview, steps["preview"] = timed(
        server, client.build_request("POST", "/admin/import", data=form, files=files), client
    )
    summary = re.search(r"<p>(\d[\d,]* rows read:.*?)</p>", preview.text, re.S)
    said = " ".join(re.sub(r"<[^>]+>", "", summary.group(1)).split()) if summary else preview.text[:200]
    applying = re.search(r'action="(/admin/import/\d+/apply)"', preview.text)
    if applying:
        note = {"csrf_token": _token(preview.text), "note": "bench import"}
        _, steps["apply"] = timed(server, client.build_request("POST", applying.group(1), data=note), client)
    return steps | answers(server, client, run), said


def answers(server: Server, client: httpx.Client, run: int, prefix: str = "") -> dict[str, Step]:
    """The first quote, a new set of inputs and the explorer's first page, in that order."""
    steps = {}
    for step, path in (("first quote", QUOTE), ("new inputs", f"{QUOTE}&egress_gb={250 + run}"),
                       ("explorer", "/offers?gpu=H100")):  # fmt: skip
        _, steps[prefix + step] = timed(server, client.build_request("GET", path), client)
    return steps


def one_run(backend: str, case: str, run: int, args: argparse.Namespace, folder: Path) -> dict[str, object]:
    """A fresh database and server for one case; what each step cost."""
    place = folder / f"{backend}-{case}-{run}"
    place.mkdir()
    url = database(backend, place)
    engine = make_engine(url)
    with Session(engine) as session:
        create_admin(session, ADMIN, PASSWORD)
        shipped = current_offer_count(session)
    engine.dispose()
    offers = BIG_OFFERS if case == "big" else args.bound - shipped
    csv_text = skypilot_csv(offers)
    os.environ["CATALOG_OFFERS_MAX"] = str(args.bound)
    found: dict[str, object] = {"shipped": shipped, "offers": offers, "bytes": len(csv_text.encode()),
                                "lines": csv_text.count("\n") - 1}  # fmt: skip
    log = (args.logs or place) / f"{backend}-{case}-{run}"
    with serving(url, args.checkout.resolve(), log.with_suffix(".log")) as server:
        found["started MB"] = server.memory_mb()
        with httpx.Client(base_url=server.url, timeout=3600) as client:
            sign_in(client)
            found["steps"], found["said"] = import_steps(server, client, csv_text, run)
        found["after MB"] = server.memory_mb()
    if case == "bound" and "apply" in found["steps"]:  # type: ignore[operator]
        with serving(url, args.checkout.resolve(), log.with_suffix(".restarted.log")) as server:
            found["restarted MB"], found["restart peak MB"] = server.memory_mb(), server.memory_mb("VmHWM")
            with httpx.Client(base_url=server.url, timeout=3600) as client:
                found["steps"] |= answers(server, client, run, RESTARTED)  # type: ignore[operator]
    return found


@contextmanager
def serving(url: str, checkout: Path, log: Path) -> Iterator[Server]:
    server, _ = serve(url, checkout, log)
    try:
        yield server
    finally:
        server.process.terminate()
        server.process.wait(timeout=60)


def spread(values: list[float], form: str) -> str:
    return f"{statistics.median(values):{form}} ({min(values):{form}}-{max(values):{form}})"


def report(backend: str, case: str, runs: list[dict[str, object]]) -> None:
    first = runs[0]
    print(f"\n{backend}, {case}: {first['offers']:,} offers in {first['lines']:,} lines, "
          f"{first['bytes'] / 1e6:.1f} MB, onto {first['shipped']:,} shipped; {len(runs)} run(s)")  # fmt: skip
    print(f"  RSS after start {spread([r['started MB'] for r in runs], '.0f')} MB, "  # type: ignore[misc]
          f"after the steps {spread([r['after MB'] for r in runs], '.0f')} MB")  # type: ignore[misc]  # fmt: skip
    if "restarted MB" in first:
        print(f"  restarted on that catalog: RSS after start {spread([r['restarted MB'] for r in runs], '.0f')} MB, "  # type: ignore[misc]
              f"peak while starting {spread([r['restart peak MB'] for r in runs], '.0f')} MB")  # type: ignore[misc]  # fmt: skip
    print(f"  preview said: {first['said']}")
    for step in STEPS:
        found = [r["steps"][step] for r in runs if step in r["steps"]]  # type: ignore[operator,index]
        if not found:
            continue
        statuses = "/".join(sorted({str(s.status) for s in found}))
        seconds = spread([s.seconds for s in found], ".2f")
        peak = spread([s.peak_mb for s in found], ".0f")
        print(f"  {step:22}  {statuses:4} {seconds} s   peak RSS {peak} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--cases", default="big,bound", help="big (360,000 offers), bound (up to --bound)")
    parser.add_argument("--bound", type=int, default=20_000, help="CATALOG_OFFERS_MAX of the server")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="serve the app from this checkout")
    parser.add_argument("--logs", type=Path, help="a folder to keep the server's logs in (default: thrown away)")
    args = parser.parse_args()
    print(f"serving {args.checkout.resolve()}; CATALOG_OFFERS_MAX={args.bound}; {args.runs} run(s)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-import-") as folder:
        for backend in args.backends.split(","):
            for case in args.cases.split(","):
                runs = []
                for run in range(args.runs):
                    found = one_run(backend, case, run, args, Path(folder))
                    steps = ", ".join(f"{n} {s.status} {s.seconds:.2f} s {s.peak_mb:.0f} MB"
                                      for n, s in found["steps"].items())  # type: ignore[attr-defined]  # fmt: skip
                    print(f"{backend} {case} run {run + 1}: {steps}", flush=True)
                    runs.append(found)
                report(backend, case, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
