"""Prices in the currency they are published in: a EUR price stays EUR in the catalog, is converted to
USD at the quoted version's rate (the shipped ECB rate, 1 EUR = 1.1684 USD of 2026-04-13) so that it
ranks against USD prices at that one rate, and is marked as converted wherever it is shown in another
currency. A price whose source states no currency is listed, never quoted."""

import pytest

from app.catalog.changes import new_version
from app.catalog.updates import ecb_rate_2026_04
from tests.factories import make_offer, make_provider
from tests.web.helpers import soup

QUERY = "gpu=H100&gpu_hours=500&peak_gpus=1&months=3&virt_tax=0&invocations=0&egress_gb=0"
"""One H100 for 500 GPU-hours a month over 3 months, no virtualisation tax, no egress."""


def _with_the_shipped_rate(session):
    ecb_rate_2026_04(session, new_version(session, "the shipped rate"))
    session.commit()


@pytest.fixture
def eur_server(session):
    """A 1-GPU dedicated server at EUR 997.30 a month and EUR 999 to set it up (Hetzner's GEX63 as
    published), beside a USD cloud at 2.50 a GPU-hour; neither charges for egress."""
    metal = make_provider(session, "metal", "DE", tiers=[(0, None, "0")], currency="EUR")
    cloud = make_provider(session, "cloud", tiers=[(0, None, "0")])
    server = make_offer(session, metal, "997.30", "bare_metal", "monthly", "month", setup_fee="999",
                        currency="EUR", region="hel1", region_country="FI")  # fmt: skip
    make_offer(session, cloud, "2.50")
    _with_the_shipped_rate(session)
    return server


def _server(body):
    return next(o for o in body["options"] if o["option"] == "bare_metal/monthly")


def test_a_eur_997_30_month_is_1165_25_usd_at_1_1684_and_997_30_in_euros(client, eur_server):
    """997.30 x 1.1684 = 1,165.24532 -> 1,165.25 a month; the fee 999 x 1.1684 = 1,167.2316 -> 1,167.23
    once; over 3 months 3 x 1,165.25 + 1,167.23 = 4,662.98. In EUR the published figures come back:
    997.30 a month, 999.00 once, 3 x 997.30 + 999 = 3,990.90."""
    usd = _server(client.get(f"/api/quote?{QUERY}").json())
    assert (usd["total"], usd["setup_fee"], usd["horizon_total"]) == (1165.25, 1167.23, 4662.98)
    assert (usd["offer"]["price"], usd["offer"]["currency"]) == (997.3, "EUR")
    eur = _server(client.get(f"/api/quote?{QUERY}&currency=EUR").json())
    assert (eur["total"], eur["setup_fee"], eur["horizon_total"]) == (997.30, 999.0, 3990.90)


def test_the_page_marks_a_price_converted_from_the_currency_it_is_published_in(client, eur_server):
    """The EUR server shown in USD, the USD cloud shown in EUR; the month leaves the fee out and shows
    it apart, in the currency shown."""
    row = soup(client.get(f"/?{QUERY}")).select_one('tr[data-option="bare_metal-monthly"]')
    assert row.select_one(".setup-fee").get_text(strip=True) == "+ $1,167.23 once"
    offer = " ".join(row.select_one('td[data-label="Offer"]').get_text().split())
    assert "€997.30 per month, converted from EUR at 1 EUR = 1.1684 USD, the rate of 2026-04-13" in offer
    page = soup(client.get(f"/?{QUERY}&currency=EUR"))
    row = page.select_one('tr[data-option="bare_metal-monthly"]')
    assert row.select_one(".setup-fee").get_text(strip=True) == "+ €999.00 once"
    assert row.select_one(".converted") is None
    cloud = page.select_one('tr[data-option="virtualized-on_demand"] .converted').get_text(strip=True)
    assert cloud == "converted from USD at 1 EUR = 1.1684 USD, the rate of 2026-04-13"


