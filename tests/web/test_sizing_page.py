"""The sizing panel: a preset fills the GPUs used at once and the checkpoint in one step, and the
page says in a sentence what the model needs and which GPUs hold it."""

import pytest

from app.catalog.changes import new_version
from app.catalog.updates import model_presets_2026_11
from tests.factories import hand_checked_catalog, make_gpu, make_offer, make_provider
from tests.web.helpers import soup

H200_400H = "gpu=H200&gpu_hours=400&checkpoints_out=1&virt_tax=0&invocations=0"


@pytest.fixture
def catalog(session):
    """Hand-checked offers, an 8-GPU H200 node at 50.00 an hour (6.25 per GPU-hour), the presets."""
    hand_checked_catalog(session)
    make_gpu(session, "H200", 141)
    make_offer(session, make_provider(session, "nodes"), "50", gpu="H200", gpus_per_unit=8)
    model_presets_2026_11(session, new_version(session, "presets"))
    session.commit()


def test_a_preset_sizes_the_workload_and_says_which_gpus_hold_it(client, catalog):
    """Llama 3.1 70B, BF16, inference at 8,192 tokens: 156.95 GB -> 2 x H200 at once. The 8-GPU node
    is rented whole: 400 GPU-hours x 6.25 x ceil(2 / 8) x 8 / 2 = 10,000 USD (200 hours x 50.00)."""
    page = soup(client.get(f"/?{H200_400H}&preset=llama-3.1-70b&context=8192"))
    sentence = " ".join(page.select_one(".sizing-result .sentence").get_text().split())
    assert sentence.startswith("Llama 3.1 70B in BF16 for inference at 8,192 tokens needs about 157.0 GB: 2 x H200")
    assert "This quote uses 2 x H200 at once and a 140 GB checkpoint." in sentence
    row = page.select_one('tr[data-option="virtualized-on_demand"]')
    assert row.select("td.num")[0].get_text() == "$10,000.00"
    assert "uses 2 of 8 GPUs" in row.get_text()


def test_the_fit_table_names_gpus_no_offered_unit_holds(client, catalog):
    page = soup(client.get(f"/?{H200_400H}&preset=llama-3.1-70b&context=8192"))
    h100 = next(tr for tr in page.select("table.fits tr") if tr.th and tr.th.get_text() == "H100")
    assert [td.get_text() for td in h100.select("td")] == [
        "80 GiB",
        "3",
        "4",
        "45.7%",
        "no offered unit holds 4 (largest 1)",
    ]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("preset=no-such-model", "preset", "is not a model preset in the catalog"),
        ("parameters_b=0", "parameters_b", "must be greater than 0"),
        ("parameters_b=70", "layers", "choose a preset or give this number"),
    ],
)
def test_bad_sizing_input_is_shown_under_its_field_and_the_rest_is_kept(client, catalog, query, field, message):
    page = soup(client.get(f"/?{H200_400H}&{query}"))
    assert message in page.select_one(f"#{field}-error").get_text()
    assert page.select_one("#gpu_hours")["value"] == "400"


@pytest.fixture
def a100_too(session, catalog):
    """An 8-GPU A100-80GB instance at 20.00 an hour: 2.50 per GPU-hour."""
    make_gpu(session, "A100-80GB", 80)
    make_offer(session, make_provider(session, "a100s"), "20", gpu="A100-80GB", gpus_per_unit=8)


ANY_70B = "gpu=any&gpu_hours=400&checkpoints_out=1&virt_tax=0&invocations=0&preset=llama-3.1-70b&context=8192"


