"""Benchmark: the calculator's htmx results partial against a trivial endpoint, on a real server.

Why: every pause of the GPU-hours slider fires one `GET /?...` with `HX-Request: true`, which
quotes the full shipped catalog and renders the chart and table. The goal is that this partial
serves at least 0.5x the requests/s of `GET /api/health` (the floor a request costs in this
stack), so the ratio, not the absolute figure, is what this script reports against the goal.

Usage: python bench/bench_partial.py [--seconds N] [--connections C] [--loader auto|wrk|python]

The server is a real uvicorn subprocess on a fresh SQLite file (migrated and seeded at start);
the load comes from another process (wrk if on PATH, else a Python keep-alive client), so the
loader never shares a GIL or an event loop with the app.
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
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
FORM = (
    "gpu=H100&gpu_hours={h}&peak_gpus=1&checkpoint_gb=140&checkpoints_out=1&egress_gb=0&stored_gb=0"
    "&months=1&region=&virt_tax=5&virt_tax_bare_metal=0&virt_tax_serverless=0&invocations=1000&cold_start_s=20"
)
"""The form's default fields, as htmx sends the whole form on each input; {h} is filled per request."""
PARTIAL = "/?" + FORM


def hours(i: int) -> str:
    """The i-th request's GPU-hours: 10 to 5000, no repeat within 499,000 requests (2497 is coprime to 499000),
    so neither a response cache nor a memo keyed on the URL can make the partial look cheaper than sliding."""
    return f"{10 + (i * 2497 % 499000) / 100:.2f}"


HX = {"HX-Request": "true"}
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


LUA = """local path, i = PATH, 0
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


def load_wrk(port: int, path: str, headers: dict, seconds: float, connections: int, tmp: Path) -> dict:
    """wrk with a Lua script that fills in the path per request; non-2xx counts as an error."""
    lua = tmp / "bench.lua"
    set_headers = "\n".join(f'wrk.headers["{k}"] = "{v}"' for k, v in headers.items())
    lua.write_text(LUA.replace("PATH", json.dumps(path)).replace("HEADERS", set_headers))
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


def _python_load(port: int, path: str, headers: dict, seconds: float, connections: int) -> dict:
    """Runs in a child process (see load_python), so its CPU is not the server's."""
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())

    async def run() -> list:
        stop_at = time.perf_counter() + seconds
        return await asyncio.gather(*(_connection(port, path, head, stop_at, c * 100_003) for c in range(connections)))

    start = time.perf_counter()
    results = asyncio.run(run())
    elapsed = time.perf_counter() - start
    lat = sorted(x for latencies, _ in results for x in latencies)
    p50, p99 = lat[len(lat) // 2] * 1e3, lat[int(len(lat) * 0.99)] * 1e3
    return dict(rps=len(lat) / elapsed, p50=p50, p99=p99, errors=sum(e for _, e in results))


def load_python(port: int, path: str, headers: dict, seconds: float, connections: int, tmp: Path) -> dict:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_python_load, (port, path, headers, seconds, connections))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10, help="measured seconds per endpoint (default 10)")
    parser.add_argument("--connections", type=int, default=8, help="concurrent keep-alive connections (default 8)")
    parser.add_argument("--warmup", type=float, default=2, help="warm-up seconds per endpoint (default 2)")
    parser.add_argument("--loader", choices=["auto", "wrk", "python"], default="auto")
    args = parser.parse_args()
    use_wrk = args.loader == "wrk" or (args.loader == "auto" and shutil.which("wrk"))
    load = load_wrk if use_wrk else load_python
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so `finally` stops the server on kill too

    with tempfile.TemporaryDirectory(prefix="bench-partial-") as tmp_name:
        tmp, port = Path(tmp_name), free_port()
        log = tmp / "server.log"
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'bench.db'}"}
        with log.open("w") as log_file:
            cmd = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", HOST, "--port", str(port)]
            cmd += ["--log-level", "warning", "--no-access-log"]
            server = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT)
        try:
            wait_ready(server, port, log)
            status, body = get(port, "/api/offers")
            offers = len(json.loads(body)) if status == 200 else f"? (HTTP {status})"
            # Refuse to time a broken partial: a 500 is cheap and would make the ratio look good.
            status, body = get(port, PARTIAL.format(h=hours(0)), HX)
            if status != 200 or 'id="results"' not in body or "<html" in body:
                print(f"partial check failed: HTTP {status}, body {body[:200]!r}", file=sys.stderr)
                time.sleep(0.5)  # the server logs the traceback just after sending the 500
                print(f"server log (tail):\n{log.read_text()[-1500:]}", file=sys.stderr)
                return 2
            endpoints = [
                ("GET /api/health", "/api/health", {}),
                ("GET / partial (HX-Request)", PARTIAL, HX),
                ("GET / partial, gzip", PARTIAL, HX | GZIP),
            ]
            results = {}
            for name, path, headers in endpoints:
                load(port, path, headers, args.warmup, args.connections, tmp)
                results[name] = load(port, path, headers, args.seconds, args.connections, tmp)
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()

    loader = "wrk, 1 thread" if use_wrk else "Python asyncio keep-alive client"
    print(f"catalog: {offers} offers (/api/offers, full shipped catalog on a fresh SQLite file)")
    print(
        f"server: uvicorn, 1 worker; loader: {loader}, separate process; {args.connections} connections; "
        f"{args.seconds:g} s per endpoint after {args.warmup:g} s warm-up; {os.cpu_count()} cores"
    )
    print(f"{'endpoint':<28}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}")
    for name, r in results.items():
        print(f"{name:<28}{r['rps']:>10.1f}{r['p50']:>9.2f}{r['p99']:>9.2f}{r['errors']:>8}")
    trivial, partial, packed = results.values()
    ratio = partial["rps"] / trivial["rps"]
    print(
        f"partial/trivial: throughput {ratio:.2f}x, p50 {partial['p50'] / trivial['p50']:.2f}x; "
        f"goal throughput >= 0.5x: {'MET' if ratio >= 0.5 else 'NOT MET'}"
    )
    print(f"gzip partial/trivial: throughput {packed['rps'] / trivial['rps']:.2f}x")
    if any(r["errors"] for r in results.values()):
        print("INVALID: some requests failed or were not 2xx", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
