"""Benchmark: the server's memory while every catalog version there is gets asked for.

Why: each catalog version the process reads is ~1 MB in memory; a process that kept every version
asked for grew without end (issue 11: 109 -> 389 MiB for 321 versions). The goal is that RSS stays
under 150 MB however many versions are asked for.

Usage: python bench/bench_memory.py [--versions N]

Makes a fresh SQLite file with the shipped catalog (version 3) and N more versions (one price
change each), starts a real uvicorn on it, asks `/api/quote?catalog_version=v` and the explorer's
`/offers?catalog_version=v` for every version, twice, and prints the server's RSS (VmRSS) after
start, after the first pass and after the second.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

from sqlmodel import Session, col, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.catalog.changes import change_offer_price  # noqa: E402
from app.catalog.tables import OfferVersion  # noqa: E402
from app.catalog.updates import load_shipped_catalog  # noqa: E402
from app.db import make_engine, migrate  # noqa: E402
from bench.bench_partial import HOST, free_port, get  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def make_database(path: Path, versions: int) -> int:
    url = f"sqlite:///{path}"
    migrate(url)
    engine = make_engine(url)
    with Session(engine) as session:
        load_shipped_catalog(session)
        offer = session.exec(select(OfferVersion.id).where(col(OfferVersion.valid_to).is_(None))).first()
        assert offer is not None
        for n in range(versions):
            price = Decimal("2.00") + Decimal(n) / 100
            offer = change_offer_price(
                session, offer, price, "https://example.test/bench", date(2026, 11, 30), "bench"
            ).id
        newest = session.exec(select(OfferVersion.valid_from).order_by(col(OfferVersion.valid_from).desc())).first()
    engine.dispose()
    return newest or 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", type=int, default=320)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "memory.db"
        newest = make_database(db, args.versions)
        port = free_port()
        env = os.environ | {"DATABASE_URL": f"sqlite:///{db}"}
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "app.main:app",
                "--host",
                HOST,
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        try:
            for _ in range(100):
                try:
                    if get(port, "/api/health")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.2)
            figures = [("after start", rss_mb(server.pid))]
            for n in (1, 2):
                started = time.perf_counter()
                for version in range(1, newest + 1):
                    for path in (
                        f"/api/quote?gpu=H100&catalog_version={version}",
                        f"/offers?catalog_version={version}",
                    ):
                        status, _ = get(port, path)
                        assert status == 200, (path, status)
                figures.append((f"after pass {n} ({time.perf_counter() - started:.0f} s)", rss_mb(server.pid)))
        finally:
            server.terminate()
            server.wait()
    print(f"catalog versions asked for: 1 to {newest}, each by /api/quote and /offers, two passes")
    for label, mb in figures:
        print(f"RSS {label:<24} {mb:6.1f} MB")
    peak = max(mb for _, mb in figures)
    print(f"goal RSS < 150 MB: {'met' if peak < 150 else 'NOT MET'} (peak {peak:.1f} MB)")


if __name__ == "__main__":
    main()
