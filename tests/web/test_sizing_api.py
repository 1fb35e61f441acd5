"""GET /api/size: the memory need term by term and the fit of every GPU model, worked by hand."""

import pytest

from tests.factories import hand_checked_catalog, make_gpu, make_offer, make_provider

LLAMA_70B_TYPED = "parameters_b=70&layers=80&hidden_size=8192&kv_heads=8&head_dim=128&context=8192"


@pytest.fixture
def catalog(session):
    """The hand-checked catalog (H100, 80 GiB, offered one GPU at a time) and an 8-GPU H200 node."""
    hand_checked_catalog(session)
    make_gpu(session, "H200", 141)
    make_offer(session, make_provider(session, "nodes"), "50", gpu="H200", gpus_per_unit=8)


def test_a_typed_70b_model_needs_157_gb_for_8k_inference_and_fits_2_h200(client, catalog):
    """140 GB weights + 2.684 GB KV cache + 10% = 156.95 GB: 2 H200 (one 8-GPU node holds them);
    3 H100, served on 4, but no offered H100 unit has more than 1 GPU."""
    body = client.get(f"/api/size?{LLAMA_70B_TYPED}").json()
    assert body["need_gb"] == 156.95 and body["checkpoint_gb"] == 140.0
    assert [(t["name"], t["gb"]) for t in body["terms"]] == [
        ("weights", 140.0), ("KV cache", 2.684), ("runtime overhead", 14.268)
    ]  # fmt: skip
    fits = {f["gpu"]: f for f in body["fits"]}
    assert (fits["H200"]["gpus"], fits["H200"]["fits_a_unit"], fits["H200"]["memory_used_pct"]) == (2, True, 51.8)
    assert (fits["H100"]["gpus"], fits["H100"]["tensor_parallel"], fits["H100"]["fits_a_unit"]) == (3, 4, False)
    assert body["fits"][0]["gpu"] == "H200", "GPUs that fit an offered unit come first"


def test_the_formulas_are_given_with_the_numbers(client, catalog):
    terms = {t["name"]: t["formula"] for t in client.get(f"/api/size?{LLAMA_70B_TYPED}").json()["terms"]}
    assert terms["KV cache"] == (
        "2 x 80 layers x 8 KV heads x 128 head dimension x 2 bytes (bf16) x 8,192 tokens x 1 sequence"
    )


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("preset=no-such-model", "preset", "is not a model preset in the catalog"),
        ("layers=80", "parameters_b", "choose a preset or give this number"),
        (LLAMA_70B_TYPED.replace("parameters_b=70", "parameters_b=0"), "parameters_b", "greater than 0"),
        (LLAMA_70B_TYPED + "&mode=full&weights=int4", "weights", "full training keeps FP32 or BF16 weights"),
        (LLAMA_70B_TYPED + "&sequences=-1", "sequences", "greater than or equal to 1"),
    ],
    ids=["unknown preset", "no model", "zero parameters", "training in int4", "negative batch"],
)
def test_bad_sizing_input_is_refused_naming_the_field(client, catalog, query, field, message):
    response = client.get(f"/api/size?{query}")
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert any(d["loc"][-1] == field and message in d["msg"] for d in detail), detail


def test_a_preset_sizes_like_its_numbers_typed_in(client, catalog, session):
    """The shipped Llama 3.1 70B preset at 8k context gives the typed model's 156.95 GB; without a
    context it takes the preset's 131,072 tokens: 327,680 x 131,072 = 42.95 GB of cache."""
    from app.catalog.changes import new_version
    from app.catalog.updates import model_presets_2026_11

    model_presets_2026_11(session, new_version(session, "presets"))
    session.commit()
    typed = client.get(f"/api/size?{LLAMA_70B_TYPED}&catalog_version=1").json()
    preset = client.get("/api/size?preset=llama-3.1-70b&context=8192").json()
    assert preset["need_gb"] == typed["need_gb"] == 156.95
    assert preset["preset"]["source"] == "https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json"
    long = client.get("/api/size?preset=llama-3.1-70b").json()
    assert long["context"] == 131_072
    assert {t["name"]: t["gb"] for t in long["terms"]}["KV cache"] == 42.95
