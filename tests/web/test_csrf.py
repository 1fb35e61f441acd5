"""A CSRF token is good in the browser session it was issued to, and a new one comes with signing in."""

from fastapi.testclient import TestClient

from app.admin.accounts import create_admin
from app.main import app
from tests.factories import hand_checked_catalog
from tests.web.helpers import PASSWORD, csrf, html, sign_in, signed_in_as, versions


def _retire(client, token):
    return client.post("/admin/offers/1/retire", data={"csrf_token": token, "note": "gone"}, follow_redirects=False)


def test_a_token_and_cookie_from_another_browser_are_refused_in_an_admins_session(client, session):
    """The attacker's own pair, planted in the admin's browser (a cookie set from a sibling site),
    passed the old double-submit check: a cookie equal to the field and signed by us."""
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    attacker = TestClient(app)
    planted = html(attacker.get("/admin/login")).select_one("input[name=csrf_token]")["value"]
    signed_in_as(client, session)
    before = versions(session)
    client.cookies.set("csrftoken", planted)
    assert _retire(client, planted).status_code == 403
    assert versions(session) == before
    assert _retire(client, csrf(client, "/admin/offers/1")).status_code == 303, "the page's own token works"


def test_signing_in_replaces_the_token_the_sign_in_form_carried(client, session):
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    before_sign_in = html(client.get("/admin/login")).select_one("input[name=csrf_token]")["value"]
    signed_in = sign_in(client)
    assert signed_in.status_code == 303 and "csrftoken=" in signed_in.headers["set-cookie"]
    after = csrf(client, "/admin/offers/1")
    assert after != before_sign_in
    assert _retire(client, before_sign_in).status_code == 403
    assert _retire(client, after).status_code == 303
