"""Benchmark: the server's memory while every catalog version there is gets asked for, and how long
another client waits meanwhile.

Why: each catalog version the process reads is ~1 MB in memory at the shipped size and ~10 MB at ten
times it, and the work derived from it (offers priced for inputs, the explorer's rows, rendered
fragments) more again; a process that kept every version asked for grew without end (issue 11), and
one that loaded a version inside an async route made every other client wait for the load (issue 18:
up to 8 s at 110,853 offers). Goals: RSS bounded however many versions are asked for (under 150 MB
at the shipped size), and a request for a version the process keeps never waits for another's load.

Usage: python bench/bench_memory.py [--scale 10] [--versions 30] [--runs 3] [--checkout DIR]

Makes a fresh SQLite file with the shipped catalog grown `--scale`-fold by bench/scaled_catalog.py
and N more versions (one price change each), then per run starts a real uvicorn on it (one worker)
and asks, for every version, `/api/quote?catalog_version=v`, the calculator's htmx partial and the
explorer's `/offers?catalog_version=v`, twice, printing the server's RSS (VmRSS) after start, after
the first pass and after the second. Meanwhile another process asks `/api/health` and a quote at
the newest version (which the process always keeps) in turn, every 20 ms, and reports the longest
each waited. Prints each run, then the median of the runs with min and max. `--checkout DIR`
serves the app from another checkout (e.g. `git archive main | tar -x -C DIR`), to compare before
and after on one database in one session.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from decimal import Decimal
from multiprocessing.synchronize import Event
from pathlib import Path

from sqlmodel import Session, col, func, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.catalog.changes import change_offer_price  # noqa: E402
from app.catalog.tables import CatalogVersion, OfferVersion  # noqa: E402
from app.platform.db import make_engine  # noqa: E402
from bench.bench_partial import FORM, HOST, QUOTE, free_port, get, hours, rss_mb, wait_ready  # noqa: E402
from bench.scaled_catalog import shipped_times  # noqa: E402

PROBE_PAUSE_S = 0.02


def make_database(path: Path, scale: int, versions: int) -> tuple[int, int]:
    """The shipped catalog times `scale`, then `versions` price changes of one offer; returns the
    newest version and the number of current offers."""
    url = f"sqlite:///{path}"
    offers = shipped_times(url, scale)
    engine = make_engine(url)
    with Session(engine) as session:
        offer = session.exec(select(OfferVersion.id).where(col(OfferVersion.valid_to).is_(None))).first()
        assert offer is not None
        for n in range(versions):
            price = Decimal("2.00") + Decimal(n) / 100
            offer = change_offer_price(
                session, offer, price, "https://example.test/bench", date(2026, 11, 30), "bench"
            ).id
        newest = session.exec(select(func.max(CatalogVersion.id))).one()
    engine.dispose()
    return newest, offers


def probe(port: int, newest: int, stop: Event, found: multiprocessing.Queue) -> None:
    """Another client: `/api/health` and a kept quote in turn until `stop`; puts each path's longest wait."""
    paths = {"/api/health": 0.0, QUOTE + f"&catalog_version={newest}": 0.0}
    connection = http.client.HTTPConnection(HOST, port, timeout=120)
    i = 0
    while not stop.is_set():
        for path in paths:
            i += 1
            started = time.perf_counter()
            connection.request("GET", path.replace("{h}", hours(i)))
            response = connection.getresponse()
            response.read()
            assert response.status == 200, (path, response.status)
            paths[path] = max(paths[path], time.perf_counter() - started)
            time.sleep(PROBE_PAUSE_S)
    found.put({"health" if "health" in path else "kept quote": wait for path, wait in paths.items()})


def one_run(db: Path, newest: int, checkout: Path, log: Path) -> dict[str, float]:
    port = free_port()
    env = os.environ | {"DATABASE_URL": f"sqlite:///{db}", "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", HOST, "--port", str(port)]
    with log.open("w") as log_file:
        server = subprocess.Popen(
            [*command, "--log-level", "warning"], cwd=checkout, env=env, stdout=log_file, stderr=subprocess.STDOUT
        )
    stop, found = multiprocessing.Event(), multiprocessing.Queue()
    prober = multiprocessing.Process(target=probe, args=(port, newest, stop, found))
    try:
        wait_ready(server, port, log)
        figures = {"RSS after start": rss_mb(server.pid)}
        prober.start()
        for n in (1, 2):
            started = time.perf_counter()
            for version in range(1, newest + 1):
                for path, headers in (
                    (f"/api/quote?gpu=H100&catalog_version={version}", {}),
                    (f"/?{FORM.format(h=100 + version)}&catalog_version={version}", {"HX-Request": "true"}),
                    (f"/offers?catalog_version={version}", {}),
                ):
                    status, _ = get(port, path, headers)
                    assert status == 200, (path, status)
            figures[f"pass {n} seconds"] = time.perf_counter() - started
            figures[f"RSS after pass {n}"] = rss_mb(server.pid)
        stop.set()
        waits = found.get(timeout=300)
        prober.join()
        figures |= {f"longest wait, {name}": seconds * 1000 for name, seconds in waits.items()}
        return figures
    finally:
        stop.set()
        server.terminate()
        server.wait()


UNITS = {"RSS": "MB", "pass": "s", "longest": "ms"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, default=10, help="the shipped catalog times this (default 10)")
    parser.add_argument("--versions", type=int, default=30, help="price changes after it, one version each")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--checkout", type=Path, default=ROOT, help="serve the app from this checkout")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp_name:
        tmp = Path(tmp_name)
        newest, offers = make_database(tmp / "memory.db", args.scale, args.versions)
        print(f"{offers} current offers; versions 1 to {newest}, each asked by /api/quote, the partial and /offers,")
        print(f"two passes; another client asks /api/health and a kept quote every {PROBE_PAUSE_S * 1000:.0f} ms")
        print(f"serving {args.checkout}")
        runs = []
        for run in range(1, args.runs + 1):
            db = tmp / f"run-{run}.db"
            shutil.copy(tmp / "memory.db", db)
            runs.append(one_run(db, newest, args.checkout.resolve(), tmp / f"server-{run}.log"))
            print(f"run {run}: " + ", ".join(f"{k} {v:.1f}" for k, v in runs[-1].items()), flush=True)
    print("median of the runs (min-max):")
    for name in runs[0]:
        values = [r[name] for r in runs]
        unit = UNITS[name.split()[0]]
        print(f"  {name:<28} {statistics.median(values):8.1f} {unit} ({min(values):.1f}-{max(values):.1f})")


if __name__ == "__main__":
    main()
