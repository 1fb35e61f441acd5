"""Admins add, change and retire servers a buyer may own as new catalog versions; a bad value is
refused under its field with nothing saved, a stale form with the change that came first."""

from decimal import Decimal

import pytest

from app.catalog.snapshot import catalogs_for
from tests.web.helpers import csrf, html, versions

KEY = "dgx-h100/viperatech-2025-03"
SERVER = {"key": KEY, "name": "NVIDIA DGX H100 P4387 system 640GB", "seller": "Viperatech", "gpu": "H100",
          "gpus": "8", "price": "375000", "currency": "USD", "power_kw": "10.2",
          "power_source": "NVIDIA DGX H100 User Guide: “Maximum input specification for the system is 10.2 kW.”",
          "setup": "", "source": "https://example.test/viperatech/dgx-h100", "as_of": "2025-03-03",
          "source_kind": "transcription", "quote": "$375,000.00", "notes": "a reseller's list price",
          "note": "Viperatech's list"}  # fmt: skip
"""Viperatech's DGX H100, filled in well (its csrf_token and based_on aside)."""


@pytest.fixture
def admin(signed_in):
    return signed_in


def post(client, page="/admin/servers", action="/admin/servers", fields=SERVER, **changes):
    """The form at `action` of `page` as opened, filled in with `fields` and `changes`."""
    form = html(client.get(page)).select_one(f"form[action='{action}']")
    data = fields | {name: form.select_one(f"input[name={name}]")["value"] for name in ("csrf_token", "based_on")}
    return client.post(action, data=data | changes, follow_redirects=False)


def retire(client, page, **changes):
    return post(client, page, "/admin/servers/retire", {"key": KEY, "note": "no longer sold"}, **changes)


def catalogs(session):
    return catalogs_for(session.get_bind())


def test_a_server_added_is_in_the_new_version_and_not_in_the_one_before(admin, session):
    before = catalogs(session).current().version
    added = post(admin)
    assert (added.status_code, added.headers["location"]) == (303, "/admin/servers?key=dgx-h100%2Fviperatech-2025-03")
    now = catalogs(session).current()
    assert now.version == before + 1 and KEY not in catalogs(session).at(before).servers
    server = now.servers[KEY]
    assert (server.gpu, server.gpus, server.price, server.currency, server.power_kw, server.setup) == (
        "H100", 8, 375000, "USD", Decimal("10.2"), None,
    )  # fmt: skip
    assert (server.source, server.source_kind, server.quote) == (SERVER["source"], "transcription", "$375,000.00")
    row = html(admin.get("/admin/servers")).select_one(f"tr[data-key='{KEY}']")
    assert "$375,000.00" in row.get_text() and "10.2 kW" in row.get_text()
    assert "Power: NVIDIA DGX H100 User Guide: “Maximum input specification" in row.get_text()
    assert row.select_one("a[href='https://example.test/viperatech/dgx-h100']")


def test_a_server_changed_then_retired_is_a_version_each_and_earlier_ones_keep_it(admin, session):
    """375,000, repriced in euros at 340,000 with a 2,500 setup, then retired."""
    post(admin)
    first = catalogs(session).current().version
    page = f"/admin/servers?key={KEY}"
    assert post(admin, page, price="340000", currency="EUR", setup="2500", note="EUR list").status_code == 303
    changed = catalogs(session).current().servers[KEY]
    assert (changed.price, changed.currency, changed.setup) == (340000, "EUR", 2500)
    retired = retire(admin, page)
    assert (retired.status_code, retired.headers["location"]) == (303, "/admin/servers")
    assert KEY not in catalogs(session).current().servers
    assert catalogs(session).at(first).servers[KEY].price == 375000
    assert not html(admin.get("/admin/servers")).select(f"tr[data-key='{KEY}']")
    audit = html(admin.get("/admin/audit")).select(f"a[href='/admin/servers?key={KEY}']")
    assert [a.get_text() for a in audit] == [f"server {KEY}"] * 3, "added, repriced, retired: each in the audit log"


def test_the_form_of_a_server_shows_it_as_typed_and_saves_it_unchanged(admin, session):
    post(admin, price="303610.20", currency="EUR")
    before = catalogs(session).current().servers[KEY]
    form = html(admin.get(f"/admin/servers?key={KEY}")).select_one("form[action='/admin/servers']")
    shown = {field["name"]: field.get("value", "") for field in form.select("input")}
    shown |= {field["name"]: field.select_one("option[selected]")["value"] for field in form.select("select")}
    assert (shown["price"], shown["power_kw"], shown["setup"]) == ("303610.2", "10.2", "")
    assert admin.post("/admin/servers", data=shown | {"as_of": "2025-03-03", "note": "checked"}).status_code == 200
    assert catalogs(session).current().servers[KEY] == before


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("currency", "", "choose the currency the price is published in"),
        ("currency", "GBP", "choose the currency the price is published in"),
        ("power_kw", "-10.2", "must be above 0 kW"),
        ("gpus", "0", "must be a whole number from 1 to 1,024"),
        ("gpu", "GB200", "choose a GPU model of the catalog"),
        ("price", "0", "must be the price of one server, above 0"),
        ("price", "375,000", "must be a number"),
        ("setup", "-1", "must be a price of 0 or more"),
        ("power_source", "", "say where the power figure was read"),
        ("key", "DGX H100", "lower-case letters, digits"),
        ("source_kind", "", "say who published it"),
    ],
)
def test_a_bad_server_is_refused_under_its_field_and_saves_nothing(admin, session, field, value, message):
    before = versions(session)
    response = post(admin, **{field: value})
    assert response.status_code == 422 and message in html(response).select_one(f"#{field}-error").get_text()
    assert html(response).select_one("#name")["value"] == SERVER["name"]
    assert versions(session) == before and catalogs(session).current().servers == {}


def test_a_stale_edit_or_retirement_is_refused_naming_the_change_that_came_first(admin, session):
    """Two admins open the same server; the first reprices it, the second's price and retirement get a 409."""
    post(admin)
    page = f"/admin/servers?key={KEY}"
    stale = html(admin.get(page)).select_one("form[action='/admin/servers'] input[name=based_on]")["value"]
    assert post(admin, page, price="360000", note="repriced by alice").status_code == 303
    refused = post(admin, page, price="350000", based_on=stale)
    assert refused.status_code == 409 and "repriced by alice" in html(refused).select_one(".problem").get_text()
    assert html(refused).select_one("#price")["value"] == "350000"
    assert retire(admin, page, based_on=stale).status_code == 409
    assert catalogs(session).current().servers[KEY].price == 360000


def test_a_retirement_says_why(admin, session):
    post(admin)
    before = versions(session)
    refused = retire(admin, f"/admin/servers?key={KEY}", note="")
    assert refused.status_code == 422
    assert "say in a few words why" in html(refused).select_one("#retire_note-error").get_text()
    assert versions(session) == before


def test_the_servers_page_needs_a_signed_in_admin_and_its_forms_their_csrf_token(admin, session):
    before = versions(session)
    assert admin.post("/admin/servers", data=SERVER).status_code == 403
    assert admin.post("/admin/servers/retire", data={"key": KEY, "note": "gone"}).status_code == 403
    assert versions(session) == before and catalogs(session).current().servers == {}
    assert csrf(admin, "/admin/servers")
    assert html(admin.get("/admin/servers")).select_one("nav.admin a[href='/admin/servers']")
    admin.cookies.clear()
    assert admin.get("/admin/servers", follow_redirects=False).headers["location"].startswith("/admin/login")
