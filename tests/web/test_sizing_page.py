"""The sizing panel: a preset fills the GPUs used at once and the checkpoint in one step, and the
page says in a sentence what the model needs and which GPUs hold it."""

from urllib.parse import parse_qs, urlsplit

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


def test_any_gpu_that_fits_lists_every_gpu_model_at_its_fit_in_the_fit_order(client, a100_too):
    """Llama 3.1 70B at 8k needs 3 x 80 GiB, served tensor-parallel on 4, or 2 x H200. 2 H200 on the
    8-GPU node: 400 x 6.25 x 8/2 = 10,000.00; 4 A100-80GB on the 8-GPU instance: 400 x 2.50 x ceil(4/8)
    x 8/4 = 2,000.00. Listed as the fit table lists them, the fewest GPUs at once first, not by cost:
    400 GPU-hours of an H200 are not the work of 400 of an A100. H100 comes in units of 1 only, so it
    is not among them."""
    page = soup(client.get(f"/?{ANY_70B}"))
    rows = [[c.get_text(" ", strip=True) for c in tr.select("th, td")] for tr in page.select("table.any-gpu tbody tr")]
    assert [(r[0], r[3]) for r in rows] == [("2 x H200", "$10,000.00 *"), ("4 x A100-80GB", "$2,000.00 *")]
    assert "not a ranking" in page.select_one("table.any-gpu caption").get_text()
    body = client.get(f"/api/quote?{ANY_70B}").json()
    assert [(o["gpu"], o["gpus"], o["option"]["total"]) for o in body["any_gpu"]] == [
        ("H200", 2, 10000.0), ("A100-80GB", 4, 2000.0)
    ]  # fmt: skip
    assert body["sizing"]["need_gb"] == 156.95


def test_the_headline_of_gpu_hours_on_any_gpu_names_no_cheapest_gpu_model_and_says_why(client, a100_too):
    """400 GPU-hours of 4 A100-80GB cost 2,000.00, of 2 H200 10,000.00, but an H200-hour does more work
    than an A100-hour: the headline answers for H200, the first GPU model that fits (2 at once, fewer
    than the A100's 4), says so, says why no GPU model is the cheapest, and links to the same inputs
    as a serving job, whose GPU-hours each GPU model works out on its own."""
    page = soup(client.get(f"/?{ANY_70B}"))
    headline = " ".join(page.select_one(".headline").get_text().split())
    assert headline.startswith("At 400 GPU-hours a month of 2 x H200 at once, the first GPU model that fits, ")
    assert "$10,000.00" in headline and "A100" not in headline
    why = page.select_one("p.not-ranked")
    assert "GPU-hours of different GPU models are not equal work" in " ".join(why.get_text().split())
    links = {a.get_text(): a["href"] for a in why.select("a")}
    assert links["Choose the GPU model your GPU-hours are of"] == "#gpu"
    as_job = parse_qs(urlsplit(links["state the job"]).query)
    assert {k: as_job[k] for k in ("job", "gpu", "preset", "context")} == {
        "job": ["serve"], "gpu": ["any"], "preset": ["llama-3.1-70b"], "context": ["8192"]
    }  # fmt: skip
    assert "gpu_hours" not in as_job, "a job works out its own GPU-hours on each GPU model"
    job_form = soup(client.get(links["state the job"]))
    assert job_form.select_one("#job option[selected]")["value"] == "serve"


def test_each_gpu_model_listed_links_to_the_gpu_hours_quoted_as_its_own(client, a100_too):
    """The buyer names the GPU model the hours are of: A100-80GB's row quotes 400 GPU-hours of 4
    A100-80GB, 2,000.00 a month (400 x 2.50 x 8/4)."""
    page = soup(client.get(f"/?{ANY_70B}"))
    links = {a.get_text(): a["href"] for a in page.select("table.any-gpu tbody th a")}
    assert list(links) == ["2 x H200", "4 x A100-80GB"]
    chosen = parse_qs(urlsplit(links["4 x A100-80GB"]).query)
    assert (chosen["gpu"], chosen["gpu_hours"]) == (["A100-80GB"], ["400"])
    headline = " ".join(soup(client.get(links["4 x A100-80GB"])).select_one(".headline").get_text().split())
    assert headline.startswith("At 400 GPU-hours a month of A100-80GB, ")
    assert "$2,000.00" in headline


def test_the_api_quotes_gpu_hours_on_any_gpu_for_the_first_gpu_model_and_ranks_none(client, a100_too):
    """The quote's own options are H200's, the first GPU model that fits (10,000.00), not the
    A100-80GB's 2,000.00; the any-GPU list says it is no ranking, and why."""
    body = client.get(f"/api/quote?{ANY_70B}").json()
    assert (body["params"]["gpu"], body["options"][0]["total"]) == ("H200", 10000.0)
    assert body["any_gpu_ranked"] is False
    assert body["any_gpu_not_ranked"].startswith("GPU-hours of different GPU models are not equal work")


