"""`GET /api/history`: a GPU model's dated prices with their sources, and the step series made of them."""

import csv
import io
from datetime import date

import pytest

from tests.web.test_admin_edits import offer_form


def test_aws_h100_drops_from_12_29_to_6_88_on_2025_06_05_with_each_points_source(shipped_client):
    body = shipped_client.get("/api/history", params={"gpu": "H100", "provider": "aws"}).json()
    p5 = {p["date"]: p for p in body["points"] if p["product"] == "p5.48xlarge" and p["region"] == "us-east-1"}
    assert (p5["2025-06-04"]["per_gpu_hour"], p5["2025-06-05"]["per_gpu_hour"]) == (12.29, 6.88)
    assert (p5["2025-06-04"]["price"], p5["2025-06-05"]["price"]) == (98.32, 55.04), "per instance of 8, as published"
    assert p5["2025-06-05"]["source"] == "amorton45/aws-gpu-price-tracker:gpu_prices.csv@b81b52d"
    assert p5["2025-06-05"]["date_stated"] == "row timestamp"
    assert all(p["source"] for p in body["points"]), "no point without a source"
    (series,) = body["series"]
    assert (series["tenancy"], series["billing"], series["price_basis"]) == ("virtualized", "on_demand", "list")
    assert [(s["date"], s["cheapest"], s["providers"]) for s in series["steps"]] == [
        ("2025-04-23", 12.29, 1),
        ("2025-06-05", 6.88, 1),
    ]
    assert body["tracking_since"] == "2025-04-23"


def test_aggregator_minima_and_list_prices_come_in_series_apart(shipped_client):
    body = shipped_client.get("/api/history", params={"gpu": "H100", "provider": "lambda"}).json()
    assert {s["price_basis"] for s in body["series"]} == {"list", "aggregator_minimum"}
    kinds = {("virtualized", "on_demand"), ("virtualized", "committed")}, "instances and 1-Click Clusters"
    assert {(s["tenancy"], s["billing"]) for s in body["series"]} == kinds[0], kinds[1]


def test_an_admin_price_change_today_appears_in_the_api_dated_today(signed_in):
    """The hand-checked on-demand offer, 2.50 as of 2026-11-01, repriced at 2.75 through the admin's
    form with today's as-of date: its last point is 2.75 today, and its series steps there."""
    today = date.today().isoformat()
    form = offer_form(signed_in, 1) | {"price": "2.75", "as_of": today, "note": "new list price"}
    assert signed_in.post("/admin/offers/1", data=form, follow_redirects=False).status_code == 303
    body = signed_in.get("/api/history", params={"gpu": "H100", "billing": "on_demand"}).json()
    assert [(p["date"], p["per_gpu_hour"], p["date_basis"]) for p in body["points"]] == [
        ("2026-11-01", 2.5, "as_of"),
        (today, 2.75, "as_of"),
    ]
    assert [(s["date"], s["cheapest"]) for s in body["series"][0]["steps"]] == [("2026-11-01", 2.5), (today, 2.75)]


@pytest.mark.parametrize(
    ("query", "field", "says"),
    [
        ({"gpu": "H999"}, "gpu", "the catalog has no GPU model 'H999'"),
        ({"gpu": "H100\x00"}, "gpu", "String should match pattern"),
        ({"gpu": "H100", "tenancy": "cloud"}, "tenancy", "Input should be"),
        ({"gpu": "H100", "billing": "hourly"}, "billing", "Input should be"),
        ({"gpu": "H100", "provider": "AWS;"}, "provider", "String should match pattern"),
        ({}, "gpu", "Field required"),
    ],
)
def test_an_unknown_gpu_model_or_a_bad_filter_is_refused_naming_it(signed_in, query, field, says):
    response = signed_in.get("/api/history", params=query)
    assert response.status_code == 422
    (refused,) = response.json()["detail"]
    assert refused["loc"][-1] == field or refused["loc"][-2] == field
    assert refused["msg"].startswith(says)


def test_one_offers_product_and_region_keep_its_own_points_alone(shipped_client):
    query = {"gpu": "H100", "provider": "aws", "product": "p5.4xlarge", "region": "us-west-2"}
    body = shipped_client.get("/api/history", params=query).json()
    assert body["points"] and {(p["product"], p["region"]) for p in body["points"]} == {("p5.4xlarge", "us-west-2")}


def test_an_undated_price_has_no_date_and_a_provider_entering_is_named_in_the_step(shipped_client):
    """H100's 111 prices whose source gives no date: date null, none dated today; the on-demand list
    series' step of 2026-08-26 is Hyperstack's entry below Lyceum's 2.79, named, and its 83 undated
    prices are counted apart."""
    body = shipped_client.get("/api/history", params={"gpu": "H100"}).json()
    assert sum(p["date"] is None for p in body["points"]) == 111
    assert not [p for p in body["points"] if p["date"] == date.today().isoformat()]
    assert {p["date_basis"] for p in body["points"] if p["date"] is None} == {"undated"}
    series = next(
        s for s in body["series"]
        if (s["tenancy"], s["billing"], s["price_basis"], s["currency"]) == ("virtualized", "on_demand", "list", "USD")
    )  # fmt: skip
    step = next(s for s in series["steps"] if s["date"] == "2026-08-26")
    assert (step["cheapest"], step["providers"], step["entered"]) == (2.5, 4, ["Hyperstack"])
    assert (step["cheapest_moved_by"], step["moved_by_provider"]) == ("entry", "Hyperstack")
    assert series["undated"] == 83


def test_the_csv_names_each_provider_and_leaves_an_undated_price_undated(shipped_client):
    rows = list(csv.DictReader(io.StringIO(shipped_client.get("/history/H100.csv").text)))
    assert {(r["provider"], r["provider_name"]) for r in rows if r["provider"] in ("do", "aws")} == {
        ("do", "DigitalOcean"),
        ("aws", "Amazon Web Services"),
    }
    undated = [r for r in rows if r["date_basis"] == "undated"]
    assert len(undated) == 111 and {r["date"] for r in undated} == {""}
