import io
import re
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlencode

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlmodel import Session, col, create_engine, func, select

from app.admin.__main__ import main as admin_command
from app.admin.accounts import create_admin
from app.admin.tables import AdminSession, AdminUser
from app.catalog.tables import CatalogVersion, OfferVersion
from app.main import app
from app.platform.settings import settings
from tests.factories import hand_checked_catalog
from tests.web.helpers import PASSWORD, QUERY, csrf, html, sign_in, signed_in_as, soup, totals, versions


@pytest.fixture
def admin(session):
    hand_checked_catalog(session)
    return create_admin(session, "alice", PASSWORD)


def test_create_admin_command_stores_an_argon2_hash_not_the_password(database_url, monkeypatch):
    """`python -m app.admin create-admin root --password-stdin`, through the command's function."""
    monkeypatch.setattr(settings, "database_url", database_url)
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    assert admin_command(["create-admin", "root", "--password-stdin"]) == 0
    with Session(create_engine(settings.database_url)) as session:
        user = session.exec(select(AdminUser)).one()
    assert user.username == "root" and user.password_hash.startswith("$argon2id$")
    assert PASSWORD not in user.password_hash


def test_create_admin_command_refuses_a_short_password(database_url, monkeypatch, capsys):
    monkeypatch.setattr(settings, "database_url", database_url)
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert admin_command(["create-admin", "bob", "--password-stdin"]) == 1
    assert "at least 12 characters" in capsys.readouterr().err
    with Session(create_engine(settings.database_url)) as session:
        assert session.exec(select(AdminUser)).all() == []


def test_sign_in_sets_a_protected_session_cookie_and_sign_out_ends_it(client, session, admin):
    response = sign_in(client)
    assert response.status_code == 303 and response.headers["location"] == "/admin"
    cookie = response.headers["set-cookie"]
    assert "admin_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert client.get("/admin", follow_redirects=False).status_code == 200
    signed_out = client.post("/admin/logout", data={"csrf_token": csrf(client)}, follow_redirects=False)
    assert (signed_out.status_code, signed_out.headers["location"]) == (303, "/admin/login")
    assert session.exec(select(func.count()).select_from(AdminSession)).one() == 0
    assert client.get("/admin", follow_redirects=False).status_code == 303


def test_session_cookie_is_secure_when_served_over_https(client, session, admin, monkeypatch):
    token = html(client.get("/admin/login")).select_one("input[name=csrf_token]")["value"]
    monkeypatch.setattr(settings, "public_url", "https://gpucost.example")
    data = {"csrf_token": token, "username": "alice", "password": PASSWORD}
    assert "Secure" in client.post("/admin/login", data=data, follow_redirects=False).headers["set-cookie"]


def test_sessions_expire(client, session, admin):
    signed_in_as(client, session)
    stored = session.exec(select(AdminSession)).one()
    stored.expires_at = datetime.now(UTC) - timedelta(minutes=1)
    session.add(stored)
    session.commit()
    assert client.get("/admin", follow_redirects=False).headers["location"] == "/admin/login?next=/admin"


def test_failed_sign_ins_are_throttled_per_account_and_address(client, session, admin):
    assert [sign_in(client, password="wrong password!").status_code for _ in range(5)] == [401] * 5
    response = sign_in(client)
    assert response.status_code == 429 and "Too many failed sign-ins" in html(response).select_one(".problem").text


def test_guesses_from_elsewhere_do_not_lock_the_admin_out(client, session, admin):
    from app.admin.throttle import record_attempt

    for _ in range(5):
        record_attempt(session, "alice", "somewhere-else")
    assert sign_in(client).status_code == 303


def test_every_attempt_is_on_record_before_it_is_counted(session, admin):
    """So that guesses sent at once count too: of 30 from one address, 5 go on to a password check."""
    from app.admin.throttle import Throttled, record_attempt

    outcomes = []
    for _ in range(30):
        try:
            outcomes.append(record_attempt(session, "alice", "guesser").id)
        except Throttled:
            outcomes.append("throttled")
    assert len(set(outcomes) - {"throttled"}) == 5 and outcomes.count("throttled") == 25


def test_failed_sign_ins_are_throttled_per_client_address(client, session, admin):
    for i in range(20):
        assert sign_in(client, username=f"nobody{i}", password="wrong password!").status_code == 401
    assert sign_in(client).status_code == 429


def test_a_nul_character_in_the_account_name_is_a_failed_sign_in_not_a_server_error(client, session, admin):
    """PostgreSQL refuses text holding NUL, and every attempt is written down before it is checked."""
    assert sign_in(client, username="ali\x00ce", password="wrong password!").status_code == 401


