"""Times the price history page of the GPU model with the most points against the calculator's full
page, in one process on a fresh SQLite database brought up as a server starts (migrations, the
shipped catalog and its history).

Why: issue 25 asks that the history page of the GPU model with the most points render at no more
than 3x the calculator's full page. Each calculator call asks for other GPU-hours, so no memo of a
move makes it look cheaper than a user's first visit (the offers priced for the other inputs are
kept, as in use). The history page is kept for each newest catalog version, as in use: it prints
that, and the page worked out afresh as after each price change (its cache cleared before each call).

Run by hand: `python bench/bench_history.py [--calls N]`. Each figure is the median of 3 runs (each
the mean of `--calls` calls after one warm-up) with the min and max of the runs; the ratio is taken
within each run.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient  # noqa: E402

from app.catalog.history import gpu_with_most_points  # noqa: E402
from app.main import create_app  # noqa: E402
from app.web.history import routes as history_route  # noqa: E402


def mean_ms(call: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - start) / calls * 1000


def summary(values: list[float], unit: str) -> str:
    return f"{statistics.median(values):8.2f}{unit} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, TestClient(create_app(f"sqlite:///{folder}/bench.db")) as client:
        with client.app.state.db() as session:  # type: ignore[attr-defined]
            gpu = gpu_with_most_points(session)
        hours = itertools.count(100)

        def history() -> None:
            response = client.get(f"/history/{gpu}")
            assert response.status_code == 200 and "history-series" in response.text

        def history_afresh() -> None:
            history_route._found.cache_clear()
            history()

        def calculator() -> None:
            response = client.get(f"/?gpu={gpu}&gpu_hours={next(hours)}")
            assert response.status_code == 200 and 'class="options"' in response.text

        history(), calculator()
        runs = [
            (mean_ms(history, args.calls), mean_ms(calculator, args.calls), mean_ms(history_afresh, args.calls))
            for _ in range(3)
        ]
        size = len(client.get(f"/history/{gpu}").content)
    print(f"GPU model with the most points: {gpu}; its history page is {size / 1000:,.0f} kB")
    print(f"{'history page, /history/' + str(gpu):<52} {summary([h for h, _, _ in runs], ' ms')}")
    print(f"{'history page afresh (a new catalog version)':<52} {summary([a for _, _, a in runs], ' ms')}")
    print(f"{'calculator full page, /?gpu=...':<52} {summary([c for _, c, _ in runs], ' ms')}")
    print(f"{'ratio, history / calculator (goal <= 3x)':<52} {summary([h / c for h, c, _ in runs], 'x')}")
    print(f"{'ratio, history afresh / calculator':<52} {summary([a / c for _, c, a in runs], 'x')}")


if __name__ == "__main__":
    main()
