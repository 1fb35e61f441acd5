"""The hybrid split in the API (DOMAIN.md, "The hybrid split"), worked by hand: one GPU-month at
1,277.50 and on demand at 1.90 a GPU-hour, both bare metal (no tax), no data moved or stored."""

import csv
import io

import pytest

from app.catalog.changes import new_version
from app.catalog.updates import ecb_rate_2026_04
from tests.factories import make_offer, make_provider
from tests.web.helpers import soup

SPLIT = "job=split&gpu=H100&base_gpus=2&split_peak=10&peak_hours=100&checkpoints_out=0"
"""2 GPUs all month, 10 for 100 hours of it: 2 x 630 + 10 x 100 = 2,260 GPU-hours."""


@pytest.fixture
def two_offers(session):
    """A GPU-month at 1,277.50 (1 GPU a unit), offer 1, and a GPU-hour on demand at 1.90, offer 2, at a
    host that publishes its egress and storage prices (zero): every split is fully priced."""
    host = make_provider(session, "host", "US", [(0, None, "0")], storage="0")
    make_offer(session, host, "1277.50", "bare_metal", "monthly", "month")
    make_offer(session, host, "1.90", "bare_metal", "on_demand", "hour")


def test_the_split_at_2_gpus_beats_bursting_all_and_reserving_the_peak(client, two_offers):
    """All burst: 2 x 730 x 1.90 + 8 x 100 x 1.90 = 2,774 + 1,520 = 4,294.00. A base of 2 GPU-months:
    2 x 1,277.50 + 8 x 100 x 1.90 = 2,555 + 1,520 = 4,075.00, the best; of 1, 1,277.50 + (630 + 900)
    x 1.90 = 4,184.50; of 3, 3,832.50 + 700 x 1.90 = 5,162.50. The peak reserved: 10 x 1,277.50 =
    12,775.00. The split saves 219.00 against bursting all and 8,700.00 against reserving the peak."""
    split = client.get(f"/api/quote?{SPLIT}").json()["split"]
    assert split["profile"] == [{"gpus": 10, "hours": 100.0}, {"gpus": 2, "hours": 630.0}]
    assert (split["gpu_hours"], split["peak_gpus"], split["months"]) == (2260.0, 10, 1)
    best = split["best"]
    assert (best["units"], best["base_gpus"], best["base"], best["burst_gpu_hours"], best["burst"]) == (
        2, 2, 2555.0, 800.0, 1520.0,
    )  # fmt: skip
    assert (best["data"], best["total"], best["horizon_total"], best["complete"]) == (0.0, 4075.0, 4075.0, True)
    base, burst = best["base_offer"], best["burst_offer"]
    assert (base["offer_id"], base["option"], burst["offer_id"]) == (1, "bare_metal/monthly", 2)
    assert burst["offer"]["usd_per_gpu_hour"] == 1.9
    assert [b["total"] for b in split["every_base"][:4]] == [4294.0, 4184.5, 4075.0, 5162.5]
    assert [b["units"] for b in split["every_base"]] == list(range(11))
    assert split["every_base"][10]["total"] == 12775.0 and split["rule_gpus"] == 2
    burst, reserved = split["all_burst"], split["all_reserved"]
    assert (burst["offer"]["offer_id"], burst["total"], burst["burst_gpu_hours"]) == (2, 4294.0, 2260.0)
    assert (reserved["offer"]["offer_id"], reserved["units"], reserved["total"]) == (1, 10, 12775.0)
    assert (burst["split_saves"], reserved["split_saves"], reserved["split_saves_a_month"]) == (219.0, 8700.0, 8700.0)


def test_a_plain_quote_has_no_split(client, two_offers):
    assert client.get("/api/quote?gpu=H100&gpu_hours=500").json()["split"] is None


def test_over_a_horizon_the_split_counts_every_month(client, two_offers):
    """Three months: 4,075 x 3 = 12,225.00 against 4,294 x 3 = 12,882.00, 657.00 saved, 219.00 a month."""
    split = client.get(f"/api/quote?{SPLIT}&months=3").json()["split"]
    assert (split["best"]["total"], split["best"]["horizon_total"]) == (4075.0, 12225.0)
    assert (split["all_burst"]["split_saves"], split["all_burst"]["split_saves_a_month"]) == (657.0, 219.0)


def test_the_split_is_shown_in_euros_at_the_rate(client, session, two_offers):
    """At the shipped rate, 1 EUR = 1.1684 USD: 4,075 / 1.1684 = 3,487.68 a month; 12,775 / 1.1684 =
    10,933.76 for the peak reserved, 8,700 / 1.1684 = 7,446.08 saved against it."""
    ecb_rate_2026_04(session, new_version(session, "the shipped rate"))
    session.commit()
    split = client.get(f"/api/quote?{SPLIT}&currency=EUR").json()["split"]
    assert (split["best"]["total"], split["all_reserved"]["total"]) == (3487.68, 10933.76)
    assert split["all_reserved"]["split_saves"] == 7446.08 and split["every_base"][2]["total"] == 3487.68


def test_a_base_above_the_peak_is_refused_naming_base_gpus(client, two_offers):
    response = client.get(f"/api/quote?{SPLIT}&base_gpus=12")
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["query", "base_gpus"] and problem["msg"] == "must be at most the 10 GPUs at the peak"