def test_sign_in_never_redirects_outside_the_admin_area(client, session, admin):
    token = html(client.get("/admin/login")).select_one("input[name=csrf_token]")["value"]
    data = {"csrf_token": token, "username": "alice", "password": PASSWORD, "next": "https://evil.example/"}
    assert client.post("/admin/login", data=data, follow_redirects=False).headers["location"] == "/admin"


def _app_routes():
    for route in app.routes:
        if isinstance(route, APIRoute):
            yield route.path, route.methods
        elif hasattr(route, "effective_route_contexts"):  # newer FastAPI wraps each included router
            for included in route.effective_route_contexts():
                yield included.path, included.methods


ADMIN_ROUTES = sorted(
    (method, re.sub(r"\{[^}]+\}", "1", path))
    for path, methods in _app_routes()
    if path.startswith("/admin") and path != "/admin/login"
    for method in methods
)
"""Every route of the admin area but signing in itself, read off the app: none can be forgotten."""


def test_the_admin_routes_are_all_found():
    expected = {
        ("GET", "/admin"),
        ("POST", "/admin/offers/1"),
        ("POST", "/admin/logout"),
        ("GET", "/admin/api/export.json"),
    }
    assert expected <= set(ADMIN_ROUTES)


@pytest.mark.parametrize(("method", "path"), ADMIN_ROUTES)
def test_every_admin_route_refuses_the_anonymous_and_a_forged_csrf_token(client, session, admin, method, path):
    before = versions(session)
    anonymous = client.request(method, path, params={"key": "x"}, follow_redirects=False)
    if path == "/admin/logout":
        assert anonymous.status_code == 403  # no token: signing out is refused like any other change
    elif path.startswith("/admin/api/"):
        assert anonymous.status_code == 401
    else:
        assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/admin/login")
    if method != "GET":
        signed_in_as(client, session)
        forged = client.request(method, path, data={"csrf_token": "forged.0000", "price": "1", "note": "x"})
        assert forged.status_code == 403
        assert client.get("/admin", follow_redirects=False).status_code == 200, "still signed in"
    assert versions(session) == before


def edit(client, row_id, **fields):
    data = {
        "csrf_token": csrf(client, f"/admin/offers/{row_id}"),
        "price": "3.00",
        "source_url": "https://example.test/new",
        "as_of": "2026-11-20",
        "note": "list price up",
        **fields,
    }
    return client.post(f"/admin/offers/{row_id}", data=data, follow_redirects=False)


def test_a_price_edit_is_a_new_version_with_who_and_why_and_the_old_price_stays(client, session, admin):
    """On demand 2.50 -> 3.00 at 400 h: 1,003.60 -> 1,203.60 today; version 1 still 1,003.60."""
    signed_in_as(client, session)
    assert edit(client, 1).status_code == 303
    assert totals(soup(client.get(f"/?{QUERY}")))["virtualized-on_demand"] == "$1,203.60"
    assert totals(soup(client.get(f"/?{QUERY}&catalog_version=1")))["virtualized-on_demand"] == "$1,003.60"
    change = session.exec(select(CatalogVersion).order_by(CatalogVersion.id.desc())).first()
    assert (change.created_by, change.note, change.record.startswith("offer cloud:")) == (
        "alice",
        "list price up",
        True,
    )
    history = html(client.get(f"/admin/history?key={session.get(OfferVersion, 1).key}"))
    assert "price: 2.5 → 3" in history.get_text()
    audit = html(client.get("/admin/audit?by=alice")).select("table tbody tr")
    assert len(audit) == 1 and "list price up" in audit[0].get_text()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("price", "-1", "must be a price of 0 or more"),
        ("price", "abc", "must be a number, e.g. 2.49"),
        ("source_url", "javascript:alert(1)", "must be the http(s) address of the page the price was read from"),
        ("as_of", "2999-01-01", "cannot be in the future"),
        ("note", " ", "say in a few words why (500 characters at most)"),
    ],
)
def test_bad_price_edits_are_explained_next_to_the_field_and_save_nothing(
    client, session, admin, field, value, message
):
    signed_in_as(client, session)
    before = versions(session)
    response = edit(client, 1, **{field: value})
    assert response.status_code == 422
    assert html(response).select_one(f"#{field}-error").get_text() == message
    assert versions(session) == before


def test_the_later_of_two_conflicting_edits_is_refused_and_shows_the_other(client, session, admin):
    create_admin(session, "bob", PASSWORD)
    signed_in_as(client, session)
    form_alice = csrf(client, "/admin/offers/1")
    bob = TestClient(app)
    signed_in_as(bob, session, "bob")
    assert edit(bob, 1, price="2.75", note="bob's change").status_code == 303
    data = {
        "csrf_token": form_alice,
        "price": "3.00",
        "source_url": "https://example.test/a",
        "as_of": "2026-11-20",
        "note": "alice's change",
    }
    response = client.post("/admin/offers/1", data=data)
    assert response.status_code == 409
    text = html(response).select_one(".problem").get_text()
    assert "2.75" in text and "bob" in text and "bob's change" in text
    assert html(response).select_one("#price")["value"] == "3.00", "alice's typing is kept"
    current = session.exec(
        select(OfferVersion).where(
            OfferVersion.key == session.get(OfferVersion, 1).key, OfferVersion.valid_to.is_(None)
        )
    ).one()
    assert current.price == 2.75


