"""Every provider's bill, on the shipped catalog: what egress adds at AWS for the buyer who asked.

One H100 for 500 GPU-hours a month and four 140 GB checkpoints moved out (560 GB): every option's
cheapest offer charges nothing for egress, so the options never name AWS. AWS charges nothing for
the first 100 GB a month and 0.09 USD a GB up to 10 TB, so its bill carries (560 - 100) x 0.09 = 41.40."""

import pytest

BUYER = "gpu=H100&gpu_hours=500&peak_gpus=1&checkpoint_gb=140&checkpoints_out=4"
AWS = "Amazon Web Services"


@pytest.fixture
def client(shipped_client):
    return shipped_client


def test_the_api_lists_each_provider_s_cheapest_offer_with_aws_egress_at_41_40(client):
    body = client.get(f"/api/quote?{BUYER}").json()
    assert {o["egress"] for o in body["options"]} == {0.0}, "no option's cheapest offer charges for egress"
    assert AWS not in {o["provider"] for o in body["options"]}
    providers = {p["provider"]: p for p in body["providers"]}
    assert len(providers) == len(body["providers"]), "one row a provider"
    aws = providers[AWS]
    assert (aws["egress"], aws["storage"], aws["complete"]) == (41.40, 0.0, True)
    assert aws["total"] == round(aws["compute"] + 41.40, 2)
    assert aws["offer_key"].startswith("aws:")
    first = body["providers"][0]
    assert (first["provider"], first["offer_id"], first["total"]) == (
        body["options"][0]["provider"],
        body["options"][0]["offer_id"],
        body["options"][0]["total"],
    ), "the cheapest provider's offer is the cheapest option's"
    complete = [p["complete"] for p in body["providers"]]
    assert complete == sorted(complete, reverse=True), "every provider priced in full before the others"
