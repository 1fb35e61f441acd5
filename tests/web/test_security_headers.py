import pytest

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
