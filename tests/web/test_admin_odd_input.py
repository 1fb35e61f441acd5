"""Input that once answered 500 is refused under its field or line (422), or read as meant."""

import pytest
from sqlmodel import select

from app.catalog.tables import Provider
from tests.web.helpers import NEW_OFFER, PRESET, csrf, edited_export, html, import_file, versions

HUGE = "9" * 400
"""Past 308 digits a float is infinite: int(float(...)) raised OverflowError, a 500."""


@pytest.mark.parametrize(
    ("path", "form", "field"),
    [
        ("/admin/gpus", {"name": "X1", "memory_gib": HUGE}, "memory_gib"),
        *(("/admin/new-offer", NEW_OFFER | {field: HUGE}, field) for field in ("gpus_per_unit", "vcpus")),
        ("/admin/new-offer", NEW_OFFER | {"min_commitment_months": HUGE}, "min_commitment_months"),
        *(("/admin/presets", PRESET | {field: HUGE}, field) for field in ("layers", "hidden_size", "default_context")),
        *(("/admin/presets", PRESET | {field: HUGE}, field) for field in ("attention_heads", "kv_heads", "head_dim")),
    ],
)
def test_a_whole_number_of_400_digits_is_refused_under_its_field(signed_in_with_presets, session, path, form, field):
    before = versions(session)
    response = signed_in_with_presets.post(
        path, data={"csrf_token": csrf(signed_in_with_presets, "/admin/gpus"), **form}
    )
    assert response.status_code == 422
    assert html(response).select_one(f"#{field}-error").get_text().startswith("must be a whole number from")
    assert versions(session) == before


def summary(page):
    return " ".join(page.select_one("h1 + p").get_text().split())


def problems(page):
    return [tuple(td.get_text() for td in tr.select("td")) for tr in page.select(".problem tbody tr")]


def test_a_file_with_carriage_return_line_endings_is_read_as_the_same_rows(signed_in_with_presets):
    """As spreadsheets on old Macs save CSV: each line ended by CR alone. The first offer's price
    changes 2.5 -> 2.75, and its notes hold a line break inside quotes, which stays one field."""
    edited = edited_export(signed_in_with_presets, {"price": "2.75", "notes": "two\rlines"}, lineterminator="\r")
    response = import_file(signed_in_with_presets, edited)
    page = html(response)
    assert response.status_code == 200 and problems(page) == []
    assert summary(page) == "3 rows read: 0 offers to add, 1 to change, 2 unchanged, 0 with a problem."


def test_an_unreadable_header_is_refused_naming_line_1(signed_in_with_presets):
    response = import_file(signed_in_with_presets, "key," + "x" * 200_000 + "\n")
    assert response.status_code == 422
    assert problems(html(response)) == [("1", "unreadable CSV: field larger than field limit (131072)")]


def test_a_count_of_400_digits_in_an_imported_row_is_refused_naming_its_line(signed_in_with_presets):
    response = import_file(signed_in_with_presets, edited_export(signed_in_with_presets, {"vcpus": HUGE}))
    assert response.status_code == 422
    assert problems(html(response)) == [("2", "vcpus must be a whole number from 1 to 100,000")]


@pytest.mark.parametrize(
    ("tiers", "message"),
    [
        (f"0,{HUGE},0\n{HUGE},,0.1", "line 1: GB must be at most 10,000,000,000, with 9 decimal places at most"),
        ("0,100,0\n100,," + "9" * 30, "line 2: the price must be at most 10,000,000, with 8 decimal places at most"),
        ("0,,0.000000001", "line 1: the price must be at most 10,000,000, with 8 decimal places at most"),
    ],
)
@pytest.mark.parametrize("form", ["egress", "storage"])
def test_a_tier_the_database_would_not_keep_as_typed_is_refused_naming_its_line(
    signed_in_with_presets, session, form, tiers, message
):
    """PostgreSQL refused more digits than a tier's column holds (a 500) and rounded more decimals
    (SQLite kept them): both refused alike."""
    cloud = session.exec(select(Provider).where(Provider.slug == "cloud")).one().id
    page = html(signed_in_with_presets.get(f"/admin/providers/{cloud}"))
    based_on = page.select_one(f"form[action$='/{form}'] input[name=based_on]")["value"]
    data = {"csrf_token": csrf(signed_in_with_presets, "/admin/providers"), "based_on": based_on, "tiers": tiers,
            "kind": "block_volume", "currency": "USD", "product": "disk", "source": "https://example.test/s",
            "as_of": "2026-11-20", "source_kind": "official", "note": "new tiers"}  # fmt: skip
    before = versions(session)
    response = signed_in_with_presets.post(f"/admin/providers/{cloud}/{form}", data=data)
    assert response.status_code == 422
    field = "tiers" if form == "egress" else "storage_tiers"
    assert html(response).select_one(f"#{field}-error").get_text() == message
    assert versions(session) == before