def test_a_bad_hourly_line_is_refused_with_the_line(client, two_offers):
    hours = "gpus\n" + "2\n" * 100 + "two\n" + "2\n" * 700
    response = client.post("/api/split", json={"gpu": "H100", "demand": "hourly", "hourly": hours})
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["body", "hourly"] and problem["msg"].startswith("line 102: 'two' is not a whole number")


def test_a_month_of_hours_posted_splits_as_its_simple_profile_does(client, two_offers):
    """744 hours, 102 of them at 10 GPUs and 642 at 2: 102 / 744 x 730 = 100.08 hours at the peak, as
    simple demand with peak_hours 100.08; the best base is 2 units either way, 2 x 1,277.50 + 8 x
    100.08 x 1.90 = 2,555 + 1,521.23 = 4,076.23 a month."""
    hours = "\n".join(["10"] * 102 + ["2"] * 642)
    body = {"gpu": "H100", "demand": "hourly", "hourly": hours, "checkpoints_out": 0}
    posted = client.post("/api/split", json=body)
    assert posted.status_code == 200
    split = posted.json()["split"]
    assert (split["best"]["units"], split["best"]["total"]) == (2, 4076.23)
    assert [level["gpus"] for level in split["profile"]] == [10, 2]
    simple = client.get(f"/api/quote?{SPLIT}&peak_hours={102 / 744 * 730}").json()["split"]
    assert split["best"] == simple["best"] and split["every_base"] == simple["every_base"]


def test_the_split_endpoint_takes_the_split_alone(client, two_offers):
    """`job` may be left out (the simple profile's defaults: base 2, peak 10, 100 hours); any other job is
    refused, naming it."""
    assert client.post("/api/split", json={"checkpoints_out": 0}).json()["split"]["best"]["total"] == 4075.0
    response = client.post("/api/split", json={"job": "hours"})
    assert response.status_code == 422
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["body", "job"] and problem["msg"] == "must be split: /api/quote quotes the other jobs"


def test_a_week_with_braces_in_it_is_refused_on_the_page_with_its_hour(client, two_offers):
    """The reading's message quotes what was typed; the page shows it as it is, never as a template."""
    response = client.get("/?job=split&demand=weekly&weekly=%7Bx%7D")
    assert "hour 1: '{x}' is not a whole number of GPUs in use" in soup(response).get_text()


def saved_split(client, params=None):
    """A split scenario saved through the API: its link."""
    body = {"params": {"job": "split", "gpu": "H100", "checkpoints_out": 0} | (params or {})}
    saved = client.post("/api/scenarios", json=body)
    assert saved.status_code == 201
    return "/s/" + saved.json()["slug"]


def test_a_saved_splits_json_export_holds_the_split(client, two_offers):
    exported = client.get(f"{saved_split(client)}.json").json()
    assert exported["params"]["job"] == "split"
    assert (exported["quote"]["split"]["best"]["total"], exported["quote"]["split"]["best"]["units"]) == (4075.0, 2)


def test_a_saved_splits_csv_has_its_base_burst_and_total_and_the_ways_beside_it(client, two_offers):
    """After the options (each on its own at the profile's 2,260 GPU-hours): the split's base, 2 x
    1,277.50 = 2,555.00, and burst, 800 x 1.90 = 1,520.00, each its compute alone; its total 4,075.00;
    then all burst, 2,260 x 1.90 = 4,294.00, and the peak reserved, 10 x 1,277.50 = 12,775.00."""
    rows = list(csv.DictReader(io.StringIO(client.get(f"{saved_split(client)}.csv").text)))
    split = [(r["option"], r["provider"], r["compute_usd"], r["total_usd"], r["horizon_total_usd"]) for r in rows[2:]]
    assert split == [
        ("split: base of 2 GPUs (Bare metal, monthly node)", "Host", "2555.0", "", ""),
        ("split: burst of 800 GPU-hours (Bare metal, on demand)", "Host", "1520.0", "", ""),
        ("split: total", "", "", "4075.0", "4075.0"),
        ("all burst: 2,260 GPU-hours (Bare metal, on demand)", "Host", "4294.0", "4294.0", "4294.0"),
        ("all reserved: 10 GPUs (Bare metal, monthly node)", "Host", "12775.0", "12775.0", "12775.0"),
    ]
    assert [r["option"] for r in rows[:2]] == ["Bare metal, on demand", "Bare metal, monthly node"]
    assert {r["catalog_version"] for r in rows} == {"1"} and rows[4]["egress_usd"] == "0.0"


def test_two_saved_splits_compare_with_each_splits_total(client, two_offers):
    """Peaks of 10 and 6 GPUs: 4,075.00 as above; 2 x 1,277.50 + 4 x 100 x 1.90 = 3,315.00."""
    first, second = saved_split(client), saved_split(client, {"split_peak": 6})
    page = soup(client.get(f"/compare?s={first[3:]},{second[3:]}"))
    row = next(tr for tr in page.select("table.totals tr") if tr.th and tr.th.get_text(strip=True) == "Hybrid split")
    assert [td.get_text(" ", strip=True) for td in row.select("td")] == [
        "$4,075.00 2 GPUs base, 800 GPU-hours burst",
        "$3,315.00 2 GPUs base, 400 GPU-hours burst",
    ]
    headline = " ".join(page.select_one("p.headline").get_text().split())
    assert headline == (
        "Cheapest of each: Scenario 1, a base of 2 GPUs with the rest burst at $4,075.00 a month; "
        "Scenario 2, a base of 2 GPUs with the rest burst at $3,315.00 a month."
    )