def test_any_gpu_that_fits_ranks_every_gpu_model_at_its_fit(client, a100_too):
    """Llama 3.1 70B at 8k needs 3 x 80 GiB, served tensor-parallel on 4, or 2 x H200. 4 A100-80GB on
    the 8-GPU instance: 400 x 2.50 x ceil(4/8) x 8/4 = 2,000.00; 2 H200 on the 8-GPU node: 400 x 6.25
    x 8/2 = 10,000.00. H100 comes in units of 1 only, so it is not among them."""
    page = soup(client.get(f"/?{ANY_70B}"))
    rows = [[c.get_text(" ", strip=True) for c in tr.select("th, td")] for tr in page.select("table.any-gpu tbody tr")]
    assert [(r[0], r[3]) for r in rows] == [("4 x A100-80GB", "$2,000.00 *"), ("2 x H200", "$10,000.00 *")]
    assert "any GPU that fits, 4 x A100-80GB at once" in " ".join(page.select_one(".headline").get_text().split())
    body = client.get(f"/api/quote?{ANY_70B}").json()
    assert [(o["gpu"], o["gpus"], o["option"]["total"]) for o in body["any_gpu"]] == [
        ("A100-80GB", 4, 2000.0), ("H200", 2, 10000.0)
    ]  # fmt: skip
    assert body["sizing"]["need_gb"] == 156.95


def test_a_saved_any_gpu_scenario_stays_any_gpu(client, a100_too):
    page = soup(client.get(f"/?{ANY_70B}"))
    form = {"csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
            "inputs": page.select_one("input[form=save-form][name=inputs]")["value"]}  # fmt: skip
    link = client.post("/s", data=form, follow_redirects=False).headers["location"]
    saved = soup(client.get(link))
    assert saved.select_one("#gpu option[selected]")["value"] == "any"
    assert saved.select_one("table.any-gpu tbody tr th").get_text() == "4 x A100-80GB"


def test_any_gpu_without_a_model_asks_for_one(client, catalog):
    page = soup(client.get("/?gpu=any"))
    assert page.select_one("#gpu-error").get_text() == (
        "any GPU that fits needs a model: choose a preset or give a parameter count"
    )


def test_a_model_no_offered_unit_holds_says_so_and_keeps_the_page(client, a100_too):
    """100,000 billion parameters at BF16 = 200,000 GB: no 8-GPU unit of any model holds it."""
    page = soup(client.get(f"/?{ANY_70B}&parameters_b=100000"))
    assert page.select_one("#gpu-error").get_text() == (
        "no offered instance or node of any GPU model in the catalog holds this model: choose another GPU or model"
    )
    assert page.select_one("#gpu_hours")["value"] == "400"


def test_an_unknown_precision_names_the_ones_there_are(client, catalog):
    page = soup(client.get(f"/?{H200_400H}&preset=llama-3.1-70b&weights=int8"))
    assert page.select_one("#weights-error").get_text() == "must be one of 'fp32', 'bf16', 'fp8', 'int4' or 'fp4'"


def test_an_exported_any_gpu_scenario_stays_any_gpu(client, a100_too):
    page = soup(client.get(f"/?{ANY_70B}"))
    form = {"csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
            "inputs": page.select_one("input[form=save-form][name=inputs]")["value"]}  # fmt: skip
    slug = client.post("/s", data=form, follow_redirects=False).headers["location"].removeprefix("/s/")
    exported = client.get(f"/s/{slug}.json").json()
    assert exported["params"]["gpu"] == "any" and exported["params"]["preset"] == "llama-3.1-70b"


def test_filters_that_leave_no_offer_keep_the_sizing_on_the_page(client, a100_too):
    page = soup(client.get(f"/?{ANY_70B}&region=nowhere"))
    assert page.select_one("#results .problem").get_text() == (
        "No offers of any GPU that fits match these filters in an instance or node that holds the model."
    )
    assert "needs about 157.0 GB" in page.select_one(".sizing-result .sentence").get_text()


def test_the_any_gpu_chart_draws_the_cheapest_option_of_each_gpu_model(client, a100_too):
    page = soup(client.get(f"/?{ANY_70B}"))
    chart = page.select_one("figure.gpu-chart")
    assert len(chart.select("svg.frame-wide path.series")) == 2
    assert sorted(t.get_text() for t in chart.select("svg.frame-wide .end-label text")) == ["1", "2"]
    legend = [" ".join(span.get_text().split()) for span in chart.select("figcaption .legend")]
    assert legend == ["1 4 x A100-80GB, Virtualized, on demand", "2 2 x H200, Virtualized, on demand"]
