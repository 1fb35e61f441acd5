"""Every provider's bill, on the shipped catalog: what egress adds at AWS for the buyer who asked.

One H100 for 500 GPU-hours a month and four 140 GB checkpoints moved out (560 GB): every option's
cheapest offer charges nothing for egress, so the options never name AWS. AWS charges nothing for
the first 100 GB a month and 0.09 USD a GB up to 10 TB, so its bill carries (560 - 100) x 0.09 = 41.40."""

import pytest

from tests.web.helpers import soup

BUYER = "gpu=H100&gpu_hours=500&peak_gpus=1&checkpoint_gb=140&checkpoints_out=4"
AWS = "Amazon Web Services"


@pytest.fixture
def client(shipped_client):
    return shipped_client


def test_the_api_lists_each_provider_s_cheapest_offer_with_aws_egress_at_41_40(client):
    """Asked for as the page asks (`providers=total`); without it, `providers` is null and costs nothing."""
    assert client.get(f"/api/quote?{BUYER}").json()["providers"] is None
    body = client.get(f"/api/quote?{BUYER}&providers=total").json()
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
    by_egress = client.get(f"/api/quote?{BUYER}&providers=egress&providers_dir=desc").json()["providers"]
    assert [(p["provider"], p["egress"]) for p in by_egress[:3]] == [
        ("Google Cloud", 62.46),
        ("Microsoft Azure", 48.91),
        (AWS, 41.40),
    ]
    assert client.get(f"/api/quote?{BUYER}&providers=price").status_code == 422


def provider_rows(page):
    """Each provider's row by provider, its cells as the page prints them."""
    rows = page.select("#provider-bills table.providers tbody tr")
    return {
        row.th.get_text(strip=True): {td["data-label"]: td.get_text(" ", strip=True) for td in row.select("td")}
        for row in rows
    }


def test_one_link_from_the_results_shows_aws_egress_at_41_40(client):
    """Folded, the view is one link in the results; followed, it lists every provider once, AWS with
    $41.40 of egress, and a provider publishing no egress price as "not published", its total marked."""
    page = soup(client.get(f"/?{BUYER}"))
    assert page.select_one("#provider-bills table") is None
    link = page.select_one("#results #provider-bills a")
    assert link.get_text() == "Each provider's cheapest offer, egress and storage included"
    shown = soup(client.get(link["href"]))
    rows = provider_rows(shown)
    assert rows[AWS]["Egress"] == "$41.40" and rows[AWS]["Storage"].startswith("$0.00")
    assert rows["Verda (ex-DataCrunch)"]["Egress"] == "not published"
    assert rows["Verda (ex-DataCrunch)"]["Total / month"].endswith("*")
    assert shown.select_one("#provider-bills table.options") is not None, "beside the options' table"
    assert shown.select_one("table.options:not(.providers) caption").get_text().startswith("Cheapest offer of each")


def test_a_heading_sorts_by_its_column_and_a_second_click_turns_the_order_round(client):
    """By egress, highest first: Google Cloud's 62.46, Azure's 48.91, AWS's 41.40, DigitalOcean's 5.22,
    then the free ones, and those whose egress nobody published last."""
    page = soup(client.get(f"/?{BUYER}&providers=egress"))
    egress = page.select('#provider-bills th[scope=col] a[href*="providers=egress"]')[0]
    assert "providers_dir=desc" in egress["href"], "the sorted column's heading turns the order round"
    rows = list(provider_rows(soup(client.get(egress["href"]))).items())
    assert [(name, cells["Egress"]) for name, cells in rows[:4]] == [
        ("Google Cloud", "$62.46"),
        ("Microsoft Azure", "$48.91"),
        (AWS, "$41.40"),
        ("DigitalOcean", "$5.22"),
    ]
    assert rows[-1][1]["Egress"] == "not published"
    assert "gpu_hours=500" in egress["href"] and "checkpoints_out=4" in egress["href"], "the links keep the inputs"


def test_a_move_of_the_slider_keeps_the_view_and_answers_the_same_rows_as_the_page(client):
    """The form sends the view's two inputs with every change; the partial at 600 GPU-hours holds the
    same table as the whole page at 600, AWS's egress unchanged by the hours."""
    page = soup(client.get(f"/?{BUYER}&providers=egress&providers_dir=desc"))
    kept = {i["name"]: i["value"] for i in page.select('#results input[form="calculator"]')}
    assert kept == {"providers": "egress", "providers_dir": "desc"}
    moved = BUYER.replace("gpu_hours=500", "gpu_hours=600") + "&providers=egress&providers_dir=desc"
    partial = soup(client.get(f"/?{moved}", headers={"HX-Request": "true"}))
    whole = soup(client.get(f"/?{moved}"))
    assert str(partial.select_one("#provider-bills")) == str(whole.select_one("#provider-bills"))
    assert provider_rows(partial)[AWS]["Egress"] == "$41.40"


def test_a_column_the_table_does_not_have_is_named_in_a_message(client):
    response = client.get(f"/?{BUYER}&providers=price")
    assert response.status_code == 200
    problem = soup(response).select_one("#results .problem").get_text(" ", strip=True)
    assert "Each provider's cheapest, sorted by must be one of provider, offer, compute, egress" in problem


def test_the_links_to_the_explorer_carry_the_workload(client):
    """Among all H100 offers of AWS: the explorer link of AWS's row carries the inputs as one value."""
    page = soup(client.get(f"/?{BUYER}&providers=total"))
    aws = next(r for r in page.select("#provider-bills tbody tr") if r.th.get_text(strip=True) == AWS)
    href = aws.select_one("a.explore")["href"]
    assert href.startswith("/offers?gpu=H100&provider=aws&at=aws%3A") and "#offer-" in href
    assert "&workload=gpu_hours%3D500%26checkpoints_out%3D4#offer-" in href
    option = page.select_one("table.options:not(.providers) a.explore")["href"]
    assert "&workload=gpu_hours%3D500%26checkpoints_out%3D4#offer-" in option
