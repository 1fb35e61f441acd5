"""The price history page (issue 25): a GPU model's prices over time, per tenancy, billing, basis and
currency, never mixed, each point with its source; the filters in the URL; its points as CSV."""

import csv
import io
from datetime import date

import pytest

from tests.web.helpers import soup
from tests.web.test_admin_edits import offer_form


def words(tag) -> str:
    return " ".join(tag.get_text().split())


def sections(page) -> dict[str, object]:
    return {words(s.h2): s for s in page.select("section.history-series")}


def test_aws_p5_drops_from_12_29_to_6_88_on_2025_06_05_each_point_with_its_source(shipped_client):
    page = soup(shipped_client.get("/history/H100?provider=aws&tenancy=virtualized&billing=on_demand"))
    on_demand = sections(page)["Virtualized, on demand list prices, in USD"]
    rows = {
        (words(tr.th), words(tr.select_one('td[data-label="Product"]'))): tr
        for tr in on_demand.select("details.history-points tbody tr")
    }
    before = rows[("2025-06-04", "Amazon Web Services p5.48xlarge us-east-1")]
    after = rows[("2025-06-05", "Amazon Web Services p5.48xlarge us-east-1")]
    assert words(before.select_one('td[data-label="Per GPU-hour"]')) == "$12.29"
    assert words(after.select_one('td[data-label="Per GPU-hour"]')) == "$6.88"
    assert words(after.select_one('td[data-label="As published"]')) == "55.04 USD an hour for 8 GPUs"
    source = words(after.select_one('td[data-label="Source"]'))
    assert "amorton45/aws-gpu-price-tracker:gpu_prices.csv@b81b52d" in source
    assert all(words(tr.select_one('td[data-label="Source"]')) for tr in rows.values()), "no point without a source"
    assert {tr.th.get_text() for tr in rows.values()} >= {"2025-06-04", "2025-06-05"}
    assert all(key[1].startswith("Amazon Web Services ") for key in rows), "the provider asked for: its own alone"
    for chart in on_demand.select("svg"):
        assert chart.select_one("path.provider")["d"].count("M") == 1, "aws's own line, unbroken"


def test_spot_on_demand_and_committed_are_sections_apart_and_an_aggregators_minimum_is_drawn_apart(shipped_client):
    page = soup(shipped_client.get("/history/H100"))
    found = sections(page)
    assert len(found) == len(page.select("section.history-series")), "one section per series"
    assert {"Virtualized, on demand list prices, in USD", "Virtualized, spot list prices, in USD"} <= found.keys()
    assert any(title.startswith("Bare metal, committed") for title in found)
    aggregated = [s for title, s in found.items() if "not a list price" in title]
    assert aggregated and all("aggregated" in s["class"] for s in aggregated)
    listed = [s for title, s in found.items() if "not a list price" not in title]
    assert not any("aggregated" in s["class"] for s in listed)


def test_an_admin_price_change_today_is_the_newest_step_on_the_page(signed_in):
    """The hand-checked on-demand offer, 2.50 as of 2026-11-01, repriced at 2.75 with today's as-of date."""
    today = date.today().isoformat()
    before = soup(signed_in.get("/history/H100?billing=on_demand"))
    assert words(before.select_one("table.history-steps tbody tr th")) == "2026-11-01", "kept for this version"
    form = offer_form(signed_in, 1) | {"price": "2.75", "as_of": today, "note": "new list price"}
    assert signed_in.post("/admin/offers/1", data=form, follow_redirects=False).status_code == 303
    page = soup(signed_in.get("/history/H100?billing=on_demand"))
    steps = [[words(c) for c in tr.select("th, td")] for tr in page.select("table.history-steps tbody tr")]
    assert [[step[0], step[1].split()[0], *step[2:]] for step in steps] == [
        [today, "$2.75", "$2.75", "1"],
        ["2026-11-01", "$2.50", "$2.50", "1"],
    ]
    assert steps[0][1] == f"$2.75 Cloud virtualized on_demand 2.50, us-east-1 (as of {today})"
    assert words(page.select_one("p.headline")).startswith(
        f"Virtualized, on demand, list prices: the cheapest dated price of H100 is $2.75 per GPU-hour since {today}"
    )


