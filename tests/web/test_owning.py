"""Owning the hardware on the page and in the API (DOMAIN.md, "Owning the hardware"): a server of the
buyer's own figures quoted beside the rental offers, part by part, with its break-evens and what a
short horizon leaves of the purchase; bad owning inputs refused under their field."""

import csv
import io
from urllib.parse import quote_plus

import pytest
from sqlmodel import select

from app.catalog.changes import new_version
from app.catalog.tables import GpuModel, OfferVersion
from app.catalog.updates import ecb_rate_2026_04, model_presets_2026_11, owned_servers_2026_12
from tests.factories import make_offer, make_provider
from tests.web.helpers import soup

SERVER = "own_server=custom&own_price=296644&own_power_kw=10.2"
"""An 8x H100 server at 296,644 USD drawing 10.2 kW at most, on the defaults: 60 months, EIA's
0.0806 USD per kWh, a 0.75 draw, a PUE of 1.54, CBRE's 184.06 USD per kW-month of colocation."""
QUERY = f"gpu=H100&peak_gpus=8&virt_tax=0&checkpoints_out=0&{SERVER}"


@pytest.fixture
def cloud(session):
    """On demand at 2.00 USD a GPU-hour, one GPU an instance or eight (16.00 an hour), no egress fee;
    the shipped model presets and euro rate."""
    provider = make_provider(session, "cloud", tiers=[(0, None, "0")])
    make_offer(session, provider, "2.00")
    make_offer(session, provider, "16.00", gpus_per_unit=8, product="8x")
    model_presets_2026_11(session, new_version(session, "presets"))
    ecb_rate_2026_04(session, new_version(session, "the shipped rate"))
    session.commit()


def owned_row(page):
    return page.select_one('tr[data-option="owned-purchased"]')


def text(node):
    return " ".join(node.get_text().split())


def test_one_server_costs_its_parts_a_month_beside_the_rental_offers(client, cloud):
    """4,944.07 capex + 693.17 power + 1,877.41 colocation = 7,514.65 a month (to the cent of the
    unrounded 7,514.649), against 2.00 x 3,000 = 6,000.00 on demand; 3,000 of the server's 5,840
    GPU-hours are 51 % of them; busy all month, 7,514.649 / 5,840 = 1.2868 a GPU-hour."""
    page = soup(client.get(f"/?{QUERY}&gpu_hours=3000"))
    assert text(owned_row(page).select_one("td.total")) == "$7,514.65"
    assert text(page.select_one('tr[data-option="virtualized-on_demand"] td.total')) == "$6,000.00"
    owning = text(page.select_one("#owning"))
    assert "1 server of 8 H100, $7,514.65 a month: capex $4,944.07, power $693.17, colocation $1,877.41." in owning
    assert "busy 51% of the month" in owning and "$1.2868 per GPU-hour of work" in owning


def test_the_month_is_drawn_part_by_part_against_the_cheapest_rental(client, cloud):
    """On a scale of 100 for the larger month (7,514.649): capex 4,944.067 is 65.79 wide, then power
    693.170 (9.22) from there; on demand's 6,000.00 is 79.84 wide."""
    bars = soup(client.get(f"/?{QUERY}&gpu_hours=3000")).select_one("figure.owning-bars")
    capex, power = bars.select_one("rect.capex"), bars.select_one("rect.power")
    assert (capex["x"], capex["width"], power["x"], power["width"]) == ("0.00", "65.79", "65.79", "9.22")
    assert bars.select_one("rect.rental")["width"] == "79.84"
    assert [text(span) for span in bars.select(".bar-total")] == ["$7,514.65", "$6,000.00"]


