"""What a browser downloads: pages compressed, static files kept for a year where their address
names their content, and checked again where it does not."""

from app.platform.assets import FOR_A_YEAR
from tests.factories import hand_checked_catalog
from tests.web.helpers import QUERY, soup


def test_pages_and_the_sliders_partial_are_sent_compressed(client, session):
    hand_checked_catalog(session)
    for headers in ({}, {"HX-Request": "true"}):
        response = client.get(f"/?{QUERY}", headers=headers | {"Accept-Encoding": "gzip"})
        assert response.headers["content-encoding"] == "gzip"
        assert response.headers["content-security-policy"], "compression keeps the security headers"
        assert response.headers["vary"] == "HX-Request, Accept-Encoding"


def test_the_page_and_its_fragment_are_kept_apart_by_caches(client, session):
    """One URL answers the whole page or, for htmx, its results: a cache that mixed them up would
    show a bare fragment on going back."""
    hand_checked_catalog(session)
    for url in (f"/?{QUERY}", f"/?{QUERY}&gpu_hours=-1", "/offers"):
        for headers in ({}, {"HX-Request": "true"}):
            assert "HX-Request" in client.get(url, headers=headers).headers["vary"], (url, headers)


def test_static_files_linked_by_digest_or_version_are_kept_for_a_year(client, session):
    hand_checked_catalog(session)
    page = soup(client.get("/"))
    linked = [tag.get("href") or tag.get("src") for tag in page.select("link[href^='/static/'], script[src]")]
    assert len(linked) == 5 and all("?v=" in url or "htmx-2.0.11" in url for url in linked)
    for url in linked:
        response = client.get(url)
        assert (response.status_code, response.headers["cache-control"]) == (200, FOR_A_YEAR), url
    assert client.get("/static/app.css").headers["cache-control"] == "no-cache"
