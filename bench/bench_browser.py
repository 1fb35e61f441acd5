"""Benchmark: a GPU-hours slider move in a real Chromium, from request to settled swap, against a no-op htmx
round trip to the same server; and the bytes the calculator's first load and a second visit transfer.

Why: the server benchmark (bench_partial.py) times the partial, not what a user waits for, which also
holds gzip, parsing, the history snapshot htmx takes for `hx-push-url`, the swap and htmx's settle.
Goals (issue 12): p95 of request-to-settled-swap <= 1.5x p95 of a no-op htmx round trip, with one swap
per response; first load <= 60 KB transferred, static files kept by the cache on a second visit.

Usage: python bench/bench_browser.py [--runs 3] [--moves 40]

A uvicorn (1 worker) on a fresh SQLite file with the shipped catalog, Debian's Chromium through Playwright.
Bytes are Chromium's own count (CDP `Network.loadingFinished` encodedDataLength): the body as sent, so
compressed, plus the response headers; request headers are not counted. Each move sets the number input
to a GPU-hours value not asked for before and dispatches `input`, as the slider does; after htmx's 200 ms
debounce the form's GET goes out. Each no-op is `htmx.ajax('GET', '/api/health', {swap: 'none'})` into a
hidden span. Moves and no-ops alternate, so the machine's noise hits both. Times are `performance.now()`
in the page, from `htmx:beforeSend`, the last moment before the request leaves: the debounce and the
form's serialisation come before it (`htmx:configRequest` would add the serialisation to the move only).
Both end when htmx has settled their target (`htmx:afterSettle`, after the app's own handler) and handled
the response (`htmx:afterRequest`): htmx settles a `swap: 'none'` too, after the same delay
(`htmx.config.defaultSettleDelay`, 20 ms; the app keeps it), so both spans hold it. The ratio up to
`htmx:afterRequest` (response handled and swapped, settle not begun) is printed beside it.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_partial import HOST, start_server  # noqa: E402
from tests.e2e.conftest import CHROMIUM_ARGS  # noqa: E402  # as the end-to-end tests launch it

FIRST_LOAD_GOAL = 60_000
"""Bytes (60 KB, 1 KB = 1000 bytes)."""
WARMUP = 5
"""Moves and no-ops before the first run, untimed: the server's and the page's first calls are slower."""
RECORDER = """() => {
  const bench = window.bench = {events: [], finish: null};
  const sink = document.createElement("span");
  sink.id = "bench-sink";
  sink.hidden = true;
  document.body.append(sink);
  for (const name of ["htmx:beforeSend", "htmx:beforeOnLoad", "htmx:beforeSwap", "htmx:pushedIntoHistory",
                      "htmx:afterSwap", "htmx:oobAfterSwap", "htmx:afterRequest", "htmx:afterSettle"]) {
    document.addEventListener(name, (event) => {
      bench.events.push([name, performance.now(), event.target.id, event.detail.xhr ? event.detail.xhr.status : 0]);
      if (bench.finish) bench.finish(name, event);
    });
  }
}"""
"""Listens on the document, after app.js's listeners, so theirs run inside the span; adds the no-ops' target."""
TIMED = """([kind, value]) => new Promise((resolve, reject) => {
  const bench = window.bench;
  const target = kind === "move" ? "results" : "bench-sink";
  let settled = false;
  let handled = false;
  bench.events = [];
  const timeout = setTimeout(() => reject(new Error(`${kind} ${value}: not settled within 10 s`)), 10000);
  bench.finish = (name, event) => {
    settled ||= name === "htmx:afterSettle" && event.target.id === target;
    if (name === "htmx:afterRequest") {
      handled = true;
      settled ||= event.detail.xhr.status !== 200;  // htmx swaps no error: nothing will settle
    }
    if (!settled || !handled) return;
    bench.events.push(["done", performance.now(), "", 0]);
    bench.finish = null;
    clearTimeout(timeout);
    const headline = document.querySelector("#results .headline");
    resolve({events: bench.events.slice(), headline: headline ? headline.textContent : ""});
  };
  if (kind === "noop") {
    htmx.ajax("GET", "/api/health", {target: "#bench-sink", swap: "none"});
  } else {
    const input = document.getElementById("gpu_hours");
    input.value = String(value);
    input.dispatchEvent(new Event("input", {bubbles: true}));
  }
})"""
"""One move or no-op, done when its target has settled and htmx has handled the response (whichever is
later: with no settle delay, htmx settles before `htmx:afterRequest`), or when its request failed."""


def record_transfers(page: Page) -> dict[str, dict]:
    """Per CDP request id: the response (URL, headers), whether a cache gave it, and the bytes received."""
    seen: dict[str, dict] = {}

    def on(event: str, update: Callable[[dict], dict]) -> None:
        cdp.on(event, lambda e: seen.setdefault(e["requestId"], {}).update(update(e)))

    cdp = page.context.new_cdp_session(page)
    on("Network.responseReceived", lambda e: {"response": e["response"]})
    on("Network.requestServedFromCache", lambda e: {"cache": "memory cache"})
    on("Network.loadingFinished", lambda e: {"bytes": e["encodedDataLength"]})
    cdp.send("Network.enable")
    return seen


def visit(page: Page, url: str, seen: dict[str, dict], what: str) -> int:
    """Loads the page, prints what each resource transferred; returns the total bytes."""
    seen.clear()
    response = page.goto(url, wait_until="networkidle")
    if response is None or response.status != 200 or page.evaluate("typeof htmx") != "object":
        sys.exit(f"{what}: HTTP {response and response.status}, or htmx not loaded: refusing to time this page")
    print(f"\n{what}\n{'bytes':>9}  {'encoding':<9}{'from':<14}{'cache-control':<37}path")
    total = 0
    for r in (s for s in seen.values() if "response" in s):
        headers = {k.lower(): v for k, v in r["response"]["headers"].items()}
        cache = "disk cache" if r["response"]["fromDiskCache"] else r.get("cache", "network")
        total += r.get("bytes", 0)
        print(
            f"{r.get('bytes', 0):>9,}  {headers.get('content-encoding', '-'):<9}{cache:<14}"
            f"{headers.get('cache-control', '-'):<37}{r['response']['url'].removeprefix(url.rstrip('/'))}"
        )
    print(f"{total:>9,}  in all")
    return total


def timed(page: Page, kind: str, value: int = 0) -> dict:
    """One move or no-op, in milliseconds from `htmx:beforeSend`: to done (settled), to `htmx:afterRequest`, to the
    response's arrival (`htmx:beforeOnLoad`); the history snapshot and push htmx does for `hx-push-url`
    (`htmx:beforeSwap` to `htmx:pushedIntoHistory`); and the number of swaps."""
    try:
        result = page.evaluate(TIMED, [kind, value])
    except PlaywrightError as e:
        sys.exit(f"refusing to time a broken page: {e.message}")
    names = [name for name, _, _, _ in result["events"]]
    sends = names.count("htmx:beforeSend")
    status = next(s for name, _, _, s in result["events"] if name == "htmx:afterRequest")
    if sends != 1 or status != 200 or (kind == "move" and f"{value:,} GPU-hours" not in result["headline"]):
        sys.exit(
            f"refusing to time a broken page: {kind} {value}: {sends} requests, HTTP {status}, "
            f"headline {result['headline'][:120]!r}"
        )
    events = result["events"][names.index("htmx:beforeSend") :]
    since = {name: at - events[0][1] for name, at, _, _ in reversed(events)}  # the first of each name
    pushed = since.get("htmx:pushedIntoHistory")
    return {
        "settled": since["done"],
        "afterRequest": since["htmx:afterRequest"],
        "response": since["htmx:beforeOnLoad"],
        "history": 0.0 if pushed is None else pushed - since["htmx:beforeSwap"],
        "swaps": sum(name in ("htmx:afterSwap", "htmx:oobAfterSwap") for name, _, _, _ in events),
    }


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"


def gpu_hours(i: int) -> int:
    """The i-th move's value: 10 to 5009, no repeat within 5000 moves (123 is coprime to 5000)."""
    return 10 + i * 123 % 5000


