"""A term longer than the horizon on the page and in the API: billed whole, ranked, headlined and
drawn at what the horizon costs, and named as a term ("a 12-month term, $10,332.00 over your
1-month horizon")."""

import pytest

from tests.factories import make_offer, make_provider
from tests.web.helpers import soup

QUERY = "gpu=H100&virt_tax=0&invocations=0"
"""No tax, no cold starts: the hand calculations below."""


@pytest.fixture
def year_term_and_spot(session):
    """Latitude.sh's 1 x H100 at 10,332 USD a year for a 12-month term (861.00 a month of it), and
    spot at 1.25 a GPU-hour; neither provider charges for egress."""
    metal = make_provider(session, "latitude", "US", tiers=[(0, None, "0")])
    cloud = make_provider(session, "nebius", "NL", tiers=[(0, None, "0")])
    make_offer(session, metal, "10332", "bare_metal", "committed", "year", min_commitment_months=12)
    make_offer(session, cloud, "1.25", billing="spot")


def headline(page):
    return " ".join(page.select_one(".headline").get_text().split())


def test_over_one_month_the_year_is_billed_whole_and_ranked_second(client, year_term_and_spot):
    """At 700 GPU-hours spot costs 1.25 x 700 = 875.00; the term 10,332.00 over a 1-month horizon, 9,457.00
    more (at its 861.00 share it would have ranked first). Spot stays cheapest at every hours one GPU runs."""
    page = soup(client.get(f"/?{QUERY}&gpu_hours=700"))
    said = headline(page)
    assert "the cheapest is Virtualized, spot: $875.00 a month" in said
    assert "next is Bare metal, committed: a 12-month term, $10,332.00 over your 1-month horizon" in said
    assert "$9,457.00 more over your 1-month horizon" in said
    term = page.select_one('tr[data-option="bare_metal-committed"] td.total')
    assert term.select_one(".term").extract().get_text() == "a 12-month term billed whole ($861.00 a month)"
    assert term.get_text(strip=True) == "$10,332.00"
    assert "months=12" in page.select_one(".term-note a")["href"].split("&")


def test_over_six_months_the_term_is_1_722_a_month_of_the_horizon(client, year_term_and_spot):
    """Over 6 months the year still bills 10,332.00: 1,722.00 a month of the horizon, above spot's
    1.25 x 700 = 875.00 (the term's own 861.00 would be below it)."""
    page = soup(client.get(f"/?{QUERY}&gpu_hours=700&months=6"))
    assert "a 12-month term, $10,332.00 over your 6-month horizon ($1,722.00 a month of it)" in headline(page)


def test_over_twelve_months_the_term_is_its_monthly_share_and_cheapest(client, year_term_and_spot):
    """Over 12 months the term fits: 861.00 a month, below spot's 875.00 at 700 GPU-hours."""
    page = soup(client.get(f"/?{QUERY}&gpu_hours=700&months=12"))
    assert "the cheapest is Bare metal, committed: $861.00 a month" in headline(page)
    assert page.select_one(".term-note") is None


def test_the_api_ranks_the_term_at_the_horizon_and_says_its_term(client, year_term_and_spot):
    """/api/quote: spot first; the term's total 10,332.00 for the 1-month horizon, month as billed 861.00."""
    body = client.get(f"/api/quote?{QUERY}&gpu_hours=700").json()
    assert [o["option"] for o in body["options"]] == ["virtualized/spot", "bare_metal/committed"]
    term = body["options"][1]
    assert (term["total"], term["horizon_total"], term["month_as_billed"], term["term_months"]) == (
        10332.0, 10332.0, 861.0, 12,
    )  # fmt: skip
    assert body["break_evens"][0]["crossings"] == []


