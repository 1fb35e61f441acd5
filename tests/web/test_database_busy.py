"""A pool with no connection free for longer than a request waits for one: 503 with Retry-After,
JSON for programs and a page for people, and the next request served once one is free."""

from urllib.parse import urlencode

from fastapi.testclient import TestClient
from sqlmodel import Session

from app.admin.accounts import create_admin
from app.catalog.tables import OfferVersion
from app.errors import BUSY
from app.main import create_app
from app.platform.settings import settings
from app.web.templating import templates
from tests.web.helpers import PASSWORD, html, signed_in_as


def test_a_request_that_finds_no_free_connection_within_its_wait_is_answered_busy(database_url, monkeypatch):
    monkeypatch.setattr(settings, "worker_threads", 2)
    monkeypatch.setattr(settings, "heavy_at_once", 1)
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
    assert engine.pool.size() == 4, "a connection for each of the 2 worker threads, the heavy answer's and the loop's"


def test_no_database_connection_is_held_while_a_page_renders(database_url, monkeypatch):
    """Rendering a page is most of a request's time: a connection held meanwhile is one a burst
    waits for. The saved scenario's page, comparing, and every admin page it reads for."""
    app = create_app(database_url)
    held_while_rendering = {}
    render = templates.TemplateResponse

    def recording(request, name, *args, **kwargs):
        held_while_rendering[name] = app.state.engine.pool.checkedout()
        return render(request, name, *args, **kwargs)

    monkeypatch.setattr(templates, "TemplateResponse", recording)
    with TestClient(app) as client:
        slugs = [client.post("/api/scenarios", json={"params": {"gpu_hours": h}}).json()["slug"] for h in (100, 200)]
        with Session(app.state.engine) as session:
            create_admin(session, "alice", PASSWORD)
            signed_in_as(client, session)
            key = session.get(OfferVersion, 1).key
        pages = [f"/s/{slugs[0]}", f"/compare?s={','.join(slugs)}", "/admin/offers/1",
                 f"/admin/history?{urlencode({'key': key})}", "/admin/providers", "/admin/providers/1", "/admin/gpus",
                 "/admin/audit", "/admin/rates", "/admin/presets?key=llama-3.1-8b",
                 "/admin/servers?key=dgx-h100/viperatech-2025-03"]  # fmt: skip
        statuses = {page: client.get(page).status_code for page in pages}
    assert set(statuses.values()) == {200}, statuses
    assert len(held_while_rendering) == len(pages), "each page rendered a template of its own"
    assert held_while_rendering == dict.fromkeys(held_while_rendering, 0)
