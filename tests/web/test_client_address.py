"""Limits count per client address, which a forged X-Forwarded-For must not change (issue 11)."""

from ipaddress import ip_network

import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.admin.throttle import MAX_FAILURES_PER_CLIENT
from app.main import app
from app.platform.settings import settings
from tests.factories import hand_checked_catalog
from tests.web.helpers import sign_in

PROXY = "10.0.0.5"


def _served(how):
    """The app as a client reaches it: directly from the internet, or through uvicorn's default
    proxy-header handling (which believes X-Forwarded-For from 127.0.0.1) from the same host."""
    if how == "directly":
        return TestClient(app, client=("203.0.113.7", 40000))
    return TestClient(ProxyHeadersMiddleware(app, trusted_hosts="127.0.0.1"), client=("127.0.0.1", 40000))


@pytest.mark.parametrize("how", ["directly", "behind uvicorn's defaults"])
def test_thirty_forged_addresses_still_meet_the_sign_in_throttle(client, session, how):
    hand_checked_catalog(session)
    guesser = _served(how)
    outcomes = []
    for i in range(30):
        guesser.headers["X-Forwarded-For"] = f"198.51.100.{i}"
        outcomes.append(sign_in(guesser, username=f"nobody{i}", password="wrong password!").status_code)
    assert outcomes == [401] * MAX_FAILURES_PER_CLIENT + [429] * (30 - MAX_FAILURES_PER_CLIENT)


@pytest.mark.parametrize("how", ["directly", "behind uvicorn's defaults"])
def test_forged_addresses_buy_no_more_saves(client, session, monkeypatch, how):
    hand_checked_catalog(session)
    monkeypatch.setattr(settings, "saves_per_client_per_10_min", 2)
    saver = _served(how)
    statuses = []
    for i in range(3):
        saver.headers["X-Forwarded-For"] = f"198.51.100.{i}"
        statuses.append(saver.post("/api/scenarios", json={"params": {"gpu": "H100"}}).status_code)
    assert statuses == [201, 201, 429]


def test_a_trusted_proxys_forwarded_address_is_the_one_throttled(client, session, monkeypatch):
    hand_checked_catalog(session)
    monkeypatch.setattr(settings, "trusted_proxies", [ip_network(PROXY)])
    through_proxy = TestClient(app, client=(PROXY, 40000))
    through_proxy.headers["X-Forwarded-For"] = "198.51.100.1"
    for i in range(MAX_FAILURES_PER_CLIENT):
        assert sign_in(through_proxy, username=f"nobody{i}", password="wrong password!").status_code == 401
    assert sign_in(through_proxy, password="wrong password!").status_code == 429
    through_proxy.headers["X-Forwarded-For"] = "198.51.100.2"
    assert sign_in(through_proxy, password="wrong password!").status_code == 401, "another client behind the proxy"
