"""Benchmark: a GPU-hours slider move in a real Chromium, from request to settled swap, against a no-op htmx
round trip to the same server; the slider from the hand's move to the painted chart, and while it is
dragged; and the bytes the calculator's first load and a second visit transfer.

Why: the server benchmark (bench_partial.py) times the partial, not what a user waits for, which also
holds gzip, parsing, the history snapshot htmx takes for `hx-push-url`, the swap and htmx's settle.
Goals (issue 12): p95 of request-to-settled-swap <= 1.5x p95 of a no-op htmx round trip, with one swap
per response; first load <= 60 KB transferred, static files kept by the cache on a second visit.
Goals (issue 36): the slider's input to the painted chart <= 100 ms (median), and at least 7 redraws while
it is dragged for 1.4 s, the last position the one shown at the end.

Usage: python bench/bench_browser.py [--runs 3] [--moves 40] [--slides 20] [--drag-ms 1400]

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

The slider itself, in each run after the moves: `--slides` times its value is set and `input` dispatched on
it, each after the last has been painted, nothing is in flight and 150 ms have passed (what one move of the
hand waits for, not a move among others); timed from just before the dispatch until a new results block
showing that value is in the page (a MutationObserver) and until the first task after the frame that draws
it (a message posted from `requestAnimationFrame`: the frame's style, layout and paint are done). Then one
drag: the mouse pressed on the slider's track at a tenth of its width and moved to nine tenths over
`--drag-ms`, each step 16 ms after the last was handled and where the time says (a busy page handles fewer
steps, as it would coalesce a hand's), then released; every new results block painted between the pointer's down and up
is a redraw, and each one's lag is its paint less the input that set the value it shows. It refuses a drag
whose results, once nothing is in flight, show another value than the slider's.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
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
SLIDES_GOAL = 100
"""Milliseconds, the slider's input to the painted chart, median."""
DRAG_GOAL = 7 / 1400
"""Redraws per millisecond of a drag: 7 while the slider is dragged for 1.4 s."""
PAINTS = """() => {
  const paints = window.paints = {log: [], inputs: [], pointer: {}, wake: null};
  let shown = document.getElementById("results");
  let pending = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const now = performance.now();
    for (const paint of pending.splice(0)) paints.log.push({...paint, painted: now});
    if (paints.wake) paints.wake();
  };
  new MutationObserver(() => {
    const results = document.getElementById("results");
    if (!results || results === shown) return;
    shown = results;
    const headline = results.querySelector(".headline");
    const hours = headline && /At ([\\d,]+) GPU-hours/.exec(headline.textContent);
    pending.push({swapped: performance.now(), value: hours ? Number(hours[1].replaceAll(",", "")) : null,
                  chart: results.querySelector("svg") !== null});
    requestAnimationFrame(() => channel.port2.postMessage(null));
  }).observe(document.getElementById("calculator"), {childList: true, subtree: true});
  window.addEventListener("input", (event) => {
    if (event.target.id === "gpu_hours-slider") paints.inputs.push([performance.now(), Number(event.target.value)]);
  }, true);
  for (const name of ["pointerdown", "pointerup"]) {
    window.addEventListener(name, () => { paints.pointer[name] = performance.now(); }, true);
  }
}"""
"""Logs each new results block: when it came in, when the first task after the frame that draws it ran, the
GPU-hours its headline shows; and the slider's inputs and the pointer's down and up. On the window, capturing,
so that it sees the slider's input before the page's own listeners."""
SLIDE = """(value) => new Promise((resolve, reject) => {
  const paints = window.paints;
  const timeout = setTimeout(() => reject(new Error(`slider to ${value}: not painted within 10 s`)), 10000);
  const slider = document.getElementById("gpu_hours-slider");
  const start = performance.now();
  paints.wake = () => {
    const paint = paints.log.find((p) => p.swapped >= start && p.value === value);
    if (!paint) return;
    paints.wake = null;
    clearTimeout(timeout);
    resolve({swapped: paint.swapped - start, painted: paint.painted - start, chart: paint.chart});
  };
  slider.value = String(value);
  slider.dispatchEvent(new Event("input", {bubbles: true}));
})"""
"""One move of the slider, done when the results showing its value have been painted."""
IDLE = "() => !document.querySelector('.htmx-request')"


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


def slider_value(i: int) -> int:
    """The i-th slide's GPU-hours: 10 to 729, within the slider's end at one GPU (730), no repeat within 720."""
    return 10 + i * 37 % 720


def slide(page: Page, value: int) -> dict:
    """One move of the slider to `value`, then until nothing is in flight and 150 ms have passed."""
    try:
        result = page.evaluate(SLIDE, value)
    except PlaywrightError as e:
        sys.exit(f"refusing to time a broken page: {e.message}")
    if not result["chart"]:
        sys.exit(f"refusing to time a broken page: slider to {value}: results without a chart")
    page.wait_for_function(IDLE)
    page.wait_for_timeout(150)
    return result


