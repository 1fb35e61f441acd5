"""The most current offers one catalog version may hold (CATALOG_OFFERS_MAX): an import, a new or
restored offer and a loaded export are refused past it, a file far past it is read no further than
the line that crosses it, and a catalog past it already still quotes and takes new prices.

The hand-checked catalog holds 3 current offers; each test sets the bound just around that."""

from datetime import date
from decimal import Decimal
from urllib.parse import urlencode

import pytest
from sqlmodel import Session, col, func, select

from app.admin.accounts import create_admin
from app.catalog.changes import change_offer_price, retire_offer
from app.catalog.exports import export_catalog, export_offers_csv
from app.catalog.imports import apply_import, load_catalog, plan_import
from app.catalog.plans import CatalogFull, current_offer_count
from app.catalog.snapshot import catalogs_for
from app.catalog.tables import CatalogVersion, OfferVersion, PendingImport
from app.platform.settings import settings
from tests.factories import hand_checked_catalog
from tests.web.helpers import NEW_OFFER, PASSWORD, csrf, html, import_file, signed_in_as

THREE_NEW = """InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,GpuInfo
gpu_1x_h100,H100,1,26,200,2.49,,us-east-1,
gpu_8x_h100,H100,8,208,1800,23.92,10.00,us-east-1,
"""
"""Three new offers: line 2 on demand, line 3 on demand and spot."""
BAD_LINE_AFTER = "gpu_2x_h100,H100,two,52,400,4.98,,us-east-1,\n"
SKYPILOT = {"provider": "cloud", "tenancy": "virtualized", "source_url": "https://example.test/vms.csv"}


@pytest.fixture
def bound(monkeypatch):
    """Sets CATALOG_OFFERS_MAX for the test."""

    def set_to(offers: int) -> None:
        monkeypatch.setattr(settings, "catalog_offers_max", offers)

    return set_to


@pytest.fixture
def signed_in(client, session):
    """Alice signed in on the hand-checked catalog."""
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    return client


def planned(session, text):
    return plan_import(session, text, 1, "cloud", "virtualized", "https://example.test/vms.csv", date(2026, 11, 25))


def past(bound: int, what: str, remedy: str, read_up_to: str = "") -> str:
    read = f"; it was read up to {read_up_to}" if read_up_to else ""
    return (
        f"{what} would bring the catalog past {bound} current offers, the most one catalog version may hold "
        f"(CATALOG_OFFERS_MAX){read}: {remedy}"
    )


def test_an_import_past_the_bound_is_one_problem_at_the_line_where_reading_stopped(session, bound):
    """Bound 5: 3 offers, line 2 brings a 4th, line 3 a 5th (on demand) and a 6th (spot): refused
    there. Line 4, malformed, is never read, so not reported."""
    hand_checked_catalog(session)
    bound(5)
    plan = planned(session, THREE_NEW + BAD_LINE_AFTER)
    assert plan.problems == [(3, past(5, "this file", "import fewer rows, or retire offers first", "line 3"))]
    assert (plan.rows, [(r.product, r.billing) for r in plan.add]) == (
        2,
        [("gpu_1x_h100", "on_demand"), ("gpu_8x_h100", "on_demand")],
    )
    assert not plan.applicable


def test_an_import_that_brings_the_catalog_exactly_to_the_bound_applies(session, bound):
    """Bound 6: 3 offers and 3 new ones."""
    hand_checked_catalog(session)
    bound(6)
    plan = planned(session, THREE_NEW)
    assert (plan.problems, len(plan.add), plan.applicable) == ([], 3, True)
    apply_import(session, plan, "three new", "alice")
    assert current_offer_count(session) == 6


def test_a_catalog_past_the_bound_still_takes_new_prices_for_its_offers(session, bound):
    """Bound 2 under a catalog of 3 (made before the bound): a price change adds no offer."""
    hand_checked_catalog(session)
    bound(2)
    raised = export_offers_csv(session, 1).replace(",2.5,USD,hour,", ",2.75,USD,hour,")
    plan = plan_import(session, raised, 1)
    assert (plan.problems, [r.price for _, r in plan.change], plan.applicable) == ([], [Decimal("2.75")], True)


def test_a_catalog_past_the_bound_still_quotes(client, session, bound):
    hand_checked_catalog(session)
    bound(2)
    assert client.get("/api/quote?gpu=H100&gpu_hours=100").status_code == 200


def test_an_upload_past_the_bound_answers_422_with_the_message_and_keeps_no_pending_import(signed_in, session, bound):
    bound(5)
    page = import_file(signed_in, THREE_NEW + BAD_LINE_AFTER, as_of="2026-11-25", **SKYPILOT)
    assert page.status_code == 422
    problems = [row.get_text("|", strip=True) for row in html(page).select(".problem tbody tr")]
    assert problems == ["3|" + past(5, "this file", "import fewer rows, or retire offers first", "line 3")]
    assert not html(page).select("form[action$='/apply']")
    assert session.exec(select(func.count()).select_from(PendingImport)).one() == 0


