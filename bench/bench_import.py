"""Times a 10,000-row SkyPilot CSV import against the full shipped catalog: preview, then apply.

Run by hand: `python bench/bench_import.py [--rows N]`. Prints seconds for each step.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlmodel import Session  # noqa: E402

from app.catalog.imports import apply_import, plan_import  # noqa: E402
from app.catalog.seed import load_seed  # noqa: E402
from app.platform.db import make_engine, migrate  # noqa: E402


def skypilot_csv(rows: int) -> str:
    """Distinct offers of known GPUs: what a big provider file looks like."""
    gpus = ["H100", "A100-80GB", "L40S", "L4", "H200"]
    lines = ["InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,GpuInfo"]
    for i in range(rows // 2):
        gpu = gpus[i % len(gpus)]
        lines.append(
            f"bench-{i},{gpu},{1 + i % 8},8,64,{1 + i % 300 / 100:.2f},{0.5 + i % 200 / 100:.2f},region-{i % 40},"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000, help="offers to import (two per line: on demand and spot)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        migrate(url)
        engine = make_engine(url)
        with Session(engine) as session:
            load_seed(session)
            session.commit()
            text = skypilot_csv(args.rows)
            started = time.perf_counter()
            plan = plan_import(session, text, 1, "lambda", "virtualized", "https://example.test/vms.csv", date.today())
            previewed = time.perf_counter()
            apply_import(session, plan, "bench import", "bench")
            applied = time.perf_counter()
    print(f"rows: {len(plan.add) + len(plan.change)} offers ({len(text) / 1e6:.1f} MB), problems: {len(plan.problems)}")
    print(
        f"preview: {previewed - started:.2f} s   apply: {applied - previewed:.2f} s   total: {applied - started:.2f} s"
    )


if __name__ == "__main__":
    main()
