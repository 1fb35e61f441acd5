"""A serving job's tokens, spread over a day, as the demand the hybrid split prices (issue 24: "the
profile also comes from a serving job (its token volume with a daily shape)"), worked by hand."""

import pytest

from app.catalog.changes import new_version
from app.catalog.updates import model_presets_2026_11
from tests.factories import make_gpu, make_offer, make_provider
from tests.web.helpers import soup

QUIET_NIGHTS_BUSY_DAYS = "+".join(["1"] * 12 + ["3"] * 12)
SERVE_8B = (
    "/?job=split&demand=serving&preset=llama-3.1-8b&gpu=H100&measured_tps=1000&output_tokens_m=26280"
    f"&daily={QUIET_NIGHTS_BUSY_DAYS}&virt_tax=0&checkpoints_out=0"
)
"""Llama 3.1 8B on 1 x H100 at a measured 1,000 tokens/s; 26,280 million tokens a month are 7,300
hours of work, 240 a day: 5 replicas in each quiet hour (240 / 48), 15 in each busy one (240 x 3 / 48)."""


def words(tag) -> str:
    return " ".join(tag.get_text().split())


@pytest.fixture
def serving_catalog(session):
    """An H100 dedicated server at 1,277.50 a month and H100 on demand at 1.90, egress free; the presets."""
    make_gpu(session, "H100", 80)
    metal = make_provider(session, "metal", "DE", tiers=[(0, None, "0")])
    cloud = make_provider(session, "cloud", tiers=[(0, None, "0")])
    make_offer(session, metal, "1277.50", "bare_metal", "monthly", "month")
    make_offer(session, cloud, "1.90")
    model_presets_2026_11(session, new_version(session, "presets"))
    session.commit()


def test_a_day_of_5_then_15_replicas_dedicates_5_gpus_for_13_322_50(client, serving_catalog):
    """GPUs 1 to 5 are busy all month, 6 to 15 half of it, below the 1,277.50 / (730 x 1.90) = 92 % that
    a dedicated GPU needs: a base of 5 is 5 x 1,277.50 + 10 x 365 x 1.90 = 6,387.50 + 6,935 = 13,322.50;
    all burst 7,300 x 1.90 = 13,870 (547.50 more); the peak dedicated 15 x 1,277.50 = 19,162.50 (5,840
    more); per million output tokens 13,322.50 / 26,280 = 0.5069."""
    page = soup(client.get(SERVE_8B))
    headline = words(page.select_one("p.split-answer"))
    assert headline.startswith("Dedicate 5 H100 on monthly dedicated servers (Metal) and burst to Virtualized")
    assert (
        "$13,322.50 a month ($0.5069 per million output tokens), $547.50 less than bursting all of it and "
        "$5,840.00 less than dedicating the peak" in headline
    )
    basis = words(page.select_one(".job-basis p.sentence"))
    assert "from 5 in the quietest hour to 15 in the busiest, 15 x H100 at the peak, 7,300.0 GPU-hours a month" in basis
    assert words(page.select_one("figure.load-duration text.base-label")) == "base: 5 GPUs"


def test_the_api_splits_the_served_day_as_the_page_does(client, serving_catalog):
    body = client.get(f"/api/quote{SERVE_8B[1:]}").json()
    split = body["split"]
    assert [(level["gpus"], level["hours"]) for level in split["profile"]] == [(15, 365.0), (5, 365.0)]
    assert (split["best"]["base_gpus"], split["best"]["total"]) == (5, 13322.5)
    assert (split["all_burst"]["total"], split["all_reserved"]["total"]) == (13870.0, 19162.5)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ("&preset=", "preset", "a job needs its model: choose a preset or give a parameter count"),
        ("&gpu=any", "gpu", "the split prices one GPU model's offers: choose one"),
        ("&daily=1+2+x", "daily", "hour 3: 'x' is not an amount of traffic (a number, 0 or more)"),
        ("&demand=simple", "preset", "a demand profile counts GPUs: leave the model out (none), or state it as a"),
        ("&output_tokens_m=2000000", "output_tokens_m", "need more than 1,024 x H100 at the busiest hour"),
    ],
)
def test_a_served_day_that_cannot_be_split_says_why_under_its_input(client, serving_catalog, change, field, message):
    """The last: 2e12 tokens at 1,000/s are 555,555.6 hours of work, 18,265 a day, 1,141.6 in a busy
    hour (3 / 48 of it): 1,142 replicas of 1 GPU, beyond the split's 1,024."""
    response = client.get(SERVE_8B + change)
    assert response.status_code == 200
    error = soup(response).select_one(f"#{field}-error")
    assert error is not None and words(error).startswith(message), words(error) if error else None


def test_a_saved_served_day_opens_with_the_same_split(client, serving_catalog):
    """The scenario keeps the model, the tokens and the day: its JSON export splits at 5 for 13,322.50."""
    params = dict(pair.split("=") for pair in SERVE_8B[2:].split("&")) | {
        "daily": QUIET_NIGHTS_BUSY_DAYS.replace("+", " ")
    }
    saved = client.post("/api/scenarios", json={"params": params})
    assert saved.status_code == 201
    exported = client.get(f"/s/{saved.json()['slug']}.json").json()
    assert exported["params"]["daily"] == params["daily"]
    assert (exported["quote"]["split"]["best"]["base_gpus"], exported["quote"]["split"]["best"]["total"]) == (
        5,
        13322.5,
    )


def test_a_served_day_sizes_its_model_for_inference_whatever_the_hidden_run_for_says(client, serving_catalog):
    """ "Run for: full training" left over from the GPU-hours job would size 3-GPU replicas; serving
    is inference: the same 5 and 15 replicas of 1 GPU, 13,322.50."""
    body = client.get(f"/api/quote{SERVE_8B[1:]}&mode=full").json()
    assert (body["split"]["best"]["base_gpus"], body["split"]["best"]["total"]) == (5, 13322.5)
    assert body["split"]["peak_gpus"] == 15


def test_sizing_a_split_treats_a_served_day_as_serving_and_a_split_of_gpus_as_no_job(client, serving_catalog):
    """/api/size: a measured throughput is one GPU model's, as for serving; a split of GPUs states no job."""
    served = client.get(f"/api/size{SERVE_8B[1:]}")
    assert served.status_code == 422 and served.json()["detail"][0]["loc"][-1] == "measured_tps"
    simple = client.get(f"/api/size{SERVE_8B[1:]}&demand=simple").json()
    assert simple["jobs"] == []
