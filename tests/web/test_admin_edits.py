"""Every admin edit is a declared form model with one answer: 303 once saved, 422 with each message
under its field, 409 when the record changed since the form was opened; nothing typed is lost."""

import threading
from collections.abc import Callable
from decimal import Decimal
from typing import Annotated

import pytest
from fastapi.responses import Response
from fastapi.testclient import TestClient
from sqlmodel import Session, SQLModel, col, select

from app.admin.accounts import create_admin
from app.catalog.changes import new_version
from app.catalog.rate_changes import change_rate
from app.catalog.rates import exchange_rate
from app.catalog.snapshot import catalogs_for
from app.catalog.tables import ExchangeRate, OfferVersion
from app.deps import get_catalogs, get_db
from app.main import app
from app.platform.db import make_engine, session_factory
from app.web.admin.forms import FactEdit, answer, checked
from tests.factories import hand_checked_catalog
from tests.web.helpers import PASSWORD, html, signed_in_as, versions


class FrancEdit(FactEdit):
    """A fact the catalog does not ask for yet, declared as the next issues' data will be: the Swiss
    franc's rate, its fields keyed `chf_` on a page as the headquarters' are `hq_`."""

    prefix = "chf_"
    conflict = "Someone changed the franc's rate after you opened the page."
    usd_per_unit: Annotated[Decimal, checked(exchange_rate)]


FRANC = {"usd_per_unit": "1.1312", "source": "https://example.test/chf", "as_of": "2026-11-20",
         "source_kind": "official", "quote": "1 CHF = 1.1312 USD", "note": "franc added", "based_on": "0"}  # fmt: skip


def save_franc(session, franc: FrancEdit) -> str:
    change_rate(session, "CHF", franc.usd_per_unit, franc.provenance, franc.change("alice"))
    return "/admin/rates"


def franc_page(shown: list) -> Callable[[int, dict[str, str], dict[str, str]], Response]:
    """A page that keeps what it was asked to show."""

    def page(status: int, errors: dict[str, str], values: dict[str, str]) -> Response:
        shown.append((status, errors, values))
        return Response(status_code=status)

    return page


def test_a_new_fact_gets_its_form_by_declaring_a_model_and_is_saved_with_a_303(db, session):
    new_version(session, "an empty catalog")
    session.commit()
    saved = answer(FrancEdit, FRANC, db, save_franc, franc_page([]))
    assert (saved.status_code, saved.headers["location"]) == (303, "/admin/rates")
    rate = session.exec(select(ExchangeRate).where(ExchangeRate.currency == "CHF")).one()
    assert (rate.usd_per_unit, rate.quote, rate.source_kind) == (Decimal("1.1312"), "1 CHF = 1.1312 USD", "official")


def test_a_refused_fact_comes_back_with_every_message_under_its_key_and_every_value_as_typed(db, session):
    shown = []
    typed = FRANC | {"usd_per_unit": "-3", "as_of": "not a date", "source_kind": ""}
    assert answer(FrancEdit, typed, db, save_franc, franc_page(shown)).status_code == 422
    ((status, errors, values),) = shown
    assert errors == {
        "chf_usd_per_unit": "must be a price of 0 or more",
        "chf_as_of": "must be a date, YYYY-MM-DD",
        "chf_source_kind": "say who published it: the provider, a copy of its page, or a third party",
    }
    assert values["chf_usd_per_unit"] == "-3" and values["chf_as_of"] == "not a date"
    assert values["chf_quote"] == "1 CHF = 1.1312 USD" and values["chf_note"] == "franc added"
    assert session.exec(select(ExchangeRate)).all() == []


def test_a_fact_saved_from_a_stale_form_is_refused_with_a_409_keeping_what_was_typed(db, session):
    new_version(session, "an empty catalog")
    session.commit()
    assert answer(FrancEdit, FRANC, db, save_franc, franc_page([])).status_code == 303
    shown = []
    late = FRANC | {"usd_per_unit": "1.2000", "note": "opened before the first save"}
    assert answer(FrancEdit, late, db, save_franc, franc_page(shown)).status_code == 409
    ((_, errors, values),) = shown
    assert errors == {"conflict": "Someone changed the franc's rate after you opened the page."}
    assert values["chf_usd_per_unit"] == "1.2000" and values["chf_note"] == "opened before the first save"
    assert [r.usd_per_unit for r in session.exec(select(ExchangeRate))] == [Decimal("1.1312")]