def test_a_training_model_on_any_gpu_links_to_the_same_inputs_as_a_training_run(client, a100_too):
    page = soup(client.get(f"/?{ANY_70B}&mode=lora"))
    link = next(a["href"] for a in page.select("p.not-ranked a") if a.get_text() == "state the job")
    as_job = parse_qs(urlsplit(link).query)
    assert (as_job["job"], as_job["train_mode"]) == (["train"], ["lora"])


def test_one_gpu_model_says_nothing_of_unequal_work(client, a100_too):
    page = soup(client.get(f"/?{ANY_70B}&gpu=H200"))
    assert page.select_one("p.not-ranked") is None
    assert client.get(f"/api/quote?{ANY_70B}&gpu=H200").json()["any_gpu_not_ranked"] is None


def test_a_saved_any_gpu_scenario_stays_any_gpu(client, a100_too):
    page = soup(client.get(f"/?{ANY_70B}"))
    form = {"csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
            "inputs": page.select_one("input[form=save-form][name=inputs]")["value"]}  # fmt: skip
    link = client.post("/s", data=form, follow_redirects=False).headers["location"]
    saved = soup(client.get(link))
    assert saved.select_one("#gpu option[selected]")["value"] == "any"
    assert saved.select_one("table.any-gpu tbody tr th").get_text() == "2 x H200"


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


def test_the_any_gpu_chart_draws_each_gpu_models_cheapest_option_in_the_fit_order(client, a100_too):
    page = soup(client.get(f"/?{ANY_70B}"))
    chart = page.select_one("figure.gpu-chart")
    assert len(chart.select("svg.frame-wide path.series")) == 2
    assert sorted(t.get_text() for t in chart.select("svg.frame-wide .end-label text")) == ["1", "2"]
    legend = [" ".join(span.get_text().split()) for span in chart.select("figcaption .legend")]
    assert legend == ["1 2 x H200, Virtualized, on demand", "2 4 x A100-80GB, Virtualized, on demand"]
    assert "not a ranking" in chart.select_one("figcaption .not-ranked").get_text()


def test_a_comparison_says_whose_gpu_hours_an_any_gpu_scenario_quotes(client, a100_too):
    slugs = []
    for query in (ANY_70B, f"{ANY_70B}&gpu=H200"):
        page = soup(client.get(f"/?{query}"))
        form = {"csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
                "inputs": page.select_one("input[form=save-form][name=inputs]")["value"]}  # fmt: skip
        slugs.append(client.post("/s", data=form, follow_redirects=False).headers["location"].removeprefix("/s/"))
    compared = soup(client.get(f"/compare?s={','.join(slugs)}"))
    notes = [" ".join(p.get_text().split()) for p in compared.select("p.not-ranked")]
    assert notes == [
        "Scenario 1 asks for any GPU that fits at its GPU-hours: its figures are of H200, the first GPU model that "
        "fits, not the cheapest across GPU models, as GPU-hours of different GPU models are not equal work."
    ]


def test_the_fields_a_model_sets_say_so_beside_them(client, session):
    """GPUs at once and the checkpoint come from a chosen model's memory need, not the typed figures:
    each of those two fields carries the note the stylesheet shows once a model is chosen, and no other."""
    hand_checked_catalog(session)
    page = soup(client.get("/?gpu=H100&gpu_hours=500"))
    noted = [
        note.find_parent(class_="field").select_one("input[type=number]")["id"] for note in page.select(".set-by-model")
    ]
    assert noted == ["peak_gpus", "checkpoint_gb"]


def test_the_any_gpu_chart_marks_your_hours_on_its_own_axis(client, a100_too):
    """Llama 3.1 70B at 8k on any GPU, with no speed to convert the hours by: H200 runs 2 GPUs at once
    and A100-80GB 4, so their bands differ (4 x 730 = 2,920 GPU-hours); the axis runs to the widest, and
    the line of your 400 GPU-hours sits where 400 falls on it, not on the first model's 1,460."""
    page = soup(client.get(f"/?{ANY_70B}"))
    svg = page.select_one("figure.gpu-chart svg.frame-wide")
    ticks = [t for t in svg.select("g.grid text") if "axis-title" not in (t.get("class") or [])]
    x_ticks = [
        t for t in ticks if t.get("text-anchor") in ("start", "middle", "end") and t.get("y") == ticks[-1].get("y")
    ]
    (x0, first), (x_end, last) = [
        (float(t["x"]), float(t.get_text().replace(",", ""))) for t in (x_ticks[0], x_ticks[-1])
    ]
    current = float(svg.select_one(".current line")["x1"])
    assert first == 0 and last >= 2920 and current == pytest.approx(x0 + (x_end - x0) * 400 / last, abs=0.2)
