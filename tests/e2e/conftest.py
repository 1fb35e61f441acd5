"""A real uvicorn server on a fresh SQLite file and a real Chromium: what a user's browser meets."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The server's database, for tests that put records in it the way an admin would."""
    return f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'e2e.db'}"


@pytest.fixture(scope="session")
def base_url(database_url: str) -> Iterator[str]:
    """Start the app as it ships (migrating and seeding its own empty database) and wait for it to answer."""
    db = Path(database_url.removeprefix("sqlite:///"))
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = (db.parent / "uvicorn.log").open("w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=REPO_ROOT,
        env={**os.environ, "DATABASE_URL": database_url},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"uvicorn exited with {proc.returncode}:\n{log.read()}")
            try:
                with urllib.request.urlopen(f"{url}/api/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"uvicorn did not answer /api/health within 30 s:\n{log.read()}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, not a Playwright download: there is no internet to fetch one."""
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(executable).exists():
        pytest.fail(
            f"Chromium not found at {executable}: install Debian's chromium (apt-get install chromium) "
            "or set CHROMIUM to its path."
        )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, base_url: str) -> Iterator[Page]:
    """A fresh context per test, so no cookies, storage or htmx history cache leak between tests."""
    context = browser.new_context(base_url=base_url)
    context.set_default_timeout(5_000)  # everything here takes well under a second; fail fast, not after 30 s
    page = context.new_page()
    yield page
    context.close()
