"""No dead ends, on the shipped catalog: an empty list of offers, a quote no offer passes and a job
the catalog has no number for each link to the nearest inputs that answer, with how many offers
each gives; followed, every link answers with that very number."""

import pytest

from tests.web.helpers import soup


@pytest.fixture
def client(shipped_client):
    return shipped_client


def detours(page):
    """Each suggestion as the page words it, the offers it promises, and its link."""
    return [
        (li.a.get_text(), int(li.select_one(".detour-offers").get_text().split()[0].replace(",", "")), li.a["href"])
        for li in page.select(".detours li")
    ]


def listed(client, url):
    """How many offers the explorer says it lists at `url`."""
    page = soup(client.get(url))
    assert page.select("table.offers tbody tr"), url
    return int(page.select_one(".counts strong.total").get_text())


def quoted_among(client, url):
    """How many offers the calculator says its options are the cheapest of at `url`."""
    response = client.get(url)
    assert response.status_code == 200, url
    page = soup(response)
    assert not page.select("p.problem") and page.select("table.options tbody tr"), url
    return int(page.select_one(".offers-left").get_text())


def each_answers(client, found):
    """Each suggestion, followed, is quoted among the offers it promised."""
    for said, offers, url in found:
        assert quoted_among(client, url) == offers, said


def test_h100_bare_metal_in_the_eu_lists_nothing_and_offers_no_download(client):
    page = soup(client.get("/offers?gpu=H100&tenancy=bare_metal&eu_only=on"))
    assert page.select_one(".counts strong.total").get_text() == "0"
    assert page.select_one("a.csv") is None, "no download of 0 offers"


def test_h100_bare_metal_in_the_eu_points_at_each_filter_dropped_and_at_other_gpus(client):
    """The shipped catalog's H100 bare metal is Latitude.sh's 3 (US), Oracle's 3 (US, MA, ZA), Qubrid's
    and Voltage Park's 2 (country not stated): 9 without the EU filter. H100 in the EU is 42 offers, all
    virtualized (Google 12, OVHcloud 7, Scaleway 5, Nebius 4, Prime Intellect 4, Shadeform 4, Leafcloud
    2, Verda 2, Fluidstack 1, Vast.ai 1), so "virtualized instead" is the same 42 and not said twice.
    Bare metal in the EU is Hetzner's RTX PRO 6000 (4 DE, 2 FI) and 4000 (4 DE, 2 FI) and Latitude.sh's
    RTX PRO 6000 in NL (3): 15, of which RTX PRO 6000 9 and RTX PRO 4000 6."""
    page = soup(client.get("/offers?gpu=H100&tenancy=bare_metal&eu_only=on"))
    assert [(said, offers) for said, offers, _ in detours(page)] == [
        ("Without the EU filter", 9),
        ("Any tenancy, not only bare metal", 42),
        ("Any GPU model, not only H100", 15),
        ("RTX-PRO-6000 instead of H100", 9),
        ("RTX-PRO-4000 instead of H100", 6),
    ]


def test_every_suggestion_of_the_explorer_lists_the_offers_it_promises(client):
    page = soup(client.get("/offers?gpu=H100&tenancy=bare_metal&eu_only=on&provider=hetzner&q=sxm"))
    found = detours(page)
    assert found
    for said, offers, url in found:
        assert listed(client, url) == offers, said


def test_a_list_with_offers_suggests_nothing(client):
    assert soup(client.get("/offers?gpu=H100&tenancy=bare_metal")).select(".detours") == []


def test_a_quote_no_offer_passes_points_at_the_filters_dropped(client):
    """The calculator's H100, bare metal, in the EU: the same 9 and 42 offers as the explorer's
    (it quotes every listed offer with a stated currency), and the RTX PRO GPU models' 9 and 6."""
    page = soup(client.get("/?gpu=H100&tenancy=bare_metal&eu_only=on"))
    assert "No offers of H100 match these filters" in page.select_one("#results p.problem").get_text()
    found = detours(page)
    assert [(said, offers) for said, offers, _ in found] == [
        ("Without the EU filter", 9),
        ("Any tenancy, not only bare metal", 42),
        ("RTX-PRO-6000 instead of H100", 9),
        ("RTX-PRO-4000 instead of H100", 6),
    ]
    each_answers(client, found)


