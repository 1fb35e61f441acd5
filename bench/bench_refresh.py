"""Times `python -m app.admin refresh --all --apply` on a fresh SQLite database of the shipped
catalog, every source answered from the tests' recorded samples (the others answering 404, as an
unreachable source would), and a gpuhunt catalog of many rows read and applied on its own.

Run by hand: `python bench/bench_refresh.py [--rows N]`. Prints seconds for each step, and how many
of the catalog's current prices are undated before and after. The samples are not real prices.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlmodel import Session  # noqa: E402

from app.admin import __main__ as admin  # noqa: E402
from app.catalog.exports import current_offers  # noqa: E402
from app.platform.db import make_engine  # noqa: E402
from app.platform.settings import settings  # noqa: E402
from app.refresh import runs  # noqa: E402
from tests.refresh.conftest import (  # noqa: E402
    AZURE,
    ECB,
    LAMBDA_URL,
    OCI,
    answering,
    azure_routes,
    gpuhunt_routes,
    recorded,
)

HEADER = "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags,cpu_arch,provider_data"  # noqa: E501


def recorded_routes() -> dict:
    return (
        {LAMBDA_URL: recorded("skypilot_lambda_vms.csv"), OCI: recorded("oci_products.json"),
         ECB: recorded("ecb_eurofxref_daily.xml")}
        | azure_routes() | gpuhunt_routes("lambdalabs") | gpuhunt_routes("oci") | gpuhunt_routes("runpod")
        | gpuhunt_routes("cloudrift")
    )  # fmt: skip


def large_catalog(rows: int) -> str:
    """Distinct instance types of known GPUs in 40 regions, on demand and spot: a big provider's file."""
    gpus = [("H100", 80), ("A100", 80), ("L40S", 48), ("L4", 24), ("H200", 141)]
    lines = [HEADER]
    for i in range(rows):
        gpu, memory = gpus[i % len(gpus)]
        price = 1 + i % 300 / 100
        lines.append(f"bench-{i // 80}.{i % 5},region-{i // 2 % 40},{price:.2f},8,64.0,1,{gpu},{memory}.0,"
                     f"{i % 2 == 1},,nvidia,,x86,{{}}")  # fmt: skip
    return "\n".join(lines) + "\n"


def undated(url: str) -> tuple[int, int]:
    with Session(make_engine(url)) as session:
        from app.catalog.snapshot import catalogs_for

        offers = [row for _, row in current_offers(session, catalogs_for(session.get_bind()).newest())]
    return sum(row.as_of is None for row in offers), len(offers)


def timed(argv: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = admin.main(argv)
    return time.perf_counter() - start, status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=20_000, help="rows of the large gpuhunt catalog")
    args = parser.parse_args()
    settings.azure_prices_url, settings.oci_prices_url = AZURE, OCI
    with tempfile.TemporaryDirectory() as folder:
        settings.database_url = f"sqlite:///{folder}/bench.db"
        seconds, _ = timed(["migrate"])
        print(f"migrate and load the shipped catalog: {seconds:.2f} s")
        before = undated(settings.database_url)
        admin.http_client = lambda: answering(recorded_routes())  # type: ignore[attr-defined]
        for run in (1, 2):
            seconds, status = timed(["refresh", "--all", "--apply"])
            print(f"refresh --all --apply, run {run}, {len(runs.EVERY_SOURCE)} sources: {seconds:.2f} s "
                  f"(exit {status}: the sources without a recorded answer fail)")  # fmt: skip
        after = undated(settings.database_url)
        print(f"undated current prices: {before[0]} of {before[1]} before, {after[0]} of {after[1]} after")
        routes = gpuhunt_routes("aws", large_catalog(args.rows))
        admin.http_client = lambda: answering(routes)  # type: ignore[attr-defined]
        seconds, status = timed(["refresh", "gpuhunt:aws", "--apply"])
        print(f"refresh gpuhunt:aws --apply, {args.rows:,} rows: {seconds:.2f} s (exit {status})")


if __name__ == "__main__":
    main()
