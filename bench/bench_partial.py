"""Benchmark: the calculator's htmx results partial against a trivial endpoint, on real servers,
and what a catalog ten times the shipped one costs each request.

Why: every pause of the GPU-hours slider fires one `GET /?...` with `HX-Request: true`, which
quotes the catalog and renders the chart and table. Goals (issue 12): the partial serves at least
0.5x the requests/s of `GET /api/health` (the floor a request costs in this stack), and a catalog
ten times larger costs each partial and each `/api/quote` at most 1.2x. Ratios within one run, not
absolute figures, are what this script reports against the goals: the machine is shared.

Usage: python bench/bench_partial.py [--runs 3] [--seconds N] [--connections C] [--loader auto|wrk|python]

Two uvicorn subprocesses (1 worker each) on fresh SQLite files: the shipped catalog, and the same
grown tenfold by bench/scaled_catalog.py. Each run loads six endpoints one after the other; the
load comes from another process (wrk if on PATH, else a Python keep-alive client), so the loader
never shares a GIL or an event loop with the app. Prints each run, then the median ratio of the
runs with min and max, and the servers' RSS at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.scaled_catalog import shipped_times  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
FORM = (
    "gpu=H100&gpu_hours={h}&peak_gpus=1&checkpoint_gb=140&checkpoints_out=1&egress_gb=0&stored_gb=0"
    "&months=1&region=&virt_tax=5&virt_tax_bare_metal=0&virt_tax_serverless=0&invocations=1000&cold_start_s=20"
)
"""The form's default fields, as htmx sends the whole form on each input; {h} is filled per request."""
PARTIAL = "/?" + FORM
OWNING = PARTIAL + "&own_server=dgx-h100/viperatech-2025-03&own_life_months=60&own_currency=USD&own_operations=0"
"""The same with a server to own quoted beside the offers (the owning fields htmx sends once one is chosen)."""
QUOTE = "/api/quote?gpu=H100&gpu_hours={h}&checkpoint_gb=140&checkpoints_out=1"
"""The same quote as JSON, as a script would ask for it."""


def hours(i: int) -> str:
    """The i-th request's GPU-hours: 10 to 5000, no repeat within 499,000 requests (2497 is coprime to 499000),
    so neither a response cache nor a memo keyed on the URL can make the partial look cheaper than sliding."""
    return f"{10 + (i * 2497 % 499000) / 100:.2f}"


HX = {"HX-Request": "true", "HX-Current-URL": f"http://{HOST}{PARTIAL.format(h=500)}"}
"""As htmx sends a slider's move: from the calculator's own address, whose other inputs are the same, so
that the folded groups' summaries are not sent again (app/web/calculator/page.py)."""
HX_OWNING = HX | {"HX-Current-URL": f"http://{HOST}{OWNING.format(h=500)}"}
GZIP = {"Accept-Encoding": "gzip"}
"""As browsers ask: the third timing shows what compressing the partial costs the server."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    req = urllib.request.Request(f"http://{HOST}:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def wait_ready(proc: subprocess.Popen, port: int, log: Path, timeout: float = 90) -> None:
    """Startup migrates and seeds the catalog, so poll /api/health rather than sleep a guess."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"server exited with {proc.returncode} during startup:\n{log.read_text()[-3000:]}")
        try:
            if get(port, "/api/health")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"server not ready after {timeout:.0f} s:\n{log.read_text()[-3000:]}")


LUA = """local path, i = PATH, START
HEADERS
request = function()
  i = i + 1
  local h = string.format("%.2f", 10 + (i * 2497 % 499000) / 100)  -- same as hours(i) in Python
  return wrk.format("GET", (path:gsub("{h}", h)))
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %f %f %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.status + e.timeout))
end
"""


def load_wrk(port: int, path: str, headers: dict, seconds: float, connections: int, tmp: Path, start: int) -> dict:
    """wrk with a Lua script that fills in the path per request (the GPU-hours of requests start, start + 1,
    ...); non-2xx counts as an error."""
    lua = tmp / "bench.lua"
    set_headers = "\n".join(f'wrk.headers["{k}"] = "{v}"' for k, v in headers.items())
    lua.write_text(LUA.replace("PATH", json.dumps(path)).replace("START", str(start)).replace("HEADERS", set_headers))
    cmd = ["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", "--timeout", "10s", "-s", str(lua)]
    cmd.append(f"http://{HOST}:{port}")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    n, duration_us, p50_us, p99_us, errors = re.search(r"^RESULT (.*)$", out, re.M).group(1).split()
    rps = int(n) / int(duration_us) * 1e6
    return dict(rps=rps, p50=float(p50_us) / 1e3, p99=float(p99_us) / 1e3, errors=int(errors))


