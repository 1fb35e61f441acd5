"""Times the hybrid split of a month of hourly demand against a plain quote of the same GPU model,
both with their offers priced afresh, in process on the shipped catalog.

Why: issue 24's target: "a month of hourly demand (744 values) with every k up to 64 priced costs at
most 5x a plain quote of the same GPU model with its offers priced afresh". Ratios within one run,
not absolute figures, are what this script reports against the goal: the machine is shared.

Run by hand: `python bench/bench_split.py [--calls N] [--runs 3]`. Each run times, one after the
other (each run starting one further down the list, so that drift does not always favour the same
one), `--calls` calls of:

- a plain H100 quote (`job=hours`) at the profile's GPU-hours and 64 GPUs at once, and the same at the
  form's defaults (500 GPU-hours, 1 GPU);
- the split of the month (`job=split`, `demand=hourly`): the plain quote above and the split beside it;
- the split search alone (`split_quote` on the H100 offers as the split's quote priced them);
- a serving job (Llama 3.1 8B on H100, the shipped benchmark) all month, and the split of the same
  tokens spread over a day (`demand=serving`), each through `build_quote`.

Every `build_quote` call is priced afresh: each has an `hourly_key` of its own, an input in the memo's key
(app/quoting/moves.py) that quoting does not read (the key an upload is stored under), so each call
misses the memo and prices the offers, the break-evens and the split again, and weighs what it adds
to the memo, as a user's new inputs would. Building the inputs (reading 744 lines once more in
their validator) is left out of the time; `build_quote` reads the profile from them again, timed.
Prints each run's ms per call and the ratios within it, then the median of the runs with min and max.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.catalog.snapshot import Catalogs  # noqa: E402
from app.quoting.build import QuoteResult, build_quote  # noqa: E402
from app.quoting.moves import move_key  # noqa: E402
from app.quoting.params.quote import QuoteParams  # noqa: E402
from app.quoting.split import split_quote  # noqa: E402
from tests.factories import shipped_catalogs  # noqa: E402

DAYS = 31
TRAINING_RUNS = ((100, 30), (330, 40), (560, 24))
"""(first hour, hours) of each training run at the peak."""
PEAK = 64
SERVED = {
    "preset": "llama-3.1-8b", "input_length": 467, "output_length": 256, "latency": "interactive",
    "output_tokens_m": 30_000,
}  # fmt: skip
"""A serving job the shipped catalog has a benchmark for (3,765 tokens/s a replica of 1 x H100)."""
SERVED_DAY = " ".join(["1"] * 8 + ["3"] * 10 + ["2"] * 6)
"""The night's traffic, three times it by day, twice it in the evening: no one's data."""


def month_of_demand(seed: int = 24) -> list[int]:
    """744 hours, deterministic (seeded), no one's data: serving takes 8 GPUs at night and up to 16 in
    the afternoon, 2 either way drawn hour by hour; on weekdays from 09:00 to 18:00 experiments take 0 to
    24 more, drawn hour by hour; three training runs take the peak of 64 (30, 40 and 24 hours). So the
    load-duration curve has 37 steps: every count of GPUs from 6 to 41, and 64."""
    draw = random.Random(seed)
    hours = []
    for day in range(DAYS):
        for hour in range(24):
            serving = 12 - 4 * math.cos((hour - 3) / 24 * 2 * math.pi) + draw.randint(-2, 2)
            experiments = draw.randint(0, 24) if day % 7 < 5 and 9 <= hour < 18 else 0
            hours.append(round(serving) + experiments)
    for first, length in TRAINING_RUNS:
        hours[first : first + length] = [PEAK] * length
    return hours


FRESH = itertools.count(1)


def fresh(**inputs: object) -> QuoteParams:
    """The inputs with an `hourly_key` never used before in this process: a memo of their own."""
    return QuoteParams(gpu="H100", hourly_key=f"{next(FRESH):016x}", **inputs)  # type: ignore[arg-type]


def quoted(catalogs: Catalogs, params: QuoteParams) -> QuoteResult:
    result = build_quote(catalogs, params)
    if isinstance(result, dict):
        sys.exit(f"the quote refused its inputs: {result}")
    return result


def per_call_ms(call: Callable[[int], object], made: Callable[[], object], calls: int) -> float:
    """`made()` builds each call's argument before the clock starts."""
    arguments = [made() for _ in range(calls)]
    start = time.perf_counter()
    for argument in arguments:
        call(argument)  # type: ignore[arg-type]
    return (time.perf_counter() - start) / calls * 1000