def one_run(page: Page, moves: int, first: int) -> dict[str, float]:
    """`moves` moves, each followed by a no-op; prints p50/p95 and returns the p95 ratios, settled and afterRequest."""
    move, noop = [], []
    for i in range(first, first + moves):
        move.append(timed(page, "move", gpu_hours(i)))
        noop.append(timed(page, "noop"))
    ratios = {}
    for end in ("settled", "afterRequest"):
        m, n = [x[end] for x in move], [x[end] for x in noop]
        ratios[end] = p95(m) / p95(n)
        print(
            f"  to {end:<13} move p50 {statistics.median(m):6.1f} p95 {p95(m):6.1f} ms;"
            f"  no-op p50 {statistics.median(n):6.1f} p95 {p95(n):6.1f} ms;  p95 ratio {ratios[end]:.2f}x"
        )
    spans = {
        "response": [x["response"] for x in move],
        "history snapshot and push": [x["history"] for x in move],
        "rest of the swap": [x["afterRequest"] - x["response"] - x["history"] for x in move],
        "settle": [x["settled"] - x["afterRequest"] for x in move],
    }
    print("  move, median ms: " + ", ".join(f"{what} {statistics.median(v):.1f}" for what, v in spans.items()))
    swaps = Counter(x["swaps"] for x in move)
    print("  swaps per move response: " + ", ".join(f"{n} in {count} of {moves}" for n, count in sorted(swaps.items())))
    return ratios


def verdict(value: float, goal: float, unit: str) -> str:
    return f"goal <= {goal:,g}{unit}: {'MET' if value <= goal else 'NOT MET'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of moves and no-ops (default 3)")
    parser.add_argument("--moves", type=int, default=40, help="moves, and as many no-ops, per run (default 40)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so `finally` stops the server on kill too
    print(f"{os.cpu_count()} cores; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    ratios = []
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as tmp, sync_playwright() as p:
        server = None
        try:
            server, port, offers = start_server(Path(tmp), 1)
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            print(f"uvicorn, 1 worker, {offers} offers; Chromium {browser.version}")
            page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            seen, url = record_transfers(page), f"http://{HOST}:{port}/"
            first = visit(page, url, seen, "first load (empty cache)")
            print(f"first load: {first:,} bytes on the wire; {verdict(first, FIRST_LOAD_GOAL, ' bytes')}")
            visit(page, url, seen, "second visit (same context)")

            page.evaluate(RECORDER)
            for i in range(WARMUP):
                timed(page, "move", gpu_hours(i))
                timed(page, "noop")
            for run in range(args.runs):
                print(f"\nrun {run + 1}: {args.moves} moves and {args.moves} no-ops, alternating")
                ratios.append(one_run(page, args.moves, WARMUP + run * args.moves))
            browser.close()
        finally:
            if server:
                server.terminate()
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:
                    server.kill()

    settled, handled = [r["settled"] for r in ratios], [r["afterRequest"] for r in ratios]
    print(f"\nmedian of {args.runs} runs (min-max), p95 move / p95 no-op, each ratio within one run:")
    print(f"  request to settled swap  {spread(settled)}  {verdict(statistics.median(settled), 1.5, 'x')}")
    print(f"  request to afterRequest  {spread(handled)}  (both without the settle delay)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
