"""Benchmark: what a training run across nodes costs to quote (issue 38), in process, on the shipped catalog.

Why: a run too large for one node is quoted on whole nodes with the published scaling, and the page
draws the same run at every power of two GPUs up to 8,192, each a quote of its own. Reports, median of
the runs with min and max: the run's quote at fresh inputs, the run at every size (the chart), and their
ratio in each run.

Usage: python bench/bench_runs.py [--runs 3] [--quotes 10]
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
from app.quoting.build import QuoteResult, build_quote  # noqa: E402
from app.quoting.params.quote import QuoteParams  # noqa: E402
from app.quoting.run_sizes import run_sizes  # noqa: E402

RUN = {"job": "train", "preset": "llama-3.1-70b", "train_tokens_b": 15000, "run_gpus": 64, "gpu": "H100"}


def run(url: str, quotes: int) -> tuple[float, float]:
    """The mean of `quotes` run quotes at fresh inputs, and of their charts' sizes, ms."""
    catalogs = Catalogs(make_engine(url))
    build_quote(catalogs, QuoteParams(**RUN))  # the catalog read once, as a running server has it
    quote_ms = sizes_ms = 0.0
    for i in range(quotes):
        started = time.perf_counter()
        result = build_quote(catalogs, QuoteParams(**RUN | {"train_tokens_b": 15000 + i + 1}))
        quote_ms += (time.perf_counter() - started) * 1000
        assert isinstance(result, QuoteResult)
        started = time.perf_counter()
        run_sizes(catalogs, result)
        sizes_ms += (time.perf_counter() - started) * 1000
    return quote_ms / quotes, sizes_ms / quotes


def _said(name: str, values: list[float], unit: str = "ms") -> str:
    return f"{name}: median {statistics.median(values):.1f} {unit} (min {min(values):.1f}, max {max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quotes", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{os.path.join(folder, 'bench.db')}"
        bring_up_to_date(url)
        results = [run(url, args.quotes) for _ in range(args.runs)]
    for i, (quote, sizes) in enumerate(results, 1):
        print(f"run {i}: the run's quote {quote:.1f} ms; the run at every size {sizes:.1f} ms")
    quotes, sizes = [r[0] for r in results], [r[1] for r in results]
    print(_said("Llama 3.1 70B on 64 H100 across nodes, one quote", quotes))
    print(_said("the same run at every size (the chart)", sizes))
    print(_said("ratio chart / quote", [s / q for q, s in results], "x"))


if __name__ == "__main__":
    main()
