"""The explorer opened from the calculator's results, on the shipped catalog: each offer's egress,
storage and month for the buyer's workload, the same in its CSV, and "Price my workload" keeping it.

One H100 for 500 GPU-hours a month, four 140 GB checkpoints moved out (560 GB). AWS's p5.4xlarge
(one H100, 6.88 USD an hour, on demand): 500 / 0.974 (the default 2.6 % lost to virtualization) x
6.88 = 3,531.83 of compute, (560 - 100) x 0.09 = 41.40 of egress, nothing stored: 3,573.23 a month."""

import csv
import io

import pytest

from tests.web.helpers import html, soup

BUYER = "gpu=H100&gpu_hours=500&peak_gpus=1&checkpoint_gb=140&checkpoints_out=4"
P5_1GPU = "aws:p5.4xlarge:H100:us-east-1:on_demand"


@pytest.fixture
def client(shipped_client):
    return shipped_client


@pytest.fixture
def opened(client):
    """The explorer as the AWS row of the calculator's provider table opens it."""
    page = soup(client.get(f"/?{BUYER}&providers=total"))
    aws = next(r for r in page.select("#provider-bills tbody tr") if r.th.get_text(strip=True) == "Amazon Web Services")
    return aws.select_one("a.explore")["href"].split("#")[0]


def cells(row):
    return {td["data-label"]: td.get_text(" ", strip=True) for td in row.select("td[data-label]")}


def row_of(page, key):
    return next(r for r in page.select("table.offers tbody tr") if key in r.select_one("td.quote a")["href"])


def test_each_offer_shows_its_egress_storage_and_month_for_the_workload(client, opened):
    page = soup(client.get(opened))
    assert "500 GPU-hours a month on 1 GPU at once, 560 GB moved out a month (4 checkpoints of 140 GB)" in " ".join(
        page.select_one("p.workload").get_text().split()
    )
    p5 = cells(row_of(page, "p5.4xlarge%3AH100%3Aus-east-1"))
    assert (p5["Egress a month"], p5["Storage a month"], p5["Total a month"]) == ("$41.40", "$0.00", "$3,573.23")


def test_a_provider_publishing_no_egress_price_says_so_and_its_month_is_not_made_up(client):
    """Verda publishes no egress price: 560 GB out cost "not published", and the month is unknown."""
    page = soup(client.get("/offers?provider=verda&gpu=H100&workload=gpu_hours%3D500%26checkpoints_out%3D4"))
    first = cells(page.select_one("table.offers tbody tr"))
    assert (first["Egress a month"], first["Total a month"]) == ("not published", "unknown (no egress price)")


def test_without_a_workload_the_explorer_has_no_such_columns(client):
    page = soup(client.get("/offers?gpu=H100&provider=aws"))
    assert page.select(".workload-cost") == [] and page.select_one("p.workload") is None


def test_the_csv_carries_the_same_columns_for_the_same_query(client, opened):
    page = soup(client.get(opened))
    rows = list(csv.DictReader(io.StringIO(client.get(page.select_one("a.csv")["href"]).text)))
    p5 = next(r for r in rows if r["Product"] == "p5.4xlarge")
    assert (p5["Egress a month, USD"], p5["Storage a month, USD"], p5["Total a month, USD"]) == ("41.4", "0", "3573.23")


def test_price_my_workload_opens_the_calculator_with_every_input_and_the_offer_pinned(client, opened):
    """The link carries the workload (checkpoints_out=4; the rest at their defaults) and the offer: the
    calculator prices that offer alone, its egress 41.40 and its month 3,573.23."""
    href = row_of(soup(client.get(opened)), "p5.4xlarge%3AH100%3Aus-east-1").select_one("td.quote a")["href"]
    assert href == "/?checkpoints_out=4&offer=aws%3Ap5.4xlarge%3AH100%3Aus-east-1%3Aon_demand"
    calculator = soup(client.get(href))
    assert calculator.select_one("input[name=checkpoints_out]")["value"] == "4"
    assert calculator.select_one("input[name=offer]")["value"] == P5_1GPU
    (row,) = calculator.select("table.options:not(.providers) tbody tr")
    assert row.select_one('td[data-label="Egress"]').get_text(strip=True) == "$41.40"
    assert row.select_one("td.total").get_text(strip=True) == "$3,573.23"


def test_filters_and_sorting_keep_the_workload(client, opened):
    page = soup(client.get(opened))
    assert page.select_one('#offer-filters input[name="workload"]')["value"] == "gpu_hours=500&checkpoints_out=4"
    assert all("workload=gpu_hours%3D500%26checkpoints_out%3D4" in a["href"] for a in page.select("thead a"))


def test_a_bad_workload_gets_a_message_naming_the_input_not_a_server_error(client):
    response = client.get("/offers?workload=gpu_hours%3D-5%26currency%3DGBP")
    assert response.status_code == 422
    problem = " ".join(html(response).select_one(".problem").get_text().split())
    assert (
        "Workload from the calculator needs fixing: GPU-hours per month must be at least 0; "
        "Show money in must be one of 'USD' or 'EUR'" in problem
    )
    assert client.get("/offers.csv?workload=gpu_hours%3D-5").status_code == 422


def test_a_batch_job_costs_in_the_explorer_what_the_calculator_quotes_it_at(client):
    """A batch of Llama 3.1 70B (no hours up): each GPU model runs as many replicas as an instance
    holds, at its own GPU-hours. The explorer opened from a provider's row prices that offer at the
    same workload as the provider table, not at the 500 GPU-hours of the slider it never read."""
    page = soup(client.get("/?gpu=any&job=serve&preset=llama-3.1-70b&hours_up=0&providers=total"))
    rows = [r for r in page.select("#provider-bills tbody tr") if "*" not in r.select_one("td.total").get_text()]
    for row in rows[:3]:
        explorer = soup(client.get(row.select_one("a.explore")["href"].split("#")[0]))
        assert "on each GPU model that holds it" in explorer.select_one("p.workload").get_text()
        focus = cells(explorer.select_one("table.offers tr.focus"))
        assert focus["Total a month"] == row.select_one("td.total").get_text(strip=True)
