"""A pool with no connection free for longer than a request waits for one: 503 with Retry-After,
JSON for programs and a page for people, and the next request served once one is free."""

from fastapi.testclient import TestClient

from app.errors import BUSY
from app.main import create_app
from app.settings import settings
from tests.web.helpers import html


def test_a_request_that_finds_no_free_connection_within_its_wait_is_answered_busy(database_url, monkeypatch):
    monkeypatch.setattr(settings, "worker_threads", 2)
    monkeypatch.setattr(settings, "db_pool_timeout_s", 0.5)
    app = create_app(database_url)
    with TestClient(app) as client:
        slug = client.post("/api/scenarios", json={"params": {"gpu_hours": 100}}).json()["slug"]
        engine = app.state.engine
        held = [engine.connect() for _ in range(engine.pool.size())]  # as slow requests elsewhere would
        try:
            api = client.get(f"/api/scenarios/{slug}")
            page = client.get(f"/s/{slug}", headers={"Accept": "text/html"})
        finally:
            for connection in held:
                connection.close()
        again = client.get(f"/api/scenarios/{slug}")
    assert api.status_code == 503 and api.headers["Retry-After"] == "2" and api.json() == {"detail": BUSY}
    assert page.status_code == 503 and page.headers["Retry-After"] == "2"
    assert html(page).select_one("h1").text == "Busy" and BUSY in html(page).select_one(".problem").text
    assert again.status_code == 200 and again.json()["slug"] == slug
    assert engine.pool.size() == 3, "a connection for each of the 2 worker threads and one for the event loop"
