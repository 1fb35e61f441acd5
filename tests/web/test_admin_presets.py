"""Admins add and change model presets as new catalog versions; a saved scenario keeps the one it
was sized with."""

import pytest

from tests.web.helpers import PRESET, csrf, html, versions

DEEPSEEK_R1 = PRESET | {"key": "deepseek-r1", "name": "DeepSeek-R1", "parameters_b": "671", "active_parameters_b": "37",
                        "parameters_source": "https://github.com/deepseek-ai/DeepSeek-R1", "layers": "61",
                        "hidden_size": "7168", "attention_heads": "128", "kv_heads": "128", "head_dim": "128",
                        "kv_latent": "576", "default_context": "163840",
                        "source": "https://huggingface.co/deepseek-ai/DeepSeek-R1/blob/main/config.json"}  # fmt: skip
"""DeepSeek-R1 as its config states it: a latent of kv_lora_rank 512 + qk_rope_head_dim 64 = 576 values."""


@pytest.fixture
def admin(signed_in_with_presets):
    return signed_in_with_presets


def post(client, page="/admin/presets?key=llama-3.1-70b", fields=PRESET, **changes):
    """The preset form of `page` as opened, filled in with `fields` and `changes`."""
    form = html(client.get(page)).select_one("form[action='/admin/presets']")
    data = fields | {"csrf_token": form.select_one("input[name=csrf_token]")["value"],
                     "based_on": form.select_one("input[name=based_on]")["value"]} | changes  # fmt: skip
    return client.post("/admin/presets", data=data, follow_redirects=False)


def kv_cache(client, preset):
    """The KV cache term /api/size works out for `preset` at its own context."""
    return next(t for t in client.get(f"/api/size?preset={preset}").json()["terms"] if t["name"] == "KV cache")


def latent_shown(page):
    """The KV latent column of DeepSeek-R1's row in the presets table."""
    row = page.select_one("a[href='/admin/presets?key=deepseek-r1']").find_parent("tr")
    return row.select("td")[6].get_text()


def test_changing_a_preset_resizes_from_a_new_version_and_keeps_the_old_one(admin, session):
    """70 -> 70.6 billion parameters: weights 141.2 GB instead of 140 at BF16."""
    assert post(admin).status_code == 303
    weights = {t["name"]: t["gb"] for t in admin.get("/api/size?preset=llama-3.1-70b").json()["terms"]}["weights"]
    assert weights == 141.2
    before = admin.get("/api/size?preset=llama-3.1-70b&catalog_version=2").json()
    assert {t["name"]: t["gb"] for t in before["terms"]}["weights"] == 140.0


def test_a_latent_typed_in_the_form_sizes_the_cache_and_empty_means_none(admin, session):
    """DeepSeek-R1 added with a latent of 576: 61 layers x 576 values x 2 bytes = 70,272 bytes a token,
    x its 163,840 tokens of context = 11.513 GB. Saved again with the latent empty, the cache is
    2 x 61 x 128 KV heads x 128 x 2 = 3,997,696 bytes a token: 654.983 GB."""
    assert post(admin, "/admin/presets", DEEPSEEK_R1).status_code == 303
    latent = kv_cache(admin, "deepseek-r1")
    assert latent["formula"].startswith("61 layers x 576 latent values x 2 bytes (bf16) x 163,840 tokens")
    assert latent["gb"] == 11.513
    page = html(admin.get("/admin/presets?key=deepseek-r1"))
    assert page.select_one("#kv_latent")["value"] == "576"
    assert latent_shown(page) == "576"
    assert post(admin, "/admin/presets?key=deepseek-r1", DEEPSEEK_R1, kv_latent="").status_code == 303
    heads = kv_cache(admin, "deepseek-r1")
    assert heads["formula"].startswith("2 x 61 layers x 128 KV heads x 128 head dimension x 2 bytes (bf16)")
    assert heads["gb"] == 654.983
    assert latent_shown(html(admin.get("/admin/presets"))) == "—"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("key", "Llama 70B", "lower-case letters, digits, dots and dashes, 60 at most"),
        ("parameters_b", "0", "must be between 0.001 and 100,000 billion"),
        ("kv_heads", "0", "must be a whole number from 1 to 10,000"),
        ("kv_latent", "0", "must be a whole number from 1 to 100,000"),
        ("kv_latent", "576.5", "must be a whole number from 1 to 100,000"),
        ("kv_latent", "100001", "must be a whole number from 1 to 100,000"),
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
