"""Benchmark: what the throughput estimate costs (issue 37), in process, on the shipped catalog.

Why: the estimate's calibration and its leave-one-out checks are worked out once per catalog version
(the first job quote after a catalog change pays them), and a serving job on "any GPU" estimates
every GPU model without a benchmark at each move of the tokens slider; GPU-hours on "any GPU" work out
every GPU model's speed once per set of inputs but GPU-hours. Reports, median of the runs with min and
max: the first quote of a version (calibration and checks included), then a serving job on any GPU at
fresh volumes against the same GPU-hours quote on any GPU, and their ratio in each run, then GPU-hours
on any GPU at a fresh context each time (every speed worked out anew).

Usage: python bench/bench_estimate.py [--runs 3] [--moves 40]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.catalog.snapshot import Catalogs  # noqa: E402
from app.catalog.updates import bring_up_to_date  # noqa: E402
from app.platform.db import make_engine  # noqa: E402
from app.quoting.build import build_quote  # noqa: E402
from app.quoting.params.quote import QuoteParams  # noqa: E402

SERVE = {"job": "serve", "preset": "llama-3.1-70b", "gpu": "any"}
HOURS = {"preset": "llama-3.1-70b", "gpu": "any"}


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def run(url: str, moves: int) -> tuple[float, float, float, float]:
    """The first serving quote of a fresh catalog, then the mean of `moves` serving and GPU-hours moves and
    of GPU-hours quotes at fresh contexts, ms."""
    catalogs = Catalogs(make_engine(url))
    started = time.perf_counter()
    build_quote(catalogs, QuoteParams(**SERVE, output_tokens_m=300))
    first = _ms(started)
    started = time.perf_counter()
    for i in range(moves):
        build_quote(catalogs, QuoteParams(**SERVE, output_tokens_m=301 + i))
    serve = _ms(started) / moves
    started = time.perf_counter()
    for i in range(moves):
        build_quote(catalogs, QuoteParams(**HOURS, gpu_hours=301 + i))
    hours = _ms(started) / moves
    started = time.perf_counter()
    for i in range(moves):
        build_quote(catalogs, QuoteParams(**HOURS, context=4096 + i))
    fresh = _ms(started) / moves
    return first, serve, hours, fresh


def _said(name: str, values: list[float], unit: str = "ms") -> str:
    return f"{name}: median {statistics.median(values):.1f} {unit} (min {min(values):.1f}, max {max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{os.path.join(folder, 'bench.db')}"
        bring_up_to_date(url)
        results = [run(url, args.moves) for _ in range(args.runs)]
    for i, (first, serve, by_hours, fresh) in enumerate(results, 1):
        print(
            f"run {i}: first quote {first:.0f} ms; moves: serving {serve:.1f} ms, GPU-hours {by_hours:.1f} ms; "
            f"GPU-hours at a fresh context {fresh:.1f} ms"
        )
    firsts, serves, by_hours, fresh_inputs = ([r[i] for r in results] for i in range(4))
    print(_said("first serving quote of a catalog version (calibration and checks)", firsts))
    print(_said("a serving job on any GPU, one move", serves))
    print(_said("GPU-hours on any GPU, one move", by_hours))
    print(_said("ratio serving / GPU-hours move", [s / h for s, h in zip(serves, by_hours, strict=True)], "x"))
    print(_said("GPU-hours on any GPU at a fresh context (every speed worked out)", fresh_inputs))


if __name__ == "__main__":
    main()