async def _connection(port: int, path: str, head: str, stop_at: float, offset: int) -> tuple[list, int]:
    """One keep-alive HTTP/1.1 connection sending requests back to back until stop_at."""
    reader, writer = await asyncio.open_connection(HOST, port)
    latencies, errors, i = [], 0, offset
    try:
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            writer.write(f"GET {path.format(h=hours(i))} HTTP/1.1\r\nHost: {HOST}\r\n{head}\r\n".encode())
            i += 1
            response_head = await reader.readuntil(b"\r\n\r\n")
            length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", response_head)
            await reader.readexactly(int(length.group(1)) if length else 0)
            latencies.append(time.perf_counter() - t0)
            errors += not response_head.startswith(b"HTTP/1.1 2")
    finally:
        writer.close()
    return latencies, errors


def _python_load(port: int, path: str, headers: dict, seconds: float, connections: int, first: int) -> dict:
    """Runs in a child process (see load_python), so its CPU is not the server's."""
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())

    async def run() -> list:
        stop_at = time.perf_counter() + seconds
        each = (_connection(port, path, head, stop_at, first + c * 1000) for c in range(connections))
        return await asyncio.gather(*each)

    start = time.perf_counter()
    results = asyncio.run(run())
    elapsed = time.perf_counter() - start
    lat = sorted(x for latencies, _ in results for x in latencies)
    p50, p99 = lat[len(lat) // 2] * 1e3, lat[int(len(lat) * 0.99)] * 1e3
    return dict(rps=len(lat) / elapsed, p50=p50, p99=p99, errors=sum(e for _, e in results))


def load_python(port: int, path: str, headers: dict, seconds: float, connections: int, tmp: Path, start: int) -> dict:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_python_load, (port, path, headers, seconds, connections, start))


ENDPOINTS = [
    ("GET /api/health", 1, "/api/health", {}),
    ("GET / partial (HX-Request)", 1, PARTIAL, HX),
    ("GET / partial, gzip", 1, PARTIAL, HX | GZIP),
    ("GET / partial, a server owned", 1, OWNING, HX_OWNING),
    ("GET /api/quote", 1, QUOTE, {}),
    ("GET / partial, 10x catalog", 10, PARTIAL, HX),
    ("GET /api/quote, 10x catalog", 10, QUOTE, {}),
]
"""Each run loads these in turn, one at a time, each run starting two further down the list, so that
drift over a run does not always favour the same ones; the catalog (1x or 10x) says which server answers."""
STRIDE = 11_800
"""Requests apart that each load starts (warm-ups included): more than one load sends, and 42 loads stay
within the 499,000 requests whose GPU-hours never repeat."""
RATIOS = [
    ("partial / trivial, throughput", "GET / partial (HX-Request)", "GET /api/health", ">= 0.5x"),
    ("gzip partial / trivial, throughput", "GET / partial, gzip", "GET /api/health", ""),
    (
        "partial, cost per request owning / not",
        "GET / partial (HX-Request)",
        "GET / partial, a server owned",
        "",
    ),
    ("partial, cost per request at 10x / 1x", "GET / partial (HX-Request)", "GET / partial, 10x catalog", "<= 1.2x"),
    ("/api/quote, cost per request at 10x / 1x", "GET /api/quote", "GET /api/quote, 10x catalog", "<= 1.2x"),
]
"""(what, numerator, denominator, goal) as ratios of requests/s within one run: a cost ratio is
the cheaper request's rate over the dearer one's."""


def start_server(tmp: Path, scale: int) -> tuple[subprocess.Popen, int, int]:
    """A fresh SQLite file with the shipped catalog times `scale`, served by uvicorn (1 worker)."""
    url = f"sqlite:///{tmp / f'bench-{scale}x.db'}"
    offers = shipped_times(url, scale)
    port, log = free_port(), tmp / f"server-{scale}x.log"
    with log.open("w") as log_file:
        cmd = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", HOST, "--port", str(port)]
        cmd += ["--log-level", "warning", "--no-access-log"]
        env = {**os.environ, "DATABASE_URL": url}
        server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        wait_ready(server, port, log)
        for path, headers, marker in ((PARTIAL, HX, 'id="results"'), (QUOTE, {}, '"options"')):
            # Refuse to time a broken answer: a 500 is cheap and would make the ratio look good.
            status, body = get(port, path.format(h=hours(0)), headers)
            if status != 200 or marker not in body or "<html" in body:
                time.sleep(0.5)  # the server logs the traceback just after sending the 500
                sys.exit(f"{path[:30]} at {scale}x: HTTP {status}, {body[:200]!r}\nlog:\n{log.read_text()[-1500:]}")
    except BaseException:
        server.terminate()
        raise
    return server, port, offers