def spread(values: list[float], unit: str) -> str:
    return f"{statistics.median(values):.2f}{unit} ({min(values):.2f}-{max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20, help="calls per timing (default 20)")
    parser.add_argument("--runs", type=int, default=3, help="runs of every timing (default 3)")
    args = parser.parse_args()

    catalogs = shipped_catalogs()
    hours = month_of_demand()
    text = "gpus\n" + "\n".join(map(str, hours))
    gpu_hours = round(sum(hours) * 730 / len(hours), 6)
    split = lambda: fresh(job="split", demand="hourly", hourly=text)  # noqa: E731
    plain = lambda: fresh(gpu_hours=gpu_hours, peak_gpus=PEAK)  # noqa: E731
    default = lambda: fresh()  # noqa: E731
    serve = dict(SERVED, job="serve")
    served = lambda: fresh(**serve)  # noqa: E731
    served_day = lambda: fresh(**SERVED, job="split", demand="serving", daily=SERVED_DAY)  # noqa: E731

    # Refuse to time what is not priced afresh, or not the split asked for.
    one, other = quoted(catalogs, split()), quoted(catalogs, split())
    assert move_key(one.params) != move_key(other.params) and one.fitted is not other.fitted
    assert one.split is not None and other.split is not one.split and one.split.pair is not None
    assert one.split.pair.splits[-1].base_gpus >= PEAK and one.params.gpu_hours == gpu_hours
    priced, profile = one.fitted.priced, one.split.profile  # type: ignore[union-attr]
    assumptions, months = one.params.assumptions(), one.params.months
    gc.collect()
    gc.freeze()  # as the app does once its catalog is loaded (app/main.py)

    pair, best = one.split.pair, one.split.pair.best
    print(
        f"{len(catalogs.current().offers)} offers, {len(priced)} of H100; {len(hours)} hours, "
        f"{min(hours)} to {max(hours)} GPUs, {gpu_hours:,.0f} GPU-hours a month in {len(profile)} levels; "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}\n"
        f"best: a base of {best.units} x {pair.base.offer.gpus_per_unit} GPUs on {pair.base.offer.billing} "
        f"(of 0 to {len(pair.splits) - 1} priced), the rest on {pair.burst.offer.billing}, ${best.horizon:,.2f}"
        f" a month, {'fully priced' if pair.complete else 'not fully priced'}"
    )
    timings: list[tuple[str, Callable[[int], object], Callable[[], object]]] = [
        ("plain H100, the profile's GPU-hours, 64 at once", lambda p: quoted(catalogs, p), plain),
        ("plain H100, the form's defaults", lambda p: quoted(catalogs, p), default),
        ("split, 744 hours to 64 GPUs (build_quote)", lambda p: quoted(catalogs, p), split),
        ("serving Llama 3.1 8B on H100, all month", lambda p: quoted(catalogs, p), served),
        ("split of the same served over a day", lambda p: quoted(catalogs, p), served_day),
        (
            "split search alone (split_quote)",
            lambda _: split_quote(priced, profile, months, assumptions, "", ""),
            lambda: None,
        ),
    ]
    names = [name for name, _, _ in timings]
    runs: list[dict[str, float]] = []
    for run in range(args.runs):
        turn = run % len(timings)
        took = {name: per_call_ms(call, made, args.calls) for name, call, made in timings[turn:] + timings[:turn]}
        runs.append(took)
        print(f"\nrun {run + 1}, ms per call")
        for name in names:
            print(f"  {name:<52}{took[name]:8.2f}")
    ratios = [
        ("split / plain at the profile's inputs", names[2], names[0], 5.0),
        ("split / plain at the form's defaults", names[2], names[1], None),
        ("split search alone / plain at the profile's inputs", names[5], names[0], None),
        ("served day's split / serving all month", names[4], names[3], None),
    ]
    print(f"\nmedian of {args.runs} runs (min-max), {args.calls} calls each:")
    for name in names:
        print(f"  {name:<52}{spread([r[name] for r in runs], ' ms')}")
    print("ratios within each run:")
    for what, top, bottom, goal in ratios:
        values = [r[top] / r[bottom] for r in runs]
        met = (
            ""
            if goal is None
            else f"  goal <= {goal:g}x: " + ("MET" if statistics.median(values) <= goal else "NOT MET")
        )
        print(f"  {what:<52}{spread(values, 'x')}{met}")


if __name__ == "__main__":
    main()
