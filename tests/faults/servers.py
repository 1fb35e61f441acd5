"""The app as separate server processes on one database, as a deployment runs it: started, asked,
killed without warning and started again."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str

    def memory_mb(self, field: str = "VmRSS") -> float:
        """VmRSS (resident now) or VmHWM (its peak since start or the last `reset_peak_memory`), in MB."""
        found = re.search(rf"{field}:\s+(\d+) kB", Path(f"/proc/{self.process.pid}/status").read_text())
        assert found, field
        return int(found.group(1)) / 1024

    def reset_peak_memory(self) -> None:
        """VmHWM starts again from VmRSS (Linux 4.0 and later)."""
        Path(f"/proc/{self.process.pid}/clear_refs").write_text("5")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what a crashed machine or an OOM kill leaves."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


def start(database_url: str, **settings: str) -> Server:
    """A uvicorn process serving the app on `database_url`, once it answers /api/health."""
    port = _free_port()
    env = os.environ | {"DATABASE_URL": database_url, "SAVES_PER_CLIENT_PER_10_MIN": "100000"} | settings
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port), "--log-level", "warning"]
    command.append("--no-proxy-headers")  # as in production: the app reads X-Forwarded-For by TRUSTED_PROXIES
    process = subprocess.Popen(command, cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode} before answering")
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return Server(process, url)
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not answer /api/health within 60 s")


@contextmanager
def serving(database_url: str, **settings: str) -> Iterator[Server]:
    server = start(database_url, **settings)
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.terminate()
            server.process.wait(timeout=10)
