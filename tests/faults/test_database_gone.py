"""A database that stops answering while a server runs: every request that needs it is answered 503
with Retry-After (JSON for programs, a page for people), never a 500, and answered again once it is
back. A SQLite file moved away is never replaced by a new empty one, while serving or at a start."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from bs4 import BeautifulSoup

from app.catalog.updates import bring_up_to_date
from app.errors import DATABASE_RETRY_AFTER_S, UNAVAILABLE
from app.platform.security import ADMIN_COOKIE
from tests.databases import BACKENDS, Cluster
from tests.faults.servers import ROOT, refused_start, serving


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Path:
    """A SQLite database as the app's first start leaves it."""
    path = tmp_path / "gpucost.db"
    bring_up_to_date(f"sqlite:///{path}")
    return path


@pytest.fixture
def stoppable_postgresql() -> Iterator[Cluster]:
    """A PostgreSQL server of the test's own, which it may stop: the run's shared one serves other tests."""
    if "postgresql" not in BACKENDS:
        pytest.skip("TEST_DATABASES leaves PostgreSQL out")
    cluster = Cluster()
    cluster.start()
    yield cluster
    cluster.remove()


def saved_scenario(client: httpx.Client) -> str:
    saved = client.post("/api/scenarios", json={"params": {"gpu_hours": 300}})
    assert saved.status_code == 201
    return saved.json()["slug"]


def each_unavailable(client: httpx.Client, slug: str) -> None:
    """What needs the database answers 503 with Retry-After: the API in JSON, pages as a page (an admin's
    too: her session is looked up in the database); health within its two seconds."""
    client.cookies.set(ADMIN_COOKIE, "a-session-token")
    api = [client.get(f"/api/scenarios/{slug}"), client.post("/api/scenarios", json={"params": {"gpu_hours": 1}})]
    for answered in api:
        assert answered.status_code == 503, answered.text[:300]
        assert answered.headers["Retry-After"] == str(DATABASE_RETRY_AFTER_S)
        assert answered.json() == {"detail": UNAVAILABLE}
    for path in (f"/s/{slug}", "/admin", "/admin/offers"):
        page = client.get(path, headers={"Accept": "text/html"}, follow_redirects=False)
        assert page.status_code == 503, (path, page.status_code)
        assert page.headers["Retry-After"] == str(DATABASE_RETRY_AFTER_S)
        soup = BeautifulSoup(page.text, "lxml")
        assert soup.select_one("h1").get_text() == "Unavailable" and UNAVAILABLE in soup.select_one(".problem").text
    client.cookies.clear()
    deadline = time.monotonic() + 3
    while (health := client.get("/api/health")).status_code == 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert health.status_code == 503 and health.headers["Retry-After"] == str(DATABASE_RETRY_AFTER_S)


def test_a_sqlite_file_moved_away_while_serving_is_503_and_no_new_file_is_made(sqlite_file: Path) -> None:
    moved = sqlite_file.with_name("moved-away.db")
    with serving(f"sqlite:///{sqlite_file}") as server, httpx.Client(base_url=server.url, timeout=10) as client:
        slug = saved_scenario(client)
        assert client.get(f"/s/{slug}").status_code == 200
        sqlite_file.rename(moved)
        each_unavailable(client, slug)
        assert not sqlite_file.exists(), "a new, empty database was made at the path"
        moved.rename(sqlite_file)
        back = client.get(f"/api/scenarios/{slug}")
    assert back.status_code == 200 and back.json()["slug"] == slug, "the file put back is read again"


def test_a_start_without_the_sqlite_file_made_before_refuses_and_says_so(sqlite_file: Path) -> None:
    sqlite_file.rename(sqlite_file.with_name("moved-away.db"))
    said = refused_start(f"sqlite:///{sqlite_file}")
    assert f"The SQLite database {sqlite_file} is missing" in said
    assert not sqlite_file.exists()


def test_only_the_migrate_command_makes_a_new_database_where_one_was_lost(sqlite_file: Path) -> None:
    sqlite_file.unlink()
    url = f"sqlite:///{sqlite_file}"
    migrate = [sys.executable, "-m", "app.admin", "migrate"]
    made = subprocess.run(migrate, cwd=ROOT, env=os.environ | {"DATABASE_URL": url}, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    with serving(url) as server:
        assert httpx.get(f"{server.url}/api/offers?gpu=H100", timeout=10).status_code == 200


def test_every_request_needing_postgresql_is_503_while_it_is_stopped(stoppable_postgresql: Cluster) -> None:
    url = stoppable_postgresql.url.render_as_string(hide_password=False)
    bring_up_to_date(url)
    with serving(url) as server, httpx.Client(base_url=server.url, timeout=15) as client:
        slug = saved_scenario(client)
        stoppable_postgresql.stop()
        each_unavailable(client, slug)
        stoppable_postgresql.start()
        back = client.get(f"/api/scenarios/{slug}")
    assert back.status_code == 200 and back.json()["slug"] == slug, "answered again once it is back"
