"""A saved scenario's Atom feed (issue 39): an entry for each price list that moved its answer, worked
by hand on the hand-checked catalog at 400 GPU-hours of H100 (on demand at 2.50: $1,003.60 a month)."""

from datetime import date
from decimal import Decimal
from xml.etree import ElementTree as ET

from app.catalog.changes import change_offer_price
from tests.factories import hand_checked_catalog
from tests.web.helpers import soup
from tests.web.test_scenario_versions import SOURCE, raise_twice
from tests.web.test_scenarios import save_via_page

A = "{http://www.w3.org/2005/Atom}"


def feed_of(client, slug):
    response = client.get(f"{slug}/feed.xml")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    assert feed.tag == f"{A}feed"
    for element in [feed, *feed.findall(f"{A}entry")]:
        assert all(element.find(f"{A}{tag}").text for tag in ("id", "title", "updated"))
    return feed


def summaries(feed):
    return [entry.find(f"{A}summary").text for entry in feed.findall(f"{A}entry")]


def test_a_price_change_that_leaves_the_answer_within_1_percent_adds_no_entry(client, session):
    """On demand 2.50 -> 2.52: 400 x 2.52 + 3.60 = $1,011.60, 0.8 % more, on the same offer."""
    ids = hand_checked_catalog(session)
    slug = save_via_page(client, name="Fine-tune <H100> & co").headers["location"]
    change_offer_price(session, ids["on_demand"], Decimal("2.52"), SOURCE, date(2026, 11, 28), "up a little")
    feed = feed_of(client, slug)
    assert feed.findall(f"{A}entry") == []
    assert feed.find(f"{A}title").text == "Fine-tune <H100> & co: when its answer moves"
    assert feed.find(f"{A}link[@rel='self']").get("href") == f"http://testserver{slug}/feed.xml"


def test_a_price_change_that_moves_the_cheapest_to_another_provider_adds_an_entry(client, session):
    """Version 2: on demand 3.00, $1,203.60 (+20 %, same offer); version 3 retires serverless, never the
    cheapest: no entry; version 4: on demand 3.50 ($1,403.60) leaves the $1,250.00 monthly node cheapest."""
    ids = hand_checked_catalog(session)
    slug = save_via_page(client).headers["location"]
    raise_twice(session, ids)
    feed = feed_of(client, slug)
    assert summaries(feed) == [
        "Cheapest now Bare metal, monthly node at Metal, $1,250.00 a month, "
        "was $1,203.60 with Virtualized, on demand at Cloud.",
        "Cheapest still Virtualized, on demand at Cloud, $1,203.60 a month, was $1,003.60.",
    ]
    entries = feed.findall(f"{A}entry")
    assert [e.find(f"{A}link").get("href") for e in entries] == [
        f"http://testserver{slug}/versions#version-4",
        f"http://testserver{slug}/versions#version-2",
    ]
    assert feed.find(f"{A}updated").text == entries[0].find(f"{A}updated").text
    versions_page = soup(client.get(f"{slug}/versions"))
    assert versions_page.select_one("tr#version-4") is not None


def test_small_moves_that_add_up_past_1_percent_are_told_once(client, session):
    """2.52 ($1,011.60, +0.8 %) is not news; 2.53 ($1,015.60, +1.2 % on the saved $1,003.60) is."""
    ids = hand_checked_catalog(session)
    slug = save_via_page(client).headers["location"]
    risen = change_offer_price(session, ids["on_demand"], Decimal("2.52"), SOURCE, date(2026, 11, 28), "up")
    change_offer_price(session, risen.id, Decimal("2.53"), SOURCE, date(2026, 11, 29), "up again")
    assert summaries(feed_of(client, slug)) == [
        "Cheapest still Virtualized, on demand at Cloud, $1,015.60 a month, was $1,003.60."
    ]


def test_the_saved_page_links_its_feed_and_an_unknown_link_has_none(client, session):
    hand_checked_catalog(session)
    slug = save_via_page(client).headers["location"]
    page = soup(client.get(slug))
    assert page.select_one("head link[rel=alternate][type='application/atom+xml']")["href"] == f"{slug}/feed.xml"
    assert page.select_one("a.feed")["href"] == f"{slug}/feed.xml"
    assert soup(client.get("/")).select_one("head link[type='application/atom+xml']") is None
    assert client.get("/s/AAAAAAAAAAAAAAAA/feed.xml").status_code == 404