def test_a_quote_of_a_model_no_filtered_offer_holds_points_at_inputs_that_answer(client):
    found = detours(soup(client.get("/?preset=llama-3.1-70b&gpu=any&tenancy=serverless&eu_only=on&hide_spot=on")))
    assert found
    each_answers(client, found)


def test_serving_llama_3_1_70b_on_h100_at_the_defaults_answers_on_the_bf16_run_at_1000_1000(client):
    """The refusal this issue began with: TensorRT-LLM v0.14 ran Llama 3.1 70B in BF16 on 4 x H100 at
    1,000/1,000 offline, 3,774.676 output tokens/s. 300 million tokens are 3e8 / (3,774.676 x 3,600) =
    22.08 hours of work; one replica up all 730 hours is 4 x 730 = 2,920 GPU-hours."""
    job = client.get("/api/quote?job=serve&preset=llama-3.1-70b&gpu=H100").json()["job"]
    assert job["benchmark"] == "llama-3.1-70b/h100x4/bf16/trt-llm-0.14/offline/1000-1000"
    assert (round(job["work_hours"], 2), job["replicas"], job["gpu_hours"]) == (22.08, 1, 2920)


def test_a_gpu_without_the_figures_to_estimate_on_points_at_gpus_that_answer(client):
    """L40 has no sourced dense peak: no benchmark of the model on it and no estimate, said under the weights."""
    page = soup(client.get("/?job=serve&preset=llama-3.1-70b&gpu=L40"))
    assert "the catalog has no dense BF16 peak of L40 to estimate from" in page.select_one("#weights-error").get_text()
    found = detours(page)
    assert found
    each_answers(client, found)


def test_a_bound_between_tokens_no_batch_meets_is_said_under_it_and_leads_on(client):
    """5 ms between tokens: even one sequence of Llama 3.1 70B on 4 x H100 waits longer for its weights."""
    page = soup(client.get("/?job=serve&preset=llama-3.1-70b&gpu=H100&latency=interactive&max_tbt_ms=5"))
    assert "even one sequence waits" in page.select_one("#max_tbt_ms-error").get_text()
    found = detours(page)
    assert found
    each_answers(client, found)


def test_a_volume_too_large_to_quote_points_at_the_largest_tenfold_smaller_that_answers(client):
    """300 trillion tokens a month is more than 10,000 H100 at once at the FP8 benchmark; a tenth of it is not."""
    page = soup(client.get("/?job=serve&preset=llama-3.1-70b&gpu=H100&weights=fp8&output_tokens_m=300000000"))
    found = detours(page)
    assert found[0][0] == "Output tokens: 30,000,000 millions"
    each_answers(client, found)


def test_a_run_too_small_for_the_model_points_at_a_unit_that_holds_it(client):
    found = detours(soup(client.get("/?job=train&preset=llama-3.1-70b&gpu=H100&run_gpus=3")))
    assert found
    each_answers(client, found)


@pytest.mark.parametrize("hours", [100, 700])
def test_a_move_of_the_slider_in_a_dead_end_keeps_the_suggestions_at_its_gpu_hours(client, hours):
    """The suggestions are counted once for the inputs (GPU-hours change no filter) and linked per move."""
    fragment = client.get(f"/?gpu=H100&tenancy=bare_metal&eu_only=on&gpu_hours={hours}", headers={"HX-Request": "true"})
    found = detours(soup(fragment))
    assert [offers for _, offers, _ in found] == [9, 42, 9, 6]
    assert all(f"gpu_hours={hours}&" in url for _, _, url in found)


def test_a_refused_provider_view_lists_no_detours(shipped_client):
    """A sort column that does not exist is the view's mistake alone: its message, and no suggestion of
    other GPU models or filters, which would answer a question nobody asked."""
    page = soup(shipped_client.get("/?gpu=H100&gpu_hours=500&providers=nonsense"))
    assert "sorted by must be one of" in page.select_one("#results-problem .problem").get_text()
    assert page.select_one(".detours") is None
