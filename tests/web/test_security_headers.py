import pytest
from fastapi.testclient import TestClient

from app.errors import SERVER_ERROR
from app.main import MAX_BODY_BYTES, create_app
from app.platform.settings import settings
from tests.factories import hand_checked_catalog
from tests.web.helpers import html


@pytest.mark.parametrize("path", ["/", "/api/quote", "/docs", "/s/AAAAAAAAAAAAAAAA", "/static/app.css"])
def test_every_response_carries_the_security_headers(client, session, path):
    hand_checked_catalog(session)
    headers = client.get(path).headers
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"


def test_pages_load_scripts_and_styles_only_from_this_site_and_none_inline(client, session):
    hand_checked_catalog(session)
    for path in ["/", "/docs"]:
        page = html(client.get(path))
        assert all(s.get("src", "").startswith("/static/") for s in page.select("script"))
        assert all(not s.string for s in page.select("script")), "no inline script"
        assert not page.select("style") and not page.select("[style]")
        assert all(link["href"].startswith("/static/") for link in page.select("link[rel=stylesheet]"))


def _has_security_headers(response):
    return "frame-ancestors 'none'" in response.headers.get("content-security-policy", "") and (
        response.headers.get("x-content-type-options") == "nosniff"
    )


def _app_with_a_broken_route():
    app = create_app("sqlite://")

    def broken() -> None:
        raise RuntimeError("a secret the traceback would show")

    app.add_api_route("/api/broken", broken)
    app.add_api_route("/broken", broken)
    return app


def test_an_unhandled_exception_is_a_plain_500_that_carries_the_security_headers():
    client = TestClient(_app_with_a_broken_route(), raise_server_exceptions=False)
    api = client.get("/api/broken")
    assert api.status_code == 500 and api.json() == {"detail": SERVER_ERROR} and _has_security_headers(api)
    page = client.get("/broken", headers={"Accept": "text/html"})
    assert page.status_code == 500 and _has_security_headers(page)
    assert SERVER_ERROR in html(page).select_one(".problem").text and "secret" not in page.text


def test_a_body_over_the_limit_is_a_413_that_carries_the_security_headers(client):
    response = client.post(
        "/api/scenarios", content=b"{" + b" " * MAX_BODY_BYTES + b"}", headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413 and _has_security_headers(response)


def test_browsers_are_told_to_keep_to_https_only_where_the_site_is_served_over_it(client, monkeypatch):
    assert "strict-transport-security" not in client.get("/api/health").headers
    monkeypatch.setattr(settings, "public_url", "https://gpucost.example")
    assert client.get("/api/health").headers["strict-transport-security"].startswith("max-age=31536000")