def test_the_cell_and_the_headline_say_what_the_tax_adds(client, year_term_and_spot):
    """With the default 2.6 % tax, spot at 1.25 for 700 hours is 700 / 0.974 x 1.25 = 898.36: 875.00 of
    GPU time + 23.36 for the tax, in its compute cell and beside the headline's figure."""
    page = soup(client.get("/?gpu=H100&gpu_hours=700&invocations=0"))
    cell = page.select_one('tr[data-option="virtualized-spot"] td[data-label="Compute"]')
    parts = "$875.00 of GPU time + $23.36 for the 2.6\u00a0% virtualization tax"
    assert cell.select_one(".assumed-in").extract().get_text() == parts
    assert cell.get_text(strip=True) == "$898.36"
    assert "$898.36 a month (Nebius; $875.00 of GPU time + $23.36 for the 2.6 % virtualization tax)" in headline(page)
    term = page.select_one('tr[data-option="bare_metal-committed"] td[data-label="Compute"]')
    assert term.select_one(".assumed-in") is None


def test_the_cell_says_when_the_tax_takes_a_reserved_node_more(client, session):
    """A virtualized monthly node at 1,230.00 carries 693.5 GPU-hours of work with a typed 5 % tax: 700
    hours take two, 2,460.00, one of them for the tax; at 500 hours one node and nothing said."""
    cloud = make_provider(session, "ovh", "FR", tiers=[(0, None, "0")])
    make_offer(session, cloud, "1230", "virtualized", "monthly", "month")
    page = soup(client.get("/?gpu=H100&gpu_hours=700&invocations=0&virt_tax=5"))
    cell = page.select_one('tr[data-option="virtualized-monthly"] td[data-label="Compute"]')
    parts = "$1,230.00 of GPU time + $1,230.00 for 1 more unit the 5\u00a0% virtualization tax needs"
    assert cell.select_one(".assumed-in").get_text() == parts
    page = soup(client.get("/?gpu=H100&gpu_hours=500&invocations=0&virt_tax=5"))
    assert page.select_one('tr[data-option="virtualized-monthly"] .assumed-in') is None


def test_with_the_term_cheapest_every_line_says_what_its_total_is_of(client, year_term_and_spot):
    """Bare metal only: the year term is the answer, 10,332.00 over a 1-month horizon: the headline
    names the term and the answer line says its total is the horizon's, never "a month"."""
    page = soup(client.get(f"/?{QUERY}&gpu_hours=500&tenancy=bare_metal"))
    assert "the cheapest is Bare metal, committed: a 12-month term, $10,332.00 over your 1-month horizon" in (
        headline(page)
    )
    line = " ".join(page.select_one(".answer-line").get_text().split())
    assert (
        line == "Cheapest: Bare metal, committed at $10,332.00 over your 1-month horizon, a 12-month term billed whole"
    )
    assert page.select_one("table.options thead").get_text(" ", strip=True).count("Total / month of your horizon") == 1


def test_the_api_says_what_the_tax_adds(client, year_term_and_spot):
    """Spot at 700 hours: 898.36 of compute, 23.36 of it for the 2.6 % tax; the term's bare metal none."""
    body = client.get("/api/quote?gpu=H100&gpu_hours=700&invocations=0").json()
    spot, term = body["options"]
    assert (spot["compute"], spot["virtualization_tax"], spot["cold_starts"]) == (898.36, 23.36, 0.0)
    assert term["virtualization_tax"] == 0.0


def test_past_what_one_gpu_runs_the_list_says_more_gpus_run_at_once(client, year_term_and_spot):
    """One GPU at once runs at most 730 GPU-hours a month; the chart reaches 1,000, so under the
    break-evens the page says that past 730 the curves price more GPUs at once. With 2 GPUs at once
    (1,460 GPU-hours, the range 1,500) the same note names 1,460."""
    note = soup(client.get(f"/?{QUERY}&gpu_hours=500")).select_one(".at-once-past").get_text(" ", strip=True)
    assert note.startswith("1 GPU at once runs at most 730 GPU-hours a month")
    note = (
        soup(client.get(f"/?{QUERY}&gpu_hours=500&peak_gpus=2")).select_one(".at-once-past").get_text(" ", strip=True)
    )
    assert note.startswith("2 GPUs at once run at most 1,460 GPU-hours a month")
