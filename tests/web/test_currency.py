"""EUR end to end: a rate is catalog data with a source and a date; the page, the API, the CSV,
saved scenarios and the comparison convert at the rate of the version they quote at."""

import csv
import io

import pytest

from app.catalog.updates import load_shipped_catalog
from app.deps import public_sources
from app.main import app
from tests.factories import hand_checked_catalog
from tests.refresh.conftest import answering, recorded
from tests.web.helpers import QUERY, csrf, html, soup, totals, versions

ECB = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
EUR = f"{QUERY}&currency=EUR"


@pytest.fixture
def admin(signed_in):
    """An admin signed in on the hand-checked catalog, who sets the rates."""
    return signed_in


def set_rate(client, rate, as_of="2026-11-27"):
    form = html(client.get("/admin/rates")).select_one("form[action='/admin/rates']")
    data = {"csrf_token": form.select_one("input[name=csrf_token]")["value"],
            "based_on": form.select_one("input[name=based_on]")["value"], "usd_per_unit": rate,
            "source": "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml", "as_of": as_of,
            "source_kind": "official", "note": "ECB reference rate"}  # fmt: skip
    return client.post("/admin/rates", data=data, follow_redirects=False)


def test_eur_without_a_rate_is_refused_with_a_reason_not_guessed(client, session):
    """The hand-checked catalog holds no rate, as shipped catalog versions before the ECB's did not; its
    price list is named by its prices' date, 2026-11-01."""
    hand_checked_catalog(session)
    page = soup(client.get(f"/?{EUR}"))
    assert page.select_one("#currency-error").get_text() == (
        "has no exchange rate in the price list of 2026-11-01 yet (an admin adds the ECB's)"
    )
    assert client.get(f"/api/quote?{EUR}").status_code == 422


def test_the_page_shows_eur_at_the_rate_with_its_source_and_date(admin, session):
    """1 EUR = 1.25 USD: on demand 1,003.60 USD = 802.88 EUR, node 1,250 = 1,000.00, serverless
    1,440 = 1,152.00; offer prices stay as published, in USD."""
    assert set_rate(admin, "1.25").status_code == 303
    page = soup(admin.get(f"/?{EUR}"))
    assert totals(page) == {
        "virtualized-on_demand": "€802.88",
        "bare_metal-monthly": "€1,000.00",
        "serverless-per_second": "€1,152.00",
    }
    rate_note = " ".join(page.select_one("#results p.rate").get_text().split())
    assert rate_note.startswith("Money in EUR at 1 EUR = 1.25 USD (source, as of 2026-11-27).")
    assert "$2.50 per hour" in page.select_one('tr[data-option="virtualized-on_demand"]').get_text()
    money_ticks = [t.get_text() for t in page.select("#results svg .grid text") if t.get_text()[0] in "$€"]
    assert money_ticks[:3] == ["€0", "€600", "€1.2k"]


def test_the_api_and_the_csv_give_eur_figures_and_name_the_rate(admin, session):
    set_rate(admin, "1.25")
    body = admin.get(f"/api/quote?{EUR}").json()
    assert (body["currency"], body["exchange_rate"]["usd_per_unit"], body["exchange_rate"]["as_of"]) == (
        "EUR",
        1.25,
        "2026-11-27",
    )
    on_demand = body["options"][0]
    assert (on_demand["total"], on_demand["offer"]["price"]) == (802.88, 2.5)
    page = soup(admin.get(f"/?{EUR}"))
    form = {"csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
            "inputs": page.select_one("input[form=save-form][name=inputs]")["value"]}  # fmt: skip
    link = admin.post("/s", data=form, follow_redirects=False).headers["location"]
    rows = list(csv.DictReader(io.StringIO(admin.get(f"{link}.csv").text)))
    assert (rows[0]["total_eur"], rows[0]["usd_per_unit_of_currency"], rows[0]["rate_as_of"]) == (
        "802.88",
        "1.25",
        "2026-11-27",
    )