def test_retire_and_restore_as_new_versions(client, session, admin):
    signed_in_as(client, session)
    key = session.get(OfferVersion, 3).key
    token = csrf(client, "/admin/offers/3")
    history = "/admin/history?" + urlencode({"key": key})
    retired = client.post("/admin/offers/3/retire", data={"csrf_token": token, "note": "gone"}, follow_redirects=False)
    assert (retired.status_code, retired.headers["location"]) == (303, history)
    assert "serverless-per_second" not in totals(soup(client.get(f"/?{QUERY}")))
    restored = client.post("/admin/offers/3/restore", data={"csrf_token": token}, follow_redirects=False)
    assert (restored.status_code, restored.headers["location"]) == (303, history)
    assert totals(soup(client.get(f"/?{QUERY}")))["serverless-per_second"] == "$1,440.00"
    rows = session.exec(select(OfferVersion).where(OfferVersion.key == key).order_by(col(OfferVersion.id))).all()
    assert [r.valid_to is None for r in rows] == [False, True]


def test_stale_view_lists_the_oldest_prices_first(client, session, admin):
    signed_in_as(client, session)
    rows = html(client.get("/admin?days=0")).select("table tbody tr")
    assert len(rows) == 3 and rows[0].td.get_text() == "2026-11-01"
    assert html(client.get("/admin?days=100000")).select("table tbody tr") == []


def test_the_stale_view_lists_the_exchange_rate_with_its_date_and_age(client, session, with_shipped_rate):
    """The shipped rate of 2026-04-13 is older than the default 90 days: listed after the prices, its age
    counted in days; at 100,000 days it is not."""
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    (row,) = html(client.get("/admin")).select("table.stale-rates tbody tr")
    as_of, age, rate, source = (td.get_text() for td in row.select("td"))
    assert (as_of, int(age), rate) == ("2026-04-13", (date.today() - date(2026, 4, 13)).days, "1 EUR = 1.1684 USD")
    assert source == "source" and row.select_one("a[href='/admin/rates']")
    assert html(client.get("/admin?days=100000")).select("table.stale-rates") == []


def test_a_refusal_reads_as_a_page_for_people_and_json_for_programs(client, session, admin):
    signed_in_as(client, session)
    data = {"csrf_token": "forged.0000", "price": "1", "note": "x"}
    page = client.post("/admin/offers/1", data=data, headers={"Accept": "text/html"})
    assert page.status_code == 403 and "no valid CSRF token" in html(page).select_one(".problem").get_text()
    assert client.post("/admin/offers/1", data=data).json()["detail"].startswith("This request carried no valid")
    assert client.get("/nowhere", headers={"Accept": "text/html"}).status_code == 404


@pytest.mark.parametrize(
    "path",
    ["/admin/offers/99999999999999999999", "/admin?days=1000000", "/admin/offers?stale_days=10000000000",
     "/admin/providers/99999999999999999999"],
)  # fmt: skip
def test_out_of_range_ids_and_ages_are_refused_not_crashed_on(client, session, admin, path):
    signed_in_as(client, session)
    assert client.get(path).status_code == 422


def test_the_history_of_an_offer_that_never_was_is_not_found(client, session, admin):
    signed_in_as(client, session)
    response = client.get("/admin/history", params={"key": "nobody:nothing:H100:nowhere:on_demand"})
    assert response.status_code == 404 and "no such offer" in html(response).get_text()


@pytest.mark.parametrize("typed", ["²", "1e1", "8_0", "+8", " 8", "８", "0", "4097"])
def test_a_new_gpu_memory_must_be_plain_digits_in_range(client, session, admin, typed):
    signed_in_as(client, session)
    before = versions(session)
    response = client.post("/admin/gpus", data={"csrf_token": csrf(client), "name": "X1", "memory_gib": typed})
    assert response.status_code == 422 and html(response).select_one("#memory_gib-error").get_text() == (
        "must be a whole number from 1 to 4,096"
    )
    assert versions(session) == before


def test_an_absurd_price_is_refused(client, session, admin):
    signed_in_as(client, session)
    response = edit(client, 1, price="1e999999")
    assert response.status_code == 422
    assert html(response).select_one("#price-error").get_text() == (
        "must be at most 10,000,000 with 8 decimal places at most"
    )


def test_signing_in_again_ends_the_previous_session(client, session, admin):
    sign_in(client)
    sign_in(client)
    assert len(session.exec(select(AdminSession)).all()) == 1