def test_a_new_offer_past_the_bound_is_refused_with_the_message_over_the_form(signed_in, session, bound):
    """Bound 3: the catalog is full; at 4 the same offer is added."""
    bound(3)
    refused = signed_in.post("/admin/new-offer", data=NEW_OFFER | {"csrf_token": csrf(signed_in, "/admin/new-offer")})
    assert refused.status_code == 422
    message = "Not added: " + past(3, "this offer", "retire offers first") + "."
    assert html(refused).select_one(".problem").get_text() == message
    assert html(refused).select_one("#product")["value"] == "new", "the form comes back as typed"
    assert current_offer_count(session) == 3
    bound(4)
    token = csrf(signed_in, "/admin/new-offer")
    added = signed_in.post("/admin/new-offer", data=NEW_OFFER | {"csrf_token": token}, follow_redirects=False)
    assert added.status_code == 303 and current_offer_count(session) == 4


def test_restoring_a_retired_offer_into_a_full_catalog_is_refused_on_its_history_page(signed_in, session, bound):
    """Offer 3 retired leaves 2 current; at bound 2 bringing it back would make 3."""
    retire_offer(session, 3, "gone")
    bound(2)
    key = session.get(OfferVersion, 3).key
    refused = signed_in.post("/admin/offers/3/restore", data={"csrf_token": csrf(signed_in)})
    assert refused.status_code == 422
    page = html(refused)
    assert (
        page.select_one(".problem").get_text() == "Not restored: " + past(2, "this offer", "retire offers first") + "."
    )
    assert page.select_one("h1").get_text() == f"History of {key}"
    assert current_offer_count(session) == 2
    assert session.exec(select(func.count()).select_from(CatalogVersion)).one() == 2, "no version made"


def test_restoring_an_earlier_price_of_a_current_offer_is_no_addition(signed_in, session, bound):
    """At bound 3 with 3 current offers: the restore closes the current row as it opens the old one."""
    change_offer_price(session, 1, Decimal("2.75"), "https://example.test/p", date(2026, 11, 20), "new price")
    bound(3)
    restored = signed_in.post("/admin/offers/1/restore", data={"csrf_token": csrf(signed_in)}, follow_redirects=False)
    key = session.get(OfferVersion, 1).key
    assert (restored.status_code, restored.headers["location"]) == (303, "/admin/history?" + urlencode({"key": key}))
    prices = session.exec(
        select(OfferVersion.price).where(OfferVersion.key == key, col(OfferVersion.valid_to).is_(None))
    )
    assert (prices.all(), current_offer_count(session)) == ([Decimal("2.50")], 3)


def test_an_export_of_more_offers_than_the_bound_is_not_loaded(session, new_database, bound):
    """3 offers in the export: refused at bound 2, loaded at 3."""
    hand_checked_catalog(session)
    exported = export_catalog(session, 1)
    bound(2)
    remedy = "load an export of fewer offers, or raise CATALOG_OFFERS_MAX"
    with Session(new_database()) as other:
        with pytest.raises(CatalogFull) as refused:
            load_catalog(other, exported)
        assert str(refused.value) == past(2, "this export", remedy)
        assert other.exec(select(func.count()).select_from(CatalogVersion)).one() == 0
        bound(3)
        assert load_catalog(other, exported) == 1 and current_offer_count(other) == 3


def test_the_version_an_import_makes_is_read_by_its_apply_not_by_the_first_quote_after_it(signed_in, session):
    """At the bound, reading the new version took the first quote after an import 1.5 to 3.5 s."""
    preview = html(import_file(signed_in, THREE_NEW, as_of="2026-11-25", **SKYPILOT))
    token = preview.select_one("input[name=csrf_token]")["value"]
    applied = signed_in.post(preview.select_one("form[action$='/apply']")["action"], data={"csrf_token": token})
    assert applied.status_code == 200, "303 to the audit log, followed"
    assert catalogs_for(session.get_bind())._snapshots.get(2) is not None


def test_a_file_of_more_rows_than_the_bound_is_refused_before_any_row_is_read(session, bound):
    """Bound 2 under a catalog of 3: four rows name four offers, at least one new, which would bring it
    to 4 at least; so not one row is read (line 5, malformed, is not reported)."""
    hand_checked_catalog(session)
    bound(2)
    plan = planned(session, THREE_NEW + "gpu_4x_h100,H100,4,104,800,9.96,,us-east-1,\n" + BAD_LINE_AFTER)
    expected = (
        "the file has 4 rows, more offers than one catalog version may hold (2, CATALOG_OFFERS_MAX): import fewer rows"
    )
    assert (plan.problems, plan.rows, plan.add, plan.change) == ([(1, expected)], 0, [], [])
