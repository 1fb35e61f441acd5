"""No formula reaches a spreadsheet from this app's CSVs. PostgreSQL drops a NUL on write, so a
cell "\\x00=HYPERLINK(...)" would pass a check for a leading = and be stored as a formula: text with
a control character is refused where it comes in, on both backends, and every CSV written keeps a
text that starts like a formula as text."""

import csv
import io

import pytest
from sqlmodel import select

from app.catalog.tables import OfferVersion, PendingImport, Provider
from tests.web.helpers import NEW_OFFER, csrf, edited_export, html, import_file, versions

FORMULA = '=HYPERLINK("http://evil.example","x")'
SMUGGLED = "\x00" + FORMULA
REFUSED = "may not hold control characters such as NUL"


def every_csv(client):
    """The body of each CSV the app writes from the catalog and a saved scenario."""
    saved = client.post("/api/scenarios", json={"params": {"gpu_hours": 400}}).json()["slug"]
    explorer = "/offers.csv?cols=provider&cols=product&cols=region&cols=source"
    paths = ["/api/offers.csv", "/admin/api/export.csv", explorer, f"/s/{saved}.csv"]
    return {path: client.get(path).text for path in paths}


def cells_naming(body, word="HYPERLINK"):
    return [cell for row in csv.reader(io.StringIO(body)) for cell in row if word in cell]


def problems(page):
    return [tuple(td.get_text() for td in tr.select("td")) for tr in page.select(".problem tbody tr")]


def test_a_smuggled_formula_in_an_exported_file_is_refused_naming_its_line(signed_in, session):
    """Our own export with the first offer's notes set to NUL and a formula."""
    response = import_file(signed_in, edited_export(signed_in, {"notes": SMUGGLED}))
    assert response.status_code == 422
    assert problems(html(response)) == [("2", f"notes {REFUSED}")]
    assert session.exec(select(PendingImport)).all() == []
    assert all(cells_naming(body) == [] for body in every_csv(signed_in).values())


def test_a_smuggled_formula_in_a_skypilot_file_is_refused_naming_its_line(signed_in, session):
    out = io.StringIO()
    csv.writer(out).writerows(
        [["InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "SpotPrice", "Region"],
         [SMUGGLED, "H100", "1", "2.49", "", "r1"]]
    )  # fmt: skip
    fields = {"provider": "cloud", "source_url": "https://example.test/vms.csv", "as_of": "2026-11-25"}
    response = import_file(signed_in, out.getvalue(), **fields)
    assert response.status_code == 422
    assert problems(html(response)) == [("2", f"InstanceType {REFUSED}")]
    assert session.exec(select(PendingImport)).all() == []


@pytest.mark.parametrize(
    ("path", "form", "field"),
    [
        ("/admin/new-offer", NEW_OFFER | {"product": SMUGGLED}, "product"),
        ("/admin/new-offer", NEW_OFFER | {"region": SMUGGLED}, "region"),
        ("/admin/new-offer", NEW_OFFER | {"note": "new\x00"}, "note"),
        ("/admin/providers", {"slug": "acme", "name": SMUGGLED}, "name"),
        (
            "/admin/offers/1",
            {"price": "2.75", "source_url": "https://example.test/\x00x", "as_of": "2026-11-20", "note": "up"},
            "source_url",
        ),  # fmt: skip
    ],
)
def test_a_control_character_typed_in_an_admin_form_is_refused_under_its_field(signed_in, session, path, form, field):
    before = versions(session)
    response = signed_in.post(path, data={"csrf_token": csrf(signed_in, "/admin/providers"), **form})
    assert response.status_code == 422
    assert html(response).select_one(f"#{field}-error").get_text() == REFUSED
    assert versions(session) == before


def test_a_control_character_in_a_provider_fact_is_refused_under_its_field(signed_in, session):
    cloud = session.exec(select(Provider).where(Provider.slug == "cloud")).one().id
    form = html(signed_in.get(f"/admin/providers/{cloud}"))
    based_on = form.select_one("form[action$='/storage'] input[name=based_on]")["value"]
    data = {"csrf_token": csrf(signed_in, "/admin/providers"), "based_on": based_on,
            "kind": "block_volume", "currency": "USD", "product": f"disk\x1b{FORMULA}", "tiers": "0,,0.02",
            "source": "https://example.test/s", "as_of": "2026-11-20", "source_kind": "official",
            "note": "new disk"}  # fmt: skip
    response = signed_in.post(f"/admin/providers/{cloud}/storage", data=data)
    assert response.status_code == 422
    assert html(response).select_one("#storage_product-error").get_text() == REFUSED


def test_a_formula_stored_before_these_checks_is_inert_text_in_every_csv(signed_in, session):
    """A provider's name and an offer's product and notes written straight to the database, as a
    path without the checks would: PostgreSQL keeps the formula without its NUL, SQLite keeps both,
    and every CSV shows the same text behind a quote."""
    cloud = session.exec(select(Provider).where(Provider.slug == "cloud")).one()
    cloud.name = SMUGGLED
    offer = session.exec(select(OfferVersion).where(OfferVersion.provider_id == cloud.id)).one()
    offer.product, offer.notes = f"\r{FORMULA}", f"\t{FORMULA}"
    session.add_all([cloud, offer])
    session.commit()
    for path, body in every_csv(signed_in).items():
        assert cells_naming(body), path
        assert {cell.lstrip("'\t\r") for cell in cells_naming(body)} == {FORMULA}, path
        assert all(cell.startswith("'") for cell in cells_naming(body)), path


@pytest.mark.parametrize(
    "path", ["/admin/offers/1/retire", "/admin/providers/1/retire", "/admin/gpus/1/retire", "/admin/import/1/apply"]
)
def test_a_control_character_in_a_note_left_to_its_default_is_refused(signed_in, session, path):
    before = versions(session)
    response = signed_in.post(path, data={"csrf_token": csrf(signed_in), "note": "gone\x00"}, follow_redirects=False)
    assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", "note"]
    assert versions(session) == before