@pytest.mark.parametrize(
    ("eur_per_hour", "chosen", "usd_total", "eur_total"),
    [
        # 2.00 EUR = 2.3368 USD, dearer than 2.30 USD: the USD offer, 1,150.00 USD = 984.2520 EUR.
        ("2.00", "USD", 1150.0, 984.25),
        # 1.95 EUR = 2.27838 USD, cheaper than 2.30 USD: the EUR offer, 975.00 EUR = 1,139.19 USD.
        ("1.95", "EUR", 1139.19, 975.0),
    ],
)
def test_a_eur_and_a_usd_offer_rank_at_one_rate_whichever_currency_is_shown(
    client, session, eur_per_hour, chosen, usd_total, eur_total
):
    """Two on-demand H100s, 500 GPU-hours: the option's offer is the cheaper one at 1.1684, in USD and in EUR alike."""
    eu = make_provider(session, "eu", "DE", tiers=[(0, None, "0")], currency="EUR")
    us = make_provider(session, "us", tiers=[(0, None, "0")])
    make_offer(session, eu, eur_per_hour, currency="EUR", region="fra", region_country="DE")
    make_offer(session, us, "2.30")
    _with_the_shipped_rate(session)
    for currency, total in [("USD", usd_total), ("EUR", eur_total)]:
        body = client.get(f"/api/quote?{QUERY}&currency={currency}").json()
        [cloud] = [o for o in body["options"] if o["option"] == "virtualized/on_demand"]
        assert (cloud["offer"]["currency"], cloud["total"]) == (chosen, total)


def test_egress_published_in_euros_is_converted_at_the_same_rate(client, session):
    """The default checkpoint of 140 GB moved out once, and 1,000 GB more: 1,140 GB at EUR 0.01 =
    EUR 11.40 = 13.31976 USD -> 13.32."""
    eu = make_provider(session, "eu", "DE", tiers=[(0, None, "0.01")], currency="EUR")
    make_offer(session, eu, "2.00", currency="EUR", region="fra", region_country="DE")
    _with_the_shipped_rate(session)
    [usd] = client.get(f"/api/quote?{QUERY}&egress_gb=1000").json()["options"]
    [eur] = client.get(f"/api/quote?{QUERY}&egress_gb=1000&currency=EUR").json()["options"]
    assert (usd["egress"], eur["egress"]) == (13.32, 11.4)


def test_a_price_without_a_stated_currency_is_listed_as_published_and_never_quoted(client, session):
    """Lyceum's 2.79 an hour states no currency: the explorer lists it so, and the quote takes the
    dearer USD offer rather than guess."""
    lyceum = make_provider(session, "lyceum", "DE", tiers=[(0, None, "0")])
    us = make_provider(session, "us", tiers=[(0, None, "0")])
    make_offer(session, lyceum, "2.79", currency="", product="h100.1x", region="not stated", region_country=None)
    make_offer(session, us, "3.00")
    body = client.get(f"/api/quote?{QUERY}").json()
    assert [(o["provider"], o["total"]) for o in body["options"]] == [("Us", 1500.0)]
    page = soup(client.get("/offers?gpu=H100&cols=provider&cols=price&cols=per_gpu_hour&sort=provider"))
    rows = [[" ".join(td.get_text().split()) for td in tr.select("td")] for tr in page.select("table tbody tr")]
    assert rows == [
        ["Lyceum", "2.79 (currency not stated) per hour", "not quoted", "Not quoted: its source states no currency"],
        ["Us", "$3.00 per hour", "$3.0000", "Price my workload"],
    ]


def test_a_gpu_offered_only_without_a_stated_currency_says_why_nothing_is_quoted(client, session):
    seeweb = make_provider(session, "seeweb", None, tiers=[(0, None, "0")])
    make_offer(
        session, seeweb, "0.29", gpu="A30", currency="", product="ECS1GPU11", region="it-fr2", region_country="IT"
    )
    problem = " ".join(soup(client.get("/?gpu=A30")).select_one("p.problem").get_text().split())
    assert problem.endswith(
        "1 offer of A30 (Seeweb) cannot be quoted: its source states no currency. See it as published."
    )


def test_a_eur_price_in_a_version_without_a_rate_is_listed_and_says_why_it_is_not_quoted(client, session):
    """No rate is shipped here: the EUR offer cannot be converted, so it is neither guessed nor quoted."""
    eu = make_provider(session, "eu", "DE", tiers=[(0, None, "0")], currency="EUR")
    us = make_provider(session, "us", tiers=[(0, None, "0")])
    eur = make_offer(session, eu, "1.00", currency="EUR", region="fra", region_country="DE")
    make_offer(session, us, "3.00")
    assert [o["provider"] for o in client.get(f"/api/quote?{QUERY}").json()["options"]] == ["Us"]
    row = soup(client.get("/offers?gpu=H100&provider=eu")).select_one("table tbody tr")
    assert row.select_one("td.quote").get_text(strip=True) == "Not quoted: this catalog version holds no EUR rate"
    pinned = client.get("/api/quote", params={"gpu": "H100", "offer": eur.key})
    assert pinned.status_code == 422 and "cannot be quoted: this catalog version holds no EUR rate" in pinned.text
