"""Reading a catalog version the process does not keep, while other requests are served (issue 18):
at ten times the shipped catalog a read takes a second, at a hundred times eight, and it was done on
the event loop, so every other client waited for it."""

import threading
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

import app.catalog.snapshot as snapshot
from app.main import create_app
from tests.web.helpers import QUERY

HELD_S = 5.0
"""How long a held read waits to be let go: before the fix, the event loop waited as long."""


class HeldReads:
    """The catalog's reads of old versions, each held at its start until `let_go` (or HELD_S seconds), as
    a read of a large catalog holds for seconds; the newest, read at start, is not held."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, let_go: threading.Event) -> None:
        self.versions: list[int] = []
        self.started, self.ended = threading.Event(), threading.Event()
        read = snapshot._read

        def held(session, version):
            self.versions.append(version)
            self.started.set()
            let_go.wait(HELD_S)
            self.ended.set()
            return read(session, version)

        monkeypatch.setattr(snapshot, "_read", held)


class Counted:
    """The app, counting the requests that have reached it."""

    def __init__(self, app) -> None:
        self.app, self.entered = app, 0

    async def __call__(self, scope, receive, send) -> None:
        self.entered += scope["type"] == "http"
        await self.app(scope, receive, send)

    def wait_for(self, count: int) -> None:
        deadline = time.monotonic() + 10
        while self.entered < count and time.monotonic() < deadline:
            time.sleep(0.01)


def _app_with_an_old_version(database_url) -> tuple[TestClient, Counted]:
    """The app on the shipped catalog (versions 1 to 3), started: it keeps the newest, not version 1."""
    app = Counted(create_app(database_url))
    return TestClient(app), app


def test_requests_for_the_kept_version_are_answered_while_an_old_version_is_read(database_url, monkeypatch):
    let_go, answers = threading.Event(), []
    client, _ = _app_with_an_old_version(database_url)
    with client:
        reads = HeldReads(monkeypatch, let_go)
        old = threading.Thread(target=lambda: answers.append(client.get(f"/api/quote?{QUERY}&catalog_version=1")))
        old.start()
        assert reads.started.wait(10)
        health, newest = client.get("/api/health"), client.get(f"/api/quote?{QUERY}")
        assert not reads.ended.is_set(), "answered only once the read of version 1 had ended"
        let_go.set()
        old.join(10)
    assert health.status_code == newest.status_code == 200 and newest.json()["catalog_version"] > 1
    assert [a.json()["catalog_version"] for a in answers] == [1] and reads.versions == [1]


def test_requests_at_once_for_an_old_version_wait_for_one_read_of_it(database_url, monkeypatch):
    """Three JSON offer lists (served in worker threads), then three JSON quotes (async) and three
    explorer pages ask for version 1 while its read is held: it is read once, and all nine get it."""
    batches = [
        ["/api/offers?catalog_version=1"] * 3,
        [f"/api/quote?{QUERY}&catalog_version=1", "/offers?catalog_version=1"] * 3,
    ]
    let_go, answers, sent = threading.Event(), [], 0
    client, app = _app_with_an_old_version(database_url)
    with client:
        reads = HeldReads(monkeypatch, let_go)
        for batch in batches:
            for path in batch:
                threading.Thread(target=lambda p=path: answers.append(client.get(p))).start()
            sent += len(batch)
            app.wait_for(sent)
            time.sleep(0.5)  # from reaching the app to waiting for the read
        let_go.set()
        deadline = time.monotonic() + 10
        while len(answers) < 9 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert [a.status_code for a in answers] == [200] * 9
    assert reads.versions == [1]


def test_the_newest_number_is_read_again_without_holding_anyone(database_url):
    """Its query is tiny, but it waits for a connection like any other: held, the quote at the newest
    version is still answered (with the number known), and the query goes on in its own thread."""
    let_go, held, ended = threading.Event(), threading.Event(), threading.Event()
    client, app = _app_with_an_old_version(database_url)
    with client:
        engine = app.app.state.engine
        snapshot.catalogs_for(engine).ttl = 0  # due again at every request

        @event.listens_for(engine, "before_cursor_execute")
        def hold(connection, cursor, statement, *args):
            if "max(catalogversion.id)" in statement.lower():
                held.set()
                let_go.wait(HELD_S)
                ended.set()

        answers = [client.get(f"/api/quote?{QUERY}"), client.get("/api/health")]
        assert held.is_set() and not ended.is_set(), "answered only once the newest number had been read"
        let_go.set()
    assert [a.status_code for a in answers] == [200, 200] and answers[0].json()["catalog_version"] > 1