def test_owning_beats_on_demand_from_3_757_gpu_hours_a_month_64_percent_busy(client, cloud):
    """7,514.649 / 2.00 = 3,757.3 GPU-hours: 3,757.3 / (730 x 8) = 64 % of the server's hours; past
    5,840 a second server is needed, and renting is the cheaper again, up to 15,029.30 / 2.00 = 7,514.6."""
    page = soup(client.get(f"/?{QUERY}&gpu_hours=3000"))
    (beats,) = page.select("ul.owning-beats li")
    assert text(beats) == (
        "Owning is cheaper than Virtualized, on demand from 3,757 GPU-hours a month, its GPUs busy 64% of the time,"
        " up to 5,840, where it takes another server."
    )
    listed = [text(li) for li in page.select("ol.break-evens li")]
    assert listed == [
        "Virtualized, on demand vs Owned servers: 3,757.3 GPU-h (Owned servers cheaper above); "
        "5,840.0 GPU-h (Virtualized, on demand cheaper above); 7,514.6 GPU-h (Owned servers cheaper above)"
    ]


def test_the_headline_names_owning_where_it_is_cheapest(client, cloud):
    """At 5,000 GPU-hours renting costs 10,000.00 against owning's 7,514.65."""
    headline = text(soup(client.get(f"/?{QUERY}&gpu_hours=5000")).select_one("p.headline"))
    assert headline.startswith("At 5,000 GPU-hours a month of H100, the cheapest is Owned servers: $7,514.65 a month")


def test_a_ninth_gpu_at_once_needs_a_second_server(client, cloud):
    page = soup(client.get(f"/?{QUERY}&gpu_hours=3000&peak_gpus=9"))
    assert text(owned_row(page).select_one("td.total")) == "$15,029.30"
    assert "2 servers of 8 H100" in text(page.select_one("#owning"))


def test_a_horizon_shorter_than_the_life_says_what_is_left_of_the_purchase(client, cloud):
    """After 12 of 60 months, 296,644 x 48 / 60 = 237,315.20 is not yet written off."""
    owning = text(soup(client.get(f"/?{QUERY}&gpu_hours=3000&months=12")).select_one("#owning"))
    assert "$237,315.20 of the purchase is not yet written off (48 of its 60 months left)" in owning
    assert "not yet written off" not in text(soup(client.get(f"/?{QUERY}&gpu_hours=3000&months=60")))


def test_operations_and_a_cost_of_capital_add_to_the_month(client, cloud):
    """At 6 % a year (0.5 % a month) over 60 months: 296,644 x 0.005 / (1 - 1.005^-60) = 5,734.96 of
    capex; with 500 of operations: 5,734.960 + 693.170 + 1,877.412 + 500 = 8,805.54."""
    page = soup(client.get(f"/?{QUERY}&gpu_hours=3000&own_capital_pct=6&own_operations=500"))
    assert text(owned_row(page).select_one("td.total")) == "$8,805.54"
    assert "capex $5,734.96" in text(page.select_one("#owning"))


def test_filters_of_where_and_by_whom_leave_your_server_in_but_the_tenancy_filter_can_leave_it_out(client, cloud):
    for filters in ("eu_only=on", "exclude_us_hq=on", "region=eu-west-1"):
        assert owned_row(soup(client.get(f"/?{QUERY}&gpu_hours=3000&{filters}"))) is not None, filters
    assert owned_row(soup(client.get(f"/?{QUERY}&gpu_hours=3000&tenancy=virtualized"))) is None
    assert owned_row(soup(client.get(f"/?{QUERY}&gpu_hours=3000&tenancy=virtualized&tenancy=owned"))) is not None


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("own_life_months=0", "own_life_months", "must be at least 1"),
        ("own_power_kw=-1", "own_power_kw", "must be greater than 0"),
        ("own_price=", "own_price", "a server of your own figures needs its price"),
        ("own_currency=", "own_currency", "must be one of 'USD' or 'EUR'"),
        ("own_currency=EUR", "own_colocation", "no sourced colocation price in EUR was found: type yours"),
        ("gpu=any&preset=llama-3.1-8b", "own_gpus",
         "a server of your own figures holds one GPU model: choose it above, not any GPU"),
        ("preset=llama-3.1-70b&own_gpus=1", "own_gpus",
         "1 H100 in one server cannot hold the model: it needs 4 in one"),
    ],
)  # fmt: skip
def test_bad_owning_input_gets_its_message_under_the_field_and_keeps_the_page(client, cloud, query, field, message):
    page = soup(client.get(f"/?{QUERY}&gpu_hours=3000&{query}"))
    assert text(page.select_one(f"#{field}-error")) == message
    assert page.select_one("#own_server option[selected]")["value"] == "custom"
    assert page.select_one("#fold-owning").has_attr("open")


