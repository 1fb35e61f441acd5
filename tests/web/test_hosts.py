"""The app answers only for its own host names, builds redirects on PUBLIC_URL, and keeps admin pages out of caches."""

import pytest
from pydantic import ValidationError

from app.admin.accounts import create_admin
from app.platform.hosts import host_allowed
from app.platform.settings import Settings, settings
from tests.factories import hand_checked_catalog
from tests.web.helpers import PASSWORD, signed_in_as


@pytest.fixture
def in_production(monkeypatch):
    monkeypatch.setattr(settings, "environment", "production")
    monkeypatch.setattr(settings, "public_url", "https://gpucost.example")


def test_in_production_a_request_for_another_host_is_refused_and_health_is_answered_by_address(
    client, session, in_production
):
    hand_checked_catalog(session)
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/offers/", headers={"Host": "evil.example"}, follow_redirects=False).status_code == 400
    assert client.get("/", headers={"Host": "gpucost.example"}).status_code == 200
    assert client.get("/api/health", headers={"Host": "10.0.0.7:8000"}).status_code == 200


def test_a_trailing_slash_redirect_is_built_on_public_url_never_on_the_host_header(client, session, monkeypatch):
    hand_checked_catalog(session)
    moved = client.get("/offers/?gpu=H100", headers={"Host": "evil.example"}, follow_redirects=False)
    assert (moved.status_code, moved.headers["location"]) == (307, "/offers?gpu=H100")
    monkeypatch.setattr(settings, "public_url", "https://gpucost.example/")
    moved = client.get("/offers/", headers={"Host": "evil.example"}, follow_redirects=False)
    assert moved.headers["location"] == "https://gpucost.example/offers"
    assert client.get("/no-such-page/", follow_redirects=False).status_code == 404


@pytest.mark.parametrize(
    ("host", "allowed", "expected"),
    [
        ("gpucost.example", ["gpucost.example"], True),
        ("GPUcost.example:443", ["gpucost.example"], True),
        ("gpucost.example.evil.test", ["gpucost.example"], False),
        ("eu.gpucost.example", ["*.gpucost.example"], True),
        ("evilgpucost.example", ["*.gpucost.example"], False),
        ("[::1]:8000", ["[::1]"], True),
        ("", ["gpucost.example"], False),
        ("anything.test", ["*"], True),
    ],
)
def test_host_names_match_exactly_or_as_subdomains(host, allowed, expected):
    assert host_allowed(host, allowed) is expected


def test_production_refuses_to_start_without_public_url_or_allowed_hosts():
    with pytest.raises(ValidationError, match="PUBLIC_URL"):
        Settings(_env_file=None, environment="production", secret_key="k" * 32)  # type: ignore[call-arg]
    named = Settings(
        _env_file=None, environment="production", secret_key="k" * 32, allowed_hosts="a.example, *.b.example"
    )  # type: ignore[call-arg]
    assert named.hosts_allowed() == ["a.example", "*.b.example"]


def test_admin_pages_and_exports_are_never_stored_by_a_cache_and_public_pages_may_be(client, session):
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    assert client.get("/admin/login").headers["cache-control"] == "no-store"
    signed_in_as(client, session)
    for path in ["/admin", "/admin/offers/1", "/admin/api/export.csv", "/admin/api/export.json"]:
        assert client.get(path).headers["cache-control"] == "no-store", path
    assert client.get("/").headers.get("cache-control") != "no-store"
