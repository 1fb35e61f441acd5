"""Every price's age in sight: said beside each price, flagged in the headline where the answer rests on an
undated price or one past 90 days, a filter of prices dated within N days, and "the price list of" named by
its newest price, never by the day the database was made. Today is pinned (`today_is`)."""

from datetime import date

import pytest
from sqlmodel import select

from app.catalog.ages import age_days, age_said
from app.catalog.tables import CatalogVersion, OfferVersion
from tests.factories import hand_checked_catalog
from tests.web.helpers import QUERY, soup, totals
from tests.web.test_dead_ends import detours
from tests.web.test_scenarios import save_via_page

DEC_6 = date(2026, 12, 6)


def dated(session, **as_of):
    """The hand-checked catalog with some offers' as-of dates changed, by name (None: undated)."""
    ids = hand_checked_catalog(session)
    for name, day in as_of.items():
        offer = session.get(OfferVersion, ids[name])
        offer.as_of = day
        session.add(offer)
    session.commit()
    return ids


def test_a_price_age_is_whole_days_to_today_or_undated():
    """2025-01-21 to 2025-12-06: 10 days of January, 28 + 31 + 30 + 31 + 30 + 31 + 31 + 30 + 31 + 30 = 303
    from February to November, 6 of December: 319."""
    assert age_said(date(2026, 11, 30), DEC_6) == "as of 2026-11-30, 6 days old"
    assert age_said(date(2026, 12, 5), DEC_6) == "as of 2026-12-05, 1 day old"
    assert age_said(None, DEC_6) == "undated"
    assert age_days(date(2025, 1, 21), date(2025, 12, 6)) == 319
    assert age_days(None, DEC_6) is None


def test_the_providers_bills_say_each_price_age(client, session, today_is):
    """2026-12-01 to 2026-12-06: 5 days; 2026-11-01: 35; the serverless price undated."""
    dated(session, node=date(2026, 12, 1), serverless=None)
    today_is(DEC_6)
    page = soup(client.get(f"/?{QUERY}&providers=total"))
    ages = {tr.th.get_text(): tr.select_one(".age").get_text() for tr in page.select("#provider-bills tbody tr")}
    assert ages == {"Cloud": "as of 2026-11-01, 35 days old", "Metal": "as of 2026-12-01, 5 days old", "Fn": "undated"}


def headline(client, query=QUERY):
    return soup(client.get(f"/?{query}")).select_one("p.headline")


def test_the_headline_says_nothing_of_a_price_90_days_old_and_flags_one_91_days_old(client, session, today_is):
    """The answer, Cloud's on demand at 1,003.60, rests on its price as of 2026-11-01: 90 days old on
    2027-01-30 (30 days of November, 31 of December, 29 of January), 91 the next day."""
    hand_checked_catalog(session)
    today_is(date(2027, 1, 30))
    assert headline(client).select_one(".price-age") is None
    today_is(date(2027, 1, 31))
    said = headline(client)
    assert said.select_one(".price-age").get_text() == "its price is 91 days old"
    assert said.get_text(" ", strip=True).startswith("At 400 GPU-hours a month of H100, the cheapest is")


def test_an_undated_cheapest_price_is_flagged_after_the_answer(client, session, today_is):
    dated(session, on_demand=None)
    today_is(DEC_6)
    said = headline(client)
    text = said.get_text(" ", strip=True)
    flag = "its price is undated: check it with the provider before you sign"
    assert said.select_one(".price-age").get_text() == flag
    assert text.index("$1,003.60") < text.index(flag)
    ages = [a.get_text() for a in soup(client.get(f"/?{QUERY}")).select("table.options .age")]
    assert ages[0] == "undated"


@pytest.mark.parametrize(
    ("node_as_of", "flag"),
    [
        (date(2026, 11, 1), "the base's price is 120 days old; the burst's price is 120 days old"),
        (date(2027, 2, 1), "the burst's price is 120 days old"),
    ],
)
def test_a_split_headline_flags_the_base_and_burst_prices_it_rests_on(client, session, today_is, node_as_of, flag):
    """2 GPUs on Metal's nodes and bursts to Cloud's on demand as of 2026-11-01: on 2027-03-01 (30 + 31 + 31
    + 28 days) 120 days old; Metal's price dated 2027-02-01 instead is 28 days old, unremarked."""
    dated(session, node=node_as_of)
    split = "job=split&gpu=H100&base_gpus=2&split_peak=10&peak_hours=100&checkpoints_out=0"
    today_is(date(2027, 3, 1))
    said = headline(client, split)
    text = said.get_text(" ", strip=True)
    assert text.startswith("Dedicate 2 H100 on monthly dedicated servers (Metal) and burst to Virtualized, on demand")
    assert said.select_one(".price-age").get_text() == flag


def offers_left(client, query):
    return int(soup(client.get(f"/?{query}")).select_one(".offers-left").get_text())


def test_only_prices_dated_within_n_days_pass_and_undated_ones_never(client, session, today_is):
    """On 2026-12-06: the node as of 2026-12-01 (5 days), on demand as of 2026-11-01 (35), serverless
    undated. Within 35 days: 2; 34: 1; 5: 1; 36,500: still 2, the undated one never."""
    dated(session, node=date(2026, 12, 1), serverless=None)
    today_is(DEC_6)
    counts = {n: offers_left(client, f"{QUERY}&dated_within={n}") for n in (36_500, 35, 34, 5)}
    assert counts == {36_500: 2, 35: 2, 34: 1, 5: 1}
    assert offers_left(client, QUERY) == 3
    api = {n: len(client.get(f"/api/offers?dated_within={n}").json()) for n in (35, 34, 4)}
    assert api == {35: 2, 34: 1, 4: 0}


