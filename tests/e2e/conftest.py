"""A real uvicorn server on a fresh SQLite file per test module and a real Chromium: what a user's browser meets."""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright
from sqlmodel import Session

from app.catalog.updates import load_shipped_catalog
from app.main import create_app
from app.platform.db import make_engine, migrate

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
def new_database(tmp_path_factory: pytest.TempPathFactory) -> Callable[[], str]:
    """Makes a database as the app's first start leaves it (migrated, the shipped catalog loaded):
    done once, then copied, so that each test module gets its own in a few milliseconds."""
    seeded = tmp_path_factory.mktemp("e2e") / "seeded.db"
    migrate(f"sqlite:///{seeded}")
    engine = make_engine(f"sqlite:///{seeded}")
    with Session(engine) as session:
        load_shipped_catalog(session)
    engine.dispose()

    def copy() -> str:
        path = tmp_path_factory.mktemp("e2e") / "e2e.db"
        source, target = sqlite3.connect(seeded), sqlite3.connect(path)
        source.backup(target)
        source.close(), target.close()
        return f"sqlite:///{path}"

    return copy


@pytest.fixture(scope="module")
def database_url(new_database: Callable[[], str]) -> str:
    """Each test module's own server database, so that what one module saves no other one sees."""
    return new_database()


@pytest.fixture(scope="module")
def base_url(database_url: str) -> Iterator[str]:
    """The app as it ships on a real uvicorn, served from a thread of this process, which has
    imported the app already."""
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(database_url), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("uvicorn did not start; its log is above")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


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
