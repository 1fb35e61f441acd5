"""Admins add and change model presets as new catalog versions; a saved scenario keeps the one it
was sized with."""

import pytest

from tests.web.helpers import PRESET, csrf, html, versions


@pytest.fixture
def admin(signed_in_with_presets):
    return signed_in_with_presets


def post(client, **changes):
    form = html(client.get("/admin/presets?key=llama-3.1-70b")).select_one("form[action='/admin/presets']")
    data = PRESET | {"csrf_token": form.select_one("input[name=csrf_token]")["value"],
                     "based_on": form.select_one("input[name=based_on]")["value"]} | changes  # fmt: skip
    return client.post("/admin/presets", data=data, follow_redirects=False)


def test_changing_a_preset_resizes_from_a_new_version_and_keeps_the_old_one(admin, session):
    """70 -> 70.6 billion parameters: weights 141.2 GB instead of 140 at BF16."""
    assert post(admin).status_code == 303
    weights = {t["name"]: t["gb"] for t in admin.get("/api/size?preset=llama-3.1-70b").json()["terms"]}["weights"]
    assert weights == 141.2
    before = admin.get("/api/size?preset=llama-3.1-70b&catalog_version=2").json()
    assert {t["name"]: t["gb"] for t in before["terms"]}["weights"] == 140.0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("key", "Llama 70B", "lower-case letters, digits, dots and dashes, 60 at most"),
        ("parameters_b", "0", "must be between 0.001 and 100,000 billion"),
        ("kv_heads", "0", "must be a whole number from 1 to 10,000"),
        ("source_kind", "", "say who published it"),
    ],
)
def test_a_bad_preset_is_refused_under_its_field_and_saves_nothing(admin, session, field, value, message):
    before = versions(session)
    response = post(admin, **{field: value})
    assert response.status_code == 422 and message in html(response).select_one(f"#{field}-error").get_text()
    assert versions(session) == before


def test_a_preset_form_needs_its_csrf_token(admin):
    assert admin.post("/admin/presets", data=PRESET).status_code == 403
    assert csrf(admin, "/admin/presets")