def test_the_form_sends_its_choices_on_to_the_gpu_models_own_address(shipped_client):
    response = shipped_client.get("/history?gpu=A100&tenancy=&billing=spot&provider=", follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (303, "/history/A100?billing=spot")
    page = soup(shipped_client.get("/history/A100?billing=spot"))
    assert page.select_one("select[name=billing] option[selected]")["value"] == "spot"
    assert all(title.split(" list")[0].endswith("spot") for title in sections(page))


@pytest.mark.parametrize(
    ("query", "says"), [("tenancy=cloud", "tenancy: Input should be"), ("provider=AWS;", "provider")]
)
def test_a_bad_filter_is_named_on_the_page_and_an_unknown_gpu_is_not_found(shipped_client, query, says):
    response = shipped_client.get(f"/history/H100?{query}")
    assert response.status_code == 200
    assert words(soup(response).select_one("form.history-filters .problem")).startswith(says)
    assert shipped_client.get("/history/H999").status_code == 404


def test_the_csv_holds_the_points_the_filters_keep_with_their_sources(shipped_client):
    response = shipped_client.get("/history/H100.csv?provider=aws&billing=on_demand")
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert {r["provider"] for r in rows} == {"aws"} and {r["billing"] for r in rows} == {"on_demand"}
    drop = next(r for r in rows if r["date"] == "2025-06-05" and r["product"] == "p5.48xlarge")
    assert (drop["per_gpu_hour"], drop["source"]) == ("6.88", "amorton45/aws-gpu-price-tracker:gpu_prices.csv@b81b52d")


def test_an_offers_own_history_opens_from_its_explorer_row_with_its_steps_and_sources(shipped_client):
    """The explorer's AWS p5.48xlarge in us-east-1 row links to its own line: 12.29 from 2025-04-23,
    6.88 from 2025-06-05 (AWS's price cut), over the market's cheapest, whose step that day it sets."""
    explorer = soup(shipped_client.get("/offers?gpu=H100&provider=aws&q=p5.48xlarge"))
    link = next(
        a["href"] for a in explorer.select("a.history-link") if "p5.48xlarge" in a["href"] and "us-east-1" in a["href"]
    )
    page = soup(shipped_client.get(link))
    assert words(page.h1) == "How H100 prices moved: Amazon Web Services p5.48xlarge in us-east-1"
    assert "Amazon Web Services p5.48xlarge in us-east-1: $6.88 since 2025-06-05, from $12.29 on 2025-04-23" in words(
        page.select_one("p.headline")
    )
    points = page.select("details.history-points tbody tr")
    assert points and all(
        words(tr.select_one('td[data-label="Product"]')) == "Amazon Web Services p5.48xlarge us-east-1" for tr in points
    )
    step = next(tr for tr in page.select("table.history-steps tbody tr") if words(tr.th) == "2025-06-05")
    assert words(step.select_one('td[data-label="The cheapest"]')) == (
        "$6.88 Amazon Web Services p5.48xlarge, us-east-1 "
        "(amorton45/aws-gpu-price-tracker:gpu_prices.csv@b81b52d, row timestamp)"
    )


def test_a_bad_filter_on_the_csv_is_refused_naming_it(shipped_client):
    response = shipped_client.get("/history/H100.csv?billing=hourly")
    assert response.status_code == 422 and response.text.startswith("billing: Input should be")


def test_no_undated_price_is_a_step_today_they_are_listed_apart_in_cents(shipped_client):
    """Virtualized on-demand list prices in USD: the steps are of dated prices only, the newest Azure's
    first on 2026-11-09 (14 providers, Hyperstack's 2.50 the cheapest), none today's. The first is Google
    Cloud's a3-highgpu-8g, 88.49 an hour / 8 GPUs = 11.06125 a GPU-hour, read in cents: $11.06. The 83
    prices whose source gives no date are listed apart, cheapest first: CUDO Compute's 1.8214 reads $1.82."""
    page = soup(shipped_client.get("/history/H100"))
    on_demand = sections(page)["Virtualized, on demand list prices, in USD"]
    rows = [[words(c) for c in tr.select("th, td")] for tr in on_demand.select("table.history-steps tbody tr")]
    assert date.today().isoformat() not in [row[0] for row in rows]
    assert (
        rows[0][0] == "2026-11-09"
        and rows[0][1].startswith("$2.50 Hyperstack ")
        and rows[0][3] == "14 joined: Microsoft Azure"
    )
    assert rows[-1][0] == "2024-05-30" and rows[-1][1].startswith("$11.06 Google Cloud a3-highgpu-8g, us-central1 (")
    undated = on_demand.select_one("details.history-undated")
    assert words(undated.summary) == "83 prices whose source gives no date: on no step, cheapest first"
    first = undated.select_one("tbody tr")
    assert words(first.th).startswith("CUDO Compute sapphire-rapids-h100_1x2v4gb")
    assert words(first.select_one('td[data-label="Per GPU-hour"]')) == "$1.82"
    spot = sections(page)["Virtualized, spot list prices, in USD"].select_one("details.history-undated tbody tr")
    assert words(spot.th).startswith("Verda (ex-DataCrunch) ")
    assert words(spot.select_one('td[data-label="Per GPU-hour"]')) == "$0.802", "0.8015 to three figures"


def test_a_step_the_cheapest_took_as_a_provider_entered_is_marked_in_the_table_and_on_the_chart(shipped_client):
    """Virtualized on-demand list prices in USD: AWS's cut to 6.88 on 2025-06-05 is a price move; Lyceum's
    first dated price, 2.79 on 2026-07-31, below AWS's 6.88, and Hyperstack's, 2.50 on 2026-08-26, below
    Lyceum's 2.79, are entries: 2 of the cheapest's 3 moves. Each chart marks those 2 and draws the
    number of providers, from 1 to 14, under the dates."""
    page = soup(shipped_client.get("/history/H100"))
    on_demand = sections(page)["Virtualized, on demand list prices, in USD"]
    moved = {words(tr.th): words(tr.select_one(".moved-by")) for tr in on_demand.select("tr.moved.entry")}
    assert moved == {
        "2026-08-26": "the cheapest fell as Hyperstack entered the tracked set (a first dated price), not by a cut",
        "2026-07-31": "the cheapest fell as Lyceum entered the tracked set (a first dated price), not by a cut",
    }
    cut = next(tr for tr in on_demand.select("table.history-steps tbody tr") if words(tr.th) == "2025-06-05")
    assert "moved" not in (cut.get("class") or [])
    headline = words(page.select_one("p.headline"))
    assert "2 of the cheapest's 3 moves were a provider entering or leaving, not a price change." in headline
    undated = "83 prices whose source gives no date (the lowest still offered $1.82, CUDO Compute) are listed apart."
    assert undated in headline
    for chart in on_demand.select("svg"):
        assert [words(g.title) for g in chart.select("g.moved.entry")] == [
            "2026-07-31: the cheapest fell as Lyceum entered the tracked set (a first dated price), not by a cut",
            "2026-08-26: the cheapest fell as Hyperstack entered the tracked set (a first dated price), not by a cut",
        ]
        assert chart.select_one("path.count")["d"].startswith("M")
        assert [words(t) for t in chart.select("g.count text")] == ["0", "14"]


def test_providers_read_by_name_on_the_page(shipped_client):
    """The form offers DigitalOcean, not "do"; every step's cheapest and every undated price starts with
    its provider's name ("Google Cloud a3-highgpu-8g"), never with a key ("gcp a3-highgpu-8g")."""
    page = soup(shipped_client.get("/history/H100"))
    names = {o["value"]: words(o) for o in page.select("select[name=provider] option") if o["value"]}
    assert (names["do"], names["aws"], names["gcp"]) == ("DigitalOcean", "Amazon Web Services", "Google Cloud")
    said = [words(td.small) for td in page.select('td[data-label="The cheapest"]') if td.small]
    said += [words(th) for th in page.select("details.history-undated tbody th")]
    assert said and all(any(text.startswith(f"{name} ") for name in names.values()) for text in said)
    assert not [text for text in said if any(text.startswith(f"{key} ") for key in names if key != names[key])]