def compression_costs(body: bytes) -> list[tuple[int, int, float]]:
    """(level, gzip bytes, ms) for one partial's body: what each gzip level costs the server per
    move, to weigh against the bytes it saves (median of 3 batches of 100)."""
    costs = []
    for level in (1, 3, 5, 6, 9):
        batches = []
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(100):
                packer = zlib.compressobj(level, zlib.DEFLATED, 31)  # 31: a gzip stream, as the middleware sends
                packed = packer.compress(body) + packer.flush()
            batches.append((time.perf_counter() - start) * 10)
        costs.append((level, len(packed), statistics.median(batches)))
    return costs


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x ({min(values):.2f}-{max(values):.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="measured seconds per endpoint (default 10)")
    parser.add_argument("--connections", type=int, default=8, help="concurrent keep-alive connections (default 8)")
    parser.add_argument("--warmup", type=float, default=2, help="warm-up seconds per endpoint (default 2)")
    parser.add_argument("--runs", type=int, default=3, help="runs of every endpoint (default 3)")
    parser.add_argument("--loader", choices=["auto", "wrk", "python"], default="auto")
    args = parser.parse_args()
    use_wrk = args.loader == "wrk" or (args.loader == "auto" and shutil.which("wrk"))
    load = load_wrk if use_wrk else load_python
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so `finally` stops the servers on kill too

    loader = "wrk, 1 thread" if use_wrk else "Python asyncio keep-alive client"
    print(
        f"server: uvicorn, 1 worker per catalog; loader: {loader}, separate process; {args.connections} connections; "
        f"{args.seconds:g} s per endpoint after {args.warmup:g} s warm-up; {os.cpu_count()} cores; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    runs: list[dict[str, dict]] = []
    servers: dict[int, tuple[subprocess.Popen, int, int]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-partial-") as tmp_name:
        tmp = Path(tmp_name)
        try:
            for scale in (1, 10):
                servers[scale] = start_server(tmp, scale)
                print(f"catalog {scale}x: {servers[scale][2]:,} offers")
            loads = 0
            for run in range(args.runs):
                results = {}
                turn = 2 * run % len(ENDPOINTS)
                for name, scale, path, headers in ENDPOINTS[turn:] + ENDPOINTS[:turn]:
                    port = servers[scale][1]
                    load(port, path, headers, args.warmup, args.connections, tmp, STRIDE * loads)
                    results[name] = load(port, path, headers, args.seconds, args.connections, tmp, STRIDE * (loads + 1))
                    loads += 2
                runs.append(results)
                print(f"\nrun {run + 1}\n{'endpoint':<30}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}")
                for name, r in results.items():
                    print(f"{name:<30}{r['rps']:>10.1f}{r['p50']:>9.2f}{r['p99']:>9.2f}{r['errors']:>8}")
            rss = {scale: rss_mb(server.pid) for scale, (server, _, _) in servers.items()}
            body = get(servers[1][1], PARTIAL.format(h=hours(1)), HX)[1].encode()
        finally:
            for server, _, _ in servers.values():
                server.terminate()
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:
                    server.kill()

    print(f"\nmedian of {args.runs} runs (min-max), each ratio within one run:")
    for what, top, bottom, goal in RATIOS:
        values = [r[top]["rps"] / r[bottom]["rps"] for r in runs]
        met = "" if not goal else f"  goal {goal}: " + ("MET" if _meets(statistics.median(values), goal) else "NOT MET")
        print(f"  {what:<42}{spread(values)}{met}")
    print(f"RSS after the runs: {rss[1]:.1f} MB (1x), {rss[10]:.1f} MB (10x); goal <= 150 MB")
    per_partial = 1000 / statistics.median(r["GET / partial (HX-Request)"]["rps"] for r in runs)
    print(f"gzip of one partial ({len(body):,} bytes; a partial costs {per_partial:.2f} ms of server time):")
    for level, size, ms in compression_costs(body):
        print(f"  level {level}: {size:,} bytes in {ms:.3f} ms ({ms / per_partial:.0%} of a partial)")
    if any(r["errors"] for results in runs for r in results.values()):
        print("INVALID: some requests failed or were not 2xx", file=sys.stderr)
        return 1
    return 0


def _meets(value: float, goal: str) -> bool:
    bound = float(goal.split()[1].rstrip("x"))
    return value >= bound if goal.startswith(">=") else value <= bound


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
