"""A saved scenario quoted at each price list since it was saved (issue 25): when its answer moved and
by how much, worked by hand on the hand-checked catalog at 400 GPU-hours of H100."""

from datetime import date
from decimal import Decimal

from app.catalog.changes import Change, change_offer_price, retire_offer
from app.catalog.rate_changes import change_rate
from app.catalog.tables import Provenance
from app.scenarios import versions
from tests.factories import hand_checked_catalog
from tests.web.helpers import QUERY, soup
from tests.web.test_scenarios import save_via_page

SOURCE = "https://example.test/new"


def words(tag) -> str:
    return " ".join(tag.get_text().split())


def rows_of(page) -> list[list[str]]:
    return [[words(tr.th)] + [words(td) for td in tr.select("td")] for tr in page.select("table.versions tbody tr")]


def raise_twice(session, ids) -> None:
    """Version 2: on demand 2.50 -> 3.00; version 3: serverless retired; version 4: on demand 3.50."""
    risen = change_offer_price(session, ids["on_demand"], Decimal("3.00"), SOURCE, date(2026, 11, 28), "up")
    retire_offer(session, ids["serverless"], "gone")
    change_offer_price(session, risen.id, Decimal("3.50"), SOURCE, date(2026, 11, 29), "up again")


def test_on_demand_rising_twice_moves_the_answer_to_the_monthly_node(client, session):
    """Saved at version 1: on demand at 2.50, 1,003.60 a month (400 x 2.50 + egress 3.60). Version 2:
    3.00, 1,203.60 (+200.00). Version 3 retires serverless, which was never the cheapest: not listed.
    Version 4: 3.50 makes on demand 1,403.60, so the 1,250.00 monthly node is cheapest (+246.40)."""
    ids = hand_checked_catalog(session)
    slug = save_via_page(client).headers["location"]
    raise_twice(session, ids)
    assert "/versions" in soup(client.get(slug)).select_one(f"a[href='{slug}/versions']")["href"]
    page = soup(client.get(f"{slug}/versions"))
    rows = rows_of(page)
    assert [row[0].split(" version ")[1] for row in rows] == ["1, as saved", "2", "4"]
    assert [row[1:] for row in rows] == [
        ["Virtualized, on demand (Cloud)", "$1,003.60", ""],
        ["Virtualized, on demand (Cloud)", "$1,203.60", "+$200.00"],
        ["Bare metal, monthly node (Metal)", "$1,250.00", "+$246.40"],
    ]
    assert "+$246.40 since saved" in words(page.select_one("p.headline"))
    assert words(page.select_one("p.note")) == (
        "3 later price lists quoted; those that left the answer as it was are not listed."
    )


def test_only_the_newest_price_lists_are_quoted_and_the_page_says_how_many_it_left(client, session, monkeypatch):
    """With 2 quoted, versions 3 and 4: version 2 is left out, and version 3 (3.00, retired serverless)
    shows the +200.00 that version 2 made."""
    monkeypatch.setattr(versions, "VERSIONS_MOST", 2)
    ids = hand_checked_catalog(session)
    slug = save_via_page(client).headers["location"]
    raise_twice(session, ids)
    page = soup(client.get(f"{slug}/versions"))
    assert [row[0].split(" version ")[1] for row in rows_of(page)] == ["1, as saved", "3", "4"]
    assert rows_of(page)[1][-1] == "+$200.00"
    assert words(page.select_one("p.note")).endswith("1 older one between is not quoted: the page quotes the 2 newest.")


def test_a_scenario_with_no_later_price_list_says_so_and_an_unknown_link_is_not_found(client, session):
    hand_checked_catalog(session)
    slug = save_via_page(client).headers["location"]
    page = soup(client.get(f"{slug}/versions"))
    assert words(page.select_one("p.headline")).endswith("No price list has been published since.")
    assert page.select_one("table.versions") is None
    assert client.get("/s/AAAAAAAAAAAAAAAA/versions").status_code == 404


def test_in_euros_each_price_list_converts_once_at_its_own_rate(client, session):
    """Saved in EUR at 1.25 USD a euro: 1,003.60 / 1.25 = €802.88. Then on demand rises to 3.00
    (1,203.60 / 1.25 = €962.88, +€160.00), then the euro to 1.50: €802.40, −€0.48 since saved."""
    ecb = Provenance(
        source="https://www.ecb.europa.eu/stats/eurofxref/", as_of=date(2026, 11, 27), source_kind="official"
    )
    ids = hand_checked_catalog(session)
    change_rate(session, "EUR", Decimal("1.25"), ecb, Change("test rate", "test"))
    slug = save_via_page(client, query=f"{QUERY}&currency=EUR").headers["location"]
    change_offer_price(session, ids["on_demand"], Decimal("3.00"), SOURCE, date(2026, 11, 28), "up")
    change_rate(session, "EUR", Decimal("1.50"), ecb, Change("euro up", "test"))
    rows = rows_of(soup(client.get(f"{slug}/versions")))
    assert [row[2:] for row in rows] == [["€802.88", ""], ["€962.88", "+€160.00"], ["€802.40", "−€0.48"]]