def test_a_saved_eur_scenario_keeps_its_rate_when_the_rate_changes(admin, session):
    """Saved at 1.25: 802.88; the rate moves to 1.10: the link still shows 802.88 and, today,
    1,003.60 / 1.10 = 912.36, +109.48."""
    set_rate(admin, "1.25")
    page = soup(admin.get(f"/?{EUR}"))
    form = {"csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
            "inputs": page.select_one("input[form=save-form][name=inputs]")["value"]}  # fmt: skip
    link = admin.post("/s", data=form, follow_redirects=False).headers["location"]
    assert set_rate(admin, "1.10", "2026-11-28").status_code == 303
    saved = soup(admin.get(link))
    assert totals(saved)["virtualized-on_demand"] == "€802.88"
    row = next(tr for tr in saved.select("table.then-and-now tr") if "Virtualized, on demand" in tr.get_text())
    assert [td.get_text() for td in row.select("td")] == ["€802.88", "€912.36", "+€109.48"]


def test_an_admin_fetches_the_ecb_rate_into_the_form_and_saves_it(admin, session):
    app.dependency_overrides[public_sources] = lambda: answering({ECB: recorded("ecb_eurofxref_daily.xml")})
    filled = html(admin.post("/admin/rates/ecb", data={"csrf_token": csrf(admin, "/admin/rates")}))
    assert filled.select_one("#usd_per_unit")["value"] == "1.2500"
    assert filled.select_one("#as_of")["value"] == "2026-11-27"
    before = versions(session)
    form = filled.select_one("form[action='/admin/rates']")
    data = {field["name"]: field.get("value", "") for field in form.select("input[name]")}
    data["source_kind"] = "official"
    assert admin.post("/admin/rates", data=data, follow_redirects=False).status_code == 303
    assert versions(session) == before + 1
    assert totals(soup(admin.get(f"/?{EUR}")))["bare_metal-monthly"] == "€1,000.00"


def test_an_ecb_answer_that_is_not_the_rates_file_saves_nothing(admin, session):
    app.dependency_overrides[public_sources] = lambda: answering({ECB: recorded("oci_products.json")})
    before = versions(session)
    response = admin.post("/admin/rates/ecb", data={"csrf_token": csrf(admin, "/admin/rates")})
    assert response.status_code == 502 and "did not send XML" in html(response).select_one(".problem").get_text()
    assert versions(session) == before


@pytest.mark.parametrize("rate", ["0", "-1", "abc", "1000"])
def test_a_rate_must_be_a_plausible_number(admin, session, rate):
    before = versions(session)
    response = set_rate(admin, rate)
    assert response.status_code == 422 and html(response).select_one("#usd_per_unit-error").get_text()
    assert versions(session) == before


def save(client, query):
    page = soup(client.get(f"/?{query}"))
    form = {"csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
            "inputs": page.select_one("input[form=save-form][name=inputs]")["value"]}  # fmt: skip
    return client.post("/s", data=form, follow_redirects=False).headers["location"].removeprefix("/s/")


def test_compare_shows_each_scenario_in_its_own_currency_and_names_the_rate(admin, session):
    """The same inputs saved in USD and in EUR (1.25): the cheapest is 1,003.60 USD beside 802.88 EUR;
    the shared chart stays in USD, the prices' own currency."""
    set_rate(admin, "1.25")
    page = soup(admin.get(f"/compare?s={save(admin, QUERY)},{save(admin, EUR)}"))
    cheapest = [td.get_text(" ", strip=True) for td in page.select("tr.cheapest td")]
    assert cheapest[0].startswith("$1,003.60") and cheapest[1].startswith("€802.88")
    assert page.select_one("p.rate").get_text().startswith("Scenario 2: EUR at 1 EUR = 1.25 USD")
    money_ticks = [t.get_text() for t in page.select("svg .grid text") if t.get_text()[0] in "$€"]
    assert money_ticks and all(tick.startswith("$") for tick in money_ticks)


def test_a_new_rate_alone_leaves_a_saved_usd_scenario_unchanged(admin, session):
    """A rate is a new catalog version, yet a scenario in USD shows the same numbers today."""
    slug = save(admin, QUERY)
    set_rate(admin, "1.25")
    section = soup(admin.get(f"/s/{slug}")).select_one("section.scenario-details")
    assert "Today's prices give the same numbers for these inputs." in section.get_text()
    assert section.select_one("table.then-and-now") is None