def test_the_api_quotes_the_server_owned_as_an_option(client, cloud):
    body = client.get(f"/api/quote?{QUERY}&gpu_hours=3000").json()
    owned = next(o for o in body["options"] if o["option"] == "owned/purchased")
    assert (owned["total"], owned["egress"], owned["complete"]) == (7514.65, 0.0, True)
    response = client.get(f"/api/quote?{QUERY}&gpu_hours=3000&own_life_months=0")
    assert response.status_code == 422


def test_a_saved_scenario_keeps_the_server_and_compares_with_renting_only(client, cloud):
    """Saved with the server: the same 7,514.65 on its page and in its CSV; beside a scenario that
    rents only, compare names owning's total for the first and none for the second."""
    params = {"gpu": "H100", "gpu_hours": 3000, "peak_gpus": 8, "virt_tax": 0, "checkpoints_out": 0}
    owning = {"own_server": "custom", "own_price": 296644, "own_power_kw": 10.2}
    first = client.post("/api/scenarios", json={"params": params | owning}).json()["slug"]
    second = client.post("/api/scenarios", json={"params": params}).json()["slug"]
    assert text(owned_row(soup(client.get(f"/s/{first}"))).select_one("td.total")) == "$7,514.65"
    rows = list(csv.reader(io.StringIO(client.get(f"/s/{first}.csv").text)))
    owned = next(row for row in rows if row[0] == "Owned servers")
    assert owned[1:4] == ["your own figures", "the server you priced", "your data centre"] and "7514.65" in owned
    compared = soup(client.get(f"/compare?s={first},{second}"))
    totals = {
        row.th.get_text(strip=True): [td.get_text("|", strip=True).split("|")[0] for td in row.select("td")]
        for row in compared.select("table.totals tbody tr")
    }
    assert totals["Owned servers"][0] == "$7,514.65" and totals["Owned servers"][1] in ("—", "")


def test_figures_typed_in_euros_read_back_in_euros(client, cloud):
    """In EUR at the shipped 1 EUR = 1.1684 USD: 250,000 over 60 months = 4,166.67; 10.2 kW x 0.75 x
    1.54 x 730 h x Eurostat's 0.1902 = 1,635.74; 10.2 kW x 150 = 1,530.00; 7,332.41 a month in EUR,
    8,567.19 in USD."""
    query = f"{QUERY}&gpu_hours=3000&own_currency=EUR&own_price=250000&own_colocation=150"
    page = soup(client.get(f"/?{query}&currency=EUR"))
    assert text(owned_row(page).select_one("td.total")) == "€7,332.41"
    assert "capex €4,166.67, power €1,635.74, colocation €1,530.00" in text(page.select_one("#owning"))
    assert text(owned_row(soup(client.get(f"/?{query}"))).select_one("td.total")) == "$8,567.19"


def test_pricing_one_offer_leaves_the_server_out(client, cloud, session):
    """The explorer's "Price my workload" pins one offer: the quote is that offer's alone."""
    key = session.exec(select(OfferVersion.key)).first()
    page = soup(client.get(f"/?{QUERY}&gpu_hours=3000&offer={quote_plus(key)}"))
    assert owned_row(page) is None and page.select_one(".error:not(:empty)") is None


