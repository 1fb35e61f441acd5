"""One screen, one story: every GPU count and every comparison a sentence of the calculator states
comes from the quote it describes, across many inputs on the shipped catalog. The quote is read from
/api/quote for the same inputs; the page's sentences are checked against it."""

import re

import pytest

from app.catalog.wording import option_label
from app.costing.terms import HOURS_PER_MONTH
from tests.web.helpers import soup

SERVE_70B = "job=serve&preset=llama-3.1-70b&gpu=H100&input_length=467&output_length=256&latency=interactive"
TRAIN_8B = "job=train&preset=llama-3.1-8b&train_tokens_b=1"
DGX = "own_server=dgx-h100/semianalysis-2023-05"

INPUTS = [
    "gpu=H100&gpu_hours=500",
    "gpu=H100&gpu_hours=500&months=12",
    "gpu=H100&gpu_hours=700&months=6",
    "gpu=H100&gpu_hours=730",
    "gpu=H100&gpu_hours=731",
    "gpu=H100&gpu_hours=2920&peak_gpus=4",
    "gpu=H100&gpu_hours=2930&peak_gpus=4",
    "gpu=H100&gpu_hours=5839&peak_gpus=8",
    "gpu=H100&gpu_hours=5840&peak_gpus=8",
    "gpu=H100&gpu_hours=5841&peak_gpus=8",
    f"gpu=H100&gpu_hours=500&peak_gpus=8&{DGX}",
    f"gpu=H100&gpu_hours=3000&peak_gpus=8&{DGX}",
    "gpu=H100&gpu_hours=500&virt_tax=0",
    "gpu=A100-80GB&gpu_hours=1200&peak_gpus=2",
    "gpu=H200&gpu_hours=100&peak_gpus=8",
    "gpu=H100&gpu_hours=500&eu_only=on&currency=EUR",
    "gpu=L40S&gpu_hours=300",
    SERVE_70B,
    f"{SERVE_70B}&output_tokens_m=1000",
    f"{SERVE_70B}&virt_tax=0",
    f"{TRAIN_8B}&gpu=H100",
    f"{TRAIN_8B}&gpu=H100&context=8192",
    f"{TRAIN_8B}&gpu=any",
    "preset=llama-3.1-70b&context=8192&gpu=H100&gpu_hours=500",
    "preset=llama-3.1-70b&context=8192&gpu=any&gpu_hours=500&hours_gpu=H100",
    "job=train&preset=llama-3.1-70b&train_tokens_b=15000&run_gpus=64&gpu=H100",
    "job=train&preset=llama-3.1-405b&train_tokens_b=15000&run_gpus=512&gpu=any",
]


def _said(page, selector: str) -> str:
    found = page.select_one(selector)
    return " ".join(found.get_text().split()) if found else ""


def _number(text: str) -> float:
    return float(text.replace(",", ""))


@pytest.mark.parametrize("query", INPUTS)
def test_every_count_and_comparison_comes_from_the_quote(shipped_client, query):
    body = shipped_client.get(f"/api/quote?{query}").json()
    page = soup(shipped_client.get(f"/?{query}"))
    assert body["options"], query
    at_once, gpu, hours = body["params"]["peak_gpus"], body["params"]["gpu"], body["params"]["gpu_hours"]
    headline = _said(page, ".headline")
    first = body["options"][0]
    cheapest = option_label((first["tenancy"], first["billing"]))

    # The headline's cheapest is the quote's first option.
    assert f"{cheapest}:" in headline or f"{cheapest}," in headline, (headline, cheapest)

    # A job's GPUs in the headline and in the memory paragraph are the quote's GPUs at once.
    if body["job"] is not None:
        assert f"{body['job']['gpus_at_once']} x {gpu}" in headline
    uses = re.search(r"This quote uses (\d+) x (\S+) at once", _said(page, ".sizing-result p.sentence"))
    if uses:
        assert (int(uses.group(1)), uses.group(2)) == (at_once, gpu)

    # "more than N GPUs at once can run": only where it is so, with the quote's counts.
    note = _said(page, ".at-once")
    raised = body["raised_gpus_at_once"]
    assert bool(note) == (raised is not None), (query, note, raised)
    if note:
        more = re.search(
            r"([\d,.]+) GPU-hours (?:of work a month take ([\d,.]+) GPU-hours .*?, more|a month are more)"
            r" than (\d+) GPUs? at once",
            note,
        )
        assert more is not None, note
        billed = _number(more.group(2) or more.group(1))
        assert int(more.group(3)) == at_once and billed > at_once * HOURS_PER_MONTH, note
        assert f"quoted at {raised} GPUs at once" in note

    # The turn named beside the headline is about the cheapest option, and above where the buyer is.
    turn = _said(page, ".headline .turn")
    beats = re.match(r"(.+?) beats (.+?) (?:between|above) ([\d,]+)", turn)
    if beats:
        assert beats.group(2) == cheapest, (turn, cheapest)
        assert _number(beats.group(3)) >= hours
    since = re.match(r"(.+?) is the cheapest above ([\d,]+)", turn)
    if since:
        assert since.group(1) == cheapest and _number(since.group(2)) <= hours