def test_a_fresh_install_shows_eur_end_to_end_at_the_shipped_ecb_rate(client, session):
    """The shipped catalog alone: the page, the API, a saved scenario, its CSV and JSON, and compare all
    name the ECB's rate of 2026-04-13, 1 EUR = 1.1684 USD."""
    load_shipped_catalog(session)
    query = "gpu=H100&gpu_hours=500"
    page = soup(client.get(f"/?{query}&currency=EUR"))
    assert " ".join(page.select_one("#results p.rate").get_text().split()).startswith(
        "Money in EUR at 1 EUR = 1.1684 USD (source, as of 2026-04-13)."
    )
    assert page.select_one("#results p.rate a")["href"] == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref.zip"
    assert all(total.startswith("€") for total in totals(page).values())
    rate = client.get(f"/api/quote?{query}&currency=EUR").json()["exchange_rate"]
    assert (rate["usd_per_unit"], rate["as_of"]) == (1.1684, "2026-04-13")
    usd, eur = save(client, query), save(client, f"{query}&currency=EUR")
    rows = list(csv.DictReader(io.StringIO(client.get(f"/s/{eur}.csv").text)))
    assert (rows[0]["usd_per_unit_of_currency"], rows[0]["rate_as_of"], rows[0]["rate_source"]) == (
        "1.1684",
        "2026-04-13",
        "https://www.ecb.europa.eu/stats/eurofxref/eurofxref.zip",
    )
    exported = client.get(f"/s/{eur}.json").json()
    assert exported["params"]["currency"] == "EUR" and exported["quote"]["exchange_rate"]["usd_per_unit"] == 1.1684
    compared = soup(client.get(f"/compare?s={usd},{eur}"))
    assert compared.select_one("p.rate").get_text().startswith("Scenario 2: EUR at 1 EUR = 1.1684 USD")


def test_saving_while_eur_is_shown_saves_a_eur_scenario_that_reopens_in_euros(client, session, with_shipped_rate):
    """On demand 2.50 USD a GPU-hour, 400 GPU-hours, no virtualization tax: compute 1,000.00 USD
    = 1,000 / 1.1684 = 855.87 EUR; with 40 GB of egress past the free 100 at 0.09 (3.60 USD) the
    total is 1,003.60 / 1.1684 = 858.95 EUR. Saved from the page's form and through the API alike."""
    from_page = save(client, EUR)
    params = client.get(f"/s/{from_page}.json").json()["params"]
    from_api = client.post("/api/scenarios", json={"params": params}).json()["slug"]
    for slug in (from_page, from_api):
        body = client.get(f"/api/scenarios/{slug}").json()
        assert (body["params"]["currency"], body["quote"]["currency"]) == ("EUR", "EUR")
        on_demand = body["quote"]["options"][0]
        assert (on_demand["compute"], on_demand["total"]) == (855.87, 858.95)
        page = soup(client.get(f"/s/{slug}"))
        assert totals(page)["virtualized-on_demand"] == "€858.95"
        assert "€855.87" in page.select_one('tr[data-option="virtualized-on_demand"]').get_text()
        assert page.select_one("#currency option[selected]")["value"] == "EUR", "the form reopens in EUR"
        assert " ".join(page.select_one("#results p.rate").get_text().split()).startswith(
            "Money in EUR at 1 EUR = 1.1684 USD (source, as of 2026-04-13)."
        )


def test_a_live_update_refused_for_want_of_a_rate_leaves_nothing_to_save(client, session):
    """USD results kept on screen while EUR is refused: the save form's inputs are emptied, so a save
    is refused with a reason instead of keeping the USD inputs without a word."""
    hand_checked_catalog(session)
    fragment = {"HX-Request": "true"}
    assert soup(client.get(f"/?{QUERY}", headers=fragment)).select_one("#save-inputs")["value"]
    refused = soup(client.get(f"/?{EUR}", headers=fragment))
    emptied = refused.select_one("#save-inputs")
    assert (emptied["value"], emptied["hx-swap-oob"]) == ("", "true")
    token = soup(client.get(f"/?{QUERY}")).select_one("#save-form input[name=csrf_token]")["value"]
    response = client.post("/s", data={"csrf_token": token, "inputs": emptied["value"]}, follow_redirects=False)
    assert response.status_code == 422
    assert html(response).select_one("#save-form .problem").get_text() == "Fix the calculator's inputs before saving."