@pytest.fixture
def with_servers(cloud, session):
    """The shipped servers to own, as a catalog version of their own (with the other GPU models they hold)."""
    session.add_all([GpuModel(name="H200", memory_gib=141), GpuModel(name="MI300X", memory_gib=192)])
    owned_servers_2026_12(session, new_version(session, "servers"))
    session.commit()


def test_a_catalog_server_is_quoted_at_its_published_price_and_power(client, with_servers):
    """Viperatech's DGX H100 at 375,000 USD (2025-03-03) and its 10.2 kW: 375,000 / 60 = 6,250.00 of
    capex, power 693.17 and colocation 1,877.41 as above: 8,820.58 a month."""
    page = soup(client.get("/?gpu=H100&gpu_hours=3000&peak_gpus=8&own_server=dgx-h100/viperatech-2025-03"))
    row = owned_row(page)
    assert text(row.select_one("td.total")) == "$8,820.58"
    assert "bought from Viperatech · NVIDIA DGX H100 P4387 system 640GB · 8× H100" in text(row)
    assert "$375,000.00 over 60 months" in text(row) and "as of 2025-03-03" in text(row)


def test_a_catalog_server_published_in_euros_is_converted_at_the_versions_rate(client, with_servers):
    """Delta Computer's DGX H100 at EUR 303,610.20 (2024-03-20): 303,610.20 / 60 = 5,060.17 EUR of
    capex; power and colocation are USD defaults, 693.170 / 1.1684 = 593.264 and 1,877.412 / 1.1684 =
    1,606.823 EUR: 7,260.26 EUR a month (to the cent of the unrounded 7,260.258)."""
    query = "gpu=H100&gpu_hours=3000&peak_gpus=8&own_server=dgx-h100/delta-computer-2024-03&currency=EUR"
    assert text(owned_row(soup(client.get(f"/?{query}"))).select_one("td.total")) == "€7,260.26"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("own_server=supermicro-8125gs-tnhr/dihuni-2024-03",
         "type the server's maximum power in kW (its datasheet's): no source here states it"),
        ("own_server=mi300x-ubb/interpromicro-2025-02&own_power_kw=8",
         "holds MI300X; the quote is for H100: choose MI300X above, or another server"),
        ("own_server=no-such-server", "is not a server in the price list of"),
    ],
)  # fmt: skip
def test_a_catalog_server_that_cannot_be_quoted_says_why_under_its_field(client, with_servers, query, message):
    page = soup(client.get(f"/?gpu=H100&gpu_hours=3000&peak_gpus=8&{query}"))
    said = [text(page.select_one(f"#{field}-error")) for field in ("own_server", "own_power_kw")]
    assert [m for m in said if m] == [said[0] or said[1]] and (said[0] or said[1]).startswith(message)


def test_a_run_on_8_h100_owns_one_server_whatever_its_months(shipped_client):
    """500 billion tokens of Llama 3.1 8B on 8 x H100: 17,968.24 GPU-hours, 2,246.03 hours on the 8, 3.08 months,
    billed over 4, on one DGX H100 of 270,000.00 over 60 months: 4,500.00 of capex a month, its GPUs busy
    4,492.06 / 5,840 = 76.9 % of them, 270,000.00 - 4 x 4,500.00 = 252,000.00 of it not yet written off. One
    server, not one for each month the run is billed."""
    run = "job=train&preset=llama-3.1-8b&train_tokens_b=500&run_gpus=8&gpu=H100"
    query = f"{run}&own_server=dgx-h100/semianalysis-2023-05"
    body = shipped_client.get(f"/api/quote?{query}").json()
    assert body["job"]["months"] == 4
    owned = body["owned"]
    assert (owned["servers"], owned["capex"], owned["not_yet_written_off"]) == (1, 4_500.00, 252_000.00)
    assert owned["busy_share"] == pytest.approx(0.7692, abs=1e-4)
    option = next(o for o in body["options"] if o["option"] == "owned/purchased")
    assert option["total"] == pytest.approx(owned["capex"] + owned["energy"] + owned["colocation"], abs=0.02)