def test_a_blank_field_reads_as_its_default_as_fastapi_reads_a_form(db, session):
    """`based_on` left blank is 0: the first rate of a currency, as a form opened before any."""
    new_version(session, "an empty catalog")
    session.commit()
    assert answer(FrancEdit, FRANC | {"based_on": ""}, db, save_franc, franc_page([])).status_code == 303


def offer_form(client, row_id):
    page = html(client.get(f"/admin/offers/{row_id}"))
    form = page.select_one(f"form[action='/admin/offers/{row_id}']")
    return {field["name"]: field.get("value", "") for field in form.select("input[name]")}


def test_two_admins_open_the_same_offer_and_the_later_save_is_refused_showing_the_first(signed_in, session):
    """Both open the on-demand offer at 2.50; alice saves 2.75 first, so bob's 3.10 is based on a
    version that is no longer current: refused (409) with alice's change shown and his kept."""
    create_admin(session, "bob", PASSWORD)
    bob = TestClient(app)
    signed_in_as(bob, session, "bob")
    alices, bobs = offer_form(signed_in, 1), offer_form(bob, 1)
    saved = signed_in.post(
        "/admin/offers/1", data=alices | {"price": "2.75", "note": "alice's change"}, follow_redirects=False
    )
    assert saved.status_code == 303
    before = versions(session)
    typed = {"price": "3.10", "source_url": "https://example.test/bob", "as_of": "2026-11-21", "note": "bob's"}
    refused = bob.post("/admin/offers/1", data=bobs | typed)
    assert refused.status_code == 409
    page = html(refused)
    shown = page.select_one(".problem").get_text()
    assert "2.75" in shown and "alice" in shown and "alice's change" in shown
    assert {name: page.select_one(f"#{name}")["value"] for name in typed} == typed, "bob's typing is kept"
    assert versions(session) == before, "nothing of bob's is saved"
    current = session.exec(
        select(OfferVersion).where(
            OfferVersion.key == session.get(OfferVersion, 1).key, col(OfferVersion.valid_to).is_(None)
        )
    ).one()
    assert current.price == Decimal("2.75")


@pytest.mark.parametrize("record", ["offer", "headquarters"])
def test_a_burst_of_saves_of_one_record_keeps_one_and_refuses_the_rest(database_url, record):
    """Six admins' saves from forms opened at the same version, sent at once: one lands (303), five
    are refused (409), and the catalog gains exactly one version."""
    engine = make_engine(database_url)
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        hand_checked_catalog(session)
        create_admin(session, "alice", PASSWORD)
    app.dependency_overrides[get_db] = lambda: session_factory(engine)
    app.dependency_overrides[get_catalogs] = lambda: catalogs_for(engine)
    try:
        statuses, added = _burst(engine, record)
    finally:
        app.dependency_overrides.clear()
        engine.dispose()
    assert sorted(statuses) == [303] + [409] * 5
    assert added == 1


def _burst(engine, record):
    with Session(engine) as session:
        first = TestClient(app)
        signed_in_as(first, session)
        before = versions(session)
    if record == "offer":
        path, form = "/admin/offers/1", offer_form(first, 1) | {"as_of": "2026-11-20", "note": "burst"}
    else:
        page = html(first.get("/admin/providers/1")).select_one("form[action$='/headquarters']")
        path = "/admin/providers/1/headquarters"
        form = {field["name"]: field.get("value", "") for field in page.select("input[name]")} | {
            "hq_source": "https://example.test/hq", "hq_as_of": "2026-11-20", "hq_source_kind": "official",
            "note": "burst",
        }  # fmt: skip
    ready = threading.Barrier(6)
    statuses = []

    def save(n: int) -> None:
        client = TestClient(app, cookies=first.cookies)
        ready.wait()
        changed = {"price": f"3.0{n}"} if record == "offer" else {"hq_country": ["DE", "FR", "NL", "SE", "FI", "IE"][n]}
        statuses.append(client.post(path, data=form | changed, follow_redirects=False).status_code)

    threads = [threading.Thread(target=save, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with Session(engine) as session:
        return statuses, versions(session) - before