def test_the_explorer_filters_by_date_and_says_each_age(client, session, today_is):
    dated(session, node=date(2026, 12, 1), serverless=None)
    today_is(DEC_6)
    page = soup(client.get("/offers?cols=provider&cols=as_of&dated_within=34"))
    assert page.select_one(".counts strong.total").get_text() == "1"
    every = soup(client.get("/offers?cols=provider&cols=as_of&sort=provider"))
    ages = [td.contents[0].strip() for td in every.select('table.offers tbody td[data-label="Price date"]')]
    assert ages == ["as of 2026-11-01, 35 days old", "undated", "as of 2026-12-01, 5 days old"]


def test_a_date_filter_that_leaves_nothing_points_at_widening_or_dropping_it(client, session, today_is):
    """Within 4 days of 2026-12-06 no hand-checked price is dated: the least widening that answers is 5 days
    (the node as of 2026-12-01), 1 offer; every date gives all 3. Each link, followed, gives what it promised."""
    dated(session, node=date(2026, 12, 1), serverless=None)
    today_is(DEC_6)
    page = soup(client.get(f"/?{QUERY}&dated_within=4"))
    assert page.select_one("p.problem").get_text(strip=True).startswith("No offers of H100 match these filters")
    found = detours(page)
    assert [d[:2] for d in found[:2]] == [
        ("Prices dated within 5 days", 1),
        ("With prices of any date, undated too", 3),
    ]
    assert [offers_left(client, url.split("?", 1)[1]) for _, _, url in found[:2]] == [1, 3]
    explorer = detours(soup(client.get("/offers?dated_within=4")))
    assert [d[:2] for d in explorer[:2]] == [
        ("Prices dated within 5 days", 1),
        ("With prices of any date, undated too", 3),
    ]


def test_a_saved_link_keeps_the_prices_its_date_filter_passed_when_saved(client, session, today_is):
    """Saved on 2026-12-06 with prices dated within 5 days: Metal's node, as of 2026-12-01, at 1,250.00.
    On 2026-12-20 the same filter passes nothing, yet the saved link still counts back from 2026-12-06; its
    headline says so, and the API's save keeps that day too."""
    dated(session, node=date(2026, 12, 1), serverless=None)
    today_is(DEC_6)
    link = save_via_page(client, f"{QUERY}&dated_within=5").headers["location"]
    saved = client.post("/api/scenarios", json={"params": {"gpu_hours": 400, "dated_within": 5}}).json()
    assert saved["params"]["dated_on"] == "2026-12-06"
    today_is(date(2026, 12, 20))
    page = soup(client.get(link))
    assert totals(page) == {"bare_metal-monthly": "$1,250.00"}
    said = page.select_one("p.headline").get_text(" ", strip=True)
    assert "among offers with prices dated within 5 days of 2026-12-06" in said
    assert soup(client.get(f"/?{QUERY}&dated_within=5")).select_one("p.problem") is not None


def test_the_api_gives_each_price_age_beside_its_date(client, session, today_is):
    dated(session, node=date(2026, 12, 1), serverless=None)
    today_is(DEC_6)
    body = client.get(f"/api/quote?{QUERY}&providers=total").json()
    assert {o["provider"]: (o["offer"]["as_of"], o["offer"]["age_days"]) for o in body["options"]} == {
        "Cloud": ("2026-11-01", 35),
        "Metal": ("2026-12-01", 5),
        "Fn": (None, None),
    }
    assert {b["provider"]: (b["as_of"], b["age_days"]) for b in body["providers"]} == {
        "Cloud": ("2026-11-01", 35),
        "Metal": ("2026-12-01", 5),
        "Fn": (None, None),
    }
    offers = client.get("/api/offers").json()
    assert sorted((o["as_of"], o["age_days"]) for o in offers if o["as_of"]) == [("2026-11-01", 35), ("2026-12-01", 5)]
    today_is(date(2026, 12, 7))
    again = client.get(f"/api/quote?{QUERY}").json()
    assert [o["offer"]["age_days"] for o in again["options"] if o["provider"] == "Cloud"] == [36]


def test_no_page_names_the_price_list_by_the_day_the_database_was_made(client, session, today_is):
    """The hand-checked prices are all as of 2026-11-01; the versions were made today, by the clock."""
    dated(session, node=date(2026, 12, 1))
    today_is(DEC_6)
    made = {f"the price list of {v.created_at:%Y-%m-%d}" for v in session.exec(select(CatalogVersion))}
    assert "the price list of 2026-12-01" not in made
    pages = [f"/?{QUERY}", "/offers", "/?job=split&gpu=H100&base_gpus=2&split_peak=10&peak_hours=100&checkpoints_out=0"]
    for url in pages:
        text = soup(client.get(url)).get_text(" ", strip=True)
        assert "the price list of 2026-12-01" in text, url
        assert not any(m in text for m in made), url
    refused = client.get(f"/api/quote?{QUERY}&offer=gone").json()
    assert "is not an offer in the price list of 2026-12-01" in str(refused)
