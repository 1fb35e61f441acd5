"""A setup fee on the page and in the API: shown apart from the month ("+ $999.00 once"), once in
the horizon's total, and in the break-evens of a horizon; carried wherever an offer's fields go."""

import csv
import io

import pytest
from sqlmodel import select

from app.admin.accounts import create_admin
from app.catalog.exports import export_offers_csv
from app.catalog.tables import OfferVersion
from tests.factories import hand_checked_catalog, make_offer, make_provider
from tests.web.helpers import NEW_OFFER, PASSWORD, csrf, html, signed_in_as, soup

QUERY = "gpu=H100&gpu_hours=500&months=3&virt_tax=0&invocations=0"
"""500 GPU-hours a month over 3 months, no tax: the hand calculations below."""


@pytest.fixture
def server_and_cloud(session):
    """A 2-GPU dedicated server at 1,000 USD a month with 999 USD to set it up, and on demand at 2.50
    a GPU-hour; neither provider charges for egress."""
    metal = make_provider(session, "metal", "DE", tiers=[(0, None, "0")])
    cloud = make_provider(session, "cloud", tiers=[(0, None, "0")])
    server = make_offer(session, metal, "1000", "bare_metal", "monthly", "month", gpus_per_unit=2, setup_fee="999")
    make_offer(session, cloud, "2.50")
    return server


def test_the_month_leaves_the_fee_out_and_shows_it_apart_and_the_horizon_adds_it_once(client, server_and_cloud):
    """The server's month is 1,000.00, "+ $999.00 once" beside it; over 3 months 3 x 1,000 + 999 =
    3,999.00. On demand: 2.50 x 500 = 1,250.00 a month, 3,750.00 over 3 months, no fee."""
    page = soup(client.get(f"/?{QUERY}"))
    server = page.select_one('tr[data-option="bare_metal-monthly"]')
    fee = server.select_one("td.total .setup-fee").extract()
    assert fee.get_text(strip=True) == "+ $999.00 once"
    assert server.select_one("td.total").get_text(strip=True) == "$1,000.00"
    assert server.select_one('td[data-label="Over 3 months"]').get_text(strip=True) == "$3,999.00"
    cloud = page.select_one('tr[data-option="virtualized-on_demand"]')
    assert cloud.select_one("td.total").get_text(strip=True) == "$1,250.00"
    assert cloud.select_one('td[data-label="Over 3 months"]').get_text(strip=True) == "$3,750.00"


def test_the_break_even_over_the_horizon_spreads_the_fee_over_its_months(client, server_and_cloud):
    """2.50 x H = 1,000 + 999 / 3 = 1,333.00 at H = 533.2 GPU-hours; over 1 month 2.50 x H = 1,999 at
    799.6 (without the fee it would be 400 at any horizon)."""
    for months, hours in [(3, "533.2"), (1, "799.6")]:
        page = soup(client.get(f"/?{QUERY}&months={months}"))
        listed = [" ".join(li.get_text().split()) for li in page.select("ol.break-evens li")]
        pair = "Virtualized, on demand vs Bare metal, monthly node"
        assert listed == [f"{pair}: {hours} GPU-h (Bare metal, monthly node cheaper above)"]


def test_the_api_quote_carries_the_fee_apart_and_in_the_horizon_total(client, server_and_cloud):
    """As the page: total 1,000.00, setup_fee 999.00, horizon_total 3,999.00; break-even at 533.2 GPU-hours."""
    body = client.get(f"/api/quote?{QUERY}").json()
    server = next(o for o in body["options"] if o["option"] == "bare_metal/monthly")
    assert (server["total"], server["setup_fee"], server["horizon_total"]) == (1000.0, 999.0, 3999.0)
    assert server["offer"]["setup_fee"] == 999.0
    cloud = next(o for o in body["options"] if o["option"] == "virtualized/on_demand")
    assert (cloud["setup_fee"], cloud["offer"]["setup_fee"]) == (0.0, None)
    [pair] = body["break_evens"]
    assert [c["gpu_hours"] for c in pair["crossings"]] == [pytest.approx(533.2)]


def test_the_fee_is_in_the_offers_api_the_csv_export_and_the_explorer(client, session, server_and_cloud):
    offers = {o["product"]: o for o in client.get("/api/offers?gpu=H100").json()}
    assert offers[server_and_cloud.product]["setup_fee"] == 999.0
    exported = list(csv.DictReader(io.StringIO(export_offers_csv(session, server_and_cloud.valid_from))))
    assert [row["setup_fee"] for row in exported] == ["999", ""]
    page = soup(client.get("/offers?gpu=H100&cols=provider&cols=setup_fee&sort=setup_fee"))
    cells = [" ".join(td.get_text().split()) for td in page.select("table tbody td:nth-of-type(2)")]
    assert cells == ["$999.00", "none stated"]


@pytest.fixture
def admin(client, session):
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)


def _current(session, key):
    return session.exec(select(OfferVersion).where(OfferVersion.key == key, OfferVersion.valid_to.is_(None))).one()


def test_an_admin_adds_an_offer_with_a_fee_and_sets_it_again_with_the_price(client, session, admin):
    """A new offer with 999 to set up; its edit form shows the fee, a price change keeps it as typed,
    an empty field means none, and a fee is checked as a price is."""
    new = NEW_OFFER | {"csrf_token": csrf(client, "/admin/new-offer"), "setup_fee": "999"}
    assert client.post("/admin/new-offer", data=new, follow_redirects=False).status_code == 303
    key = "cloud:new:H100:r:on_demand"
    row = _current(session, key)
    assert row.setup_fee == 999
    form = html(client.get(f"/admin/offers/{row.id}"))
    assert form.select_one("#setup_fee")["value"] == "999"
    edit = {"csrf_token": csrf(client, f"/admin/offers/{row.id}"), "price": "5.00", "setup_fee": "-1",
            "source_url": "https://example.test/x", "as_of": "2026-11-20", "note": "setup fee"}  # fmt: skip
    refused = client.post(f"/admin/offers/{row.id}", data=edit)
    assert html(refused).select_one("#setup_fee-error").get_text() == "must be a price of 0 or more"
    saved = client.post(f"/admin/offers/{row.id}", data=edit | {"setup_fee": ""}, follow_redirects=False)
    assert saved.status_code == 303
    assert _current(session, key).setup_fee is None
    history = html(client.get("/admin/history", params={"key": key})).select_one("tbody tr td:nth-of-type(4)")
    assert " ".join(history.get_text().split()) == "setup_fee: 999 → —"


def test_the_headline_ranks_by_a_month_of_the_horizon_and_names_the_fee(client, server_and_cloud):
    """Over 3 months the server is 1,000 + 999 / 3 = 1,333.00 a month of the horizon against on
    demand's 1,250.00: on demand first, the server next, 83.00 more; over 12 months 1,000 + 83.25 =
    1,083.25: the server first, on demand 166.75 more."""
    headline = " ".join(soup(client.get(f"/?{QUERY}")).select_one(".headline").get_text().split())
    assert "Virtualized, on demand: $1,250.00 a month" in headline
    assert (
        ": $1,000.00 a month + $999.00 once (Metal), $83.00 more a month with setup fees spread over 3 months"
        in headline
    )
    headline = " ".join(soup(client.get(f"/?{QUERY}&months=12")).select_one(".headline").get_text().split())
    assert "Bare metal, monthly node: $1,000.00 a month + $999.00 once" in headline
    assert "$166.75 more a month with setup fees spread over 12 months" in headline