def slides(page: Page, count: int, first: int) -> dict[str, float]:
    """`count` slider moves, one at a time; prints and returns the median and p95 of input to paint, in ms."""
    results = [slide(page, slider_value(i)) for i in range(first, first + count)]
    painted = [r["painted"] for r in results]
    figures = {"median": statistics.median(painted), "p95": p95(painted)}
    print(
        f"  slider input to painted chart ({count} moves): median {figures['median']:.1f} p95 {figures['p95']:.1f} ms"
        f" (to the new results in the page: median {statistics.median(r['swapped'] for r in results):.1f} ms)"
    )
    return figures


def drag(page: Page, ms: int) -> dict[str, float]:
    """One drag of the slider over `ms`; prints and returns the redraws during it, per second, and their lag."""
    page.evaluate("() => { paints.log = []; paints.inputs = []; paints.pointer = {}; }")
    slider = page.locator("#gpu_hours-slider")
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    if box is None:
        sys.exit("refusing to time a broken page: the slider is not shown")
    y, left, right = box["y"] + box["height"] / 2, box["x"] + box["width"] * 0.1, box["x"] + box["width"] * 0.9
    page.mouse.move(left, y)
    page.mouse.down()
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < ms / 1000:
        page.mouse.move(left + (right - left) * elapsed / (ms / 1000), y)
        time.sleep(0.016)
    page.mouse.move(right, y)
    page.mouse.up()
    last = int(slider.input_value())
    ends_there = f"() => paints.log.length > 0 && paints.log.at(-1).value === {last}"
    try:
        page.wait_for_function(ends_there, timeout=5000)
        page.wait_for_function(IDLE)
        page.wait_for_timeout(300)  # an older answer landing late would show here
    except PlaywrightError:
        pass
    log = page.evaluate("() => paints")
    shown = log["log"][-1]["value"] if log["log"] else None
    if shown != last:
        sys.exit(f"refusing a drag that ends on {shown} GPU-hours with the slider at {last}")
    down, up = log["pointer"]["pointerdown"], log["pointer"]["pointerup"]
    during = [p for p in log["log"] if down <= p["painted"] <= up]
    lags = []
    for paint in during:
        asked = [at for at, value in log["inputs"] if value == paint["value"] and at <= paint["swapped"]]
        lags += [paint["painted"] - max(asked)] if asked else []
    figures = {
        "redraws": len(during),
        "per_second": len(during) / ((up - down) / 1000),
        "lag": statistics.median(lags) if lags else float("nan"),
    }
    lag = f", lag median {figures['lag']:.1f} ms" if lags else ""
    print(
        f"  drag over {up - down:.0f} ms, {len(log['inputs'])} slider inputs: {len(during)} redraws during it"
        f" ({figures['per_second']:.1f}/s){lag}; {len(log['log']) - len(during)} after the release;"
        f" ends on {shown} GPU-hours, as the slider"
    )
    return figures


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


def median_of(values: list[float], unit: str) -> str:
    """The median with min and max, as the runs' ratios are shown."""
    return f"{statistics.median(values):.1f}{unit} ({min(values):.1f}-{max(values):.1f})"


def verdict(value: float, goal: float, unit: str) -> str:
    return f"goal <= {goal:,g}{unit}: {'MET' if value <= goal else 'NOT MET'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of moves and no-ops (default 3)")
    parser.add_argument("--moves", type=int, default=40, help="moves, and as many no-ops, per run (default 40)")
    parser.add_argument("--slides", type=int, default=20, help="slider moves timed to paint, per run (default 20)")
    parser.add_argument("--drag-ms", type=int, default=1400, help="how long the slider is dragged (default 1400)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so `finally` stops the server on kill too
    print(f"{os.cpu_count()} cores; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    ratios, slid, dragged = [], [], []
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
            page.evaluate(PAINTS)
            for i in range(WARMUP):
                timed(page, "move", gpu_hours(i))
                timed(page, "noop")
            for i in range(WARMUP):
                slide(page, slider_value(i))
            for run in range(args.runs):
                print(f"\nrun {run + 1}: {args.moves} moves and {args.moves} no-ops, alternating")
                ratios.append(one_run(page, args.moves, WARMUP + run * args.moves))
                slid.append(slides(page, args.slides, WARMUP + run * args.slides))
                dragged.append(drag(page, args.drag_ms))
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
    print(f"median of {args.runs} runs (min-max), the slider:")
    for what, key, unit in (("input to paint, median", "median", " ms"), ("input to paint, p95", "p95", " ms")):
        values = [s[key] for s in slid]
        goal = f"  {verdict(statistics.median(values), SLIDES_GOAL, ' ms')}" if key == "median" else ""
        print(f"  {what:<30} {median_of(values, unit)}{goal}")
    redraws, goal = [d["redraws"] for d in dragged], DRAG_GOAL * args.drag_ms
    print(
        f"  redraws during a {args.drag_ms} ms drag  {median_of(redraws, '')}  goal >= {goal:g}: "
        f"{'MET' if statistics.median(redraws) >= goal else 'NOT MET'}"
    )
    print(f"  redraws per second            {median_of([d['per_second'] for d in dragged], '/s')}")
    lags = [d["lag"] for d in dragged if d["redraws"]]
    print(f"  lag of a redraw, median       {median_of(lags, ' ms') if lags else 'no redraw during a drag'}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
