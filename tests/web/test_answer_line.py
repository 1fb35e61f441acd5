"""The answer in a line, which a narrow screen keeps in view while the inputs change: the headline's
cheapest option and its total, in the page and in every live update."""

from tests.factories import hand_checked_catalog, make_offer, make_provider
from tests.web.helpers import QUERY, soup


def _line(page) -> str:
    return " ".join(page.select_one("#results > .answer-line").get_text().split())


def test_the_line_names_the_cheapest_and_its_total_and_follows_a_move_of_the_egress(client, session):
    """400 h on demand at 2.50 = 1,000 + (140 - 100 free) GB x 0.09 = 3.60 -> 1,003.60, below the node's
    1,250. With 1,000 GB more out: (1,140 - 100) x 0.09 = 93.60 -> 1,093.60, still below it."""
    hand_checked_catalog(session)
    assert _line(soup(client.get(f"/?{QUERY}"))) == "Cheapest: Virtualized, on demand at $1,003.60 a month"

    headers = {"HX-Request": "true", "HX-Current-URL": f"http://testserver/?{QUERY}"}
    moved = soup(client.get(f"/?{QUERY}&egress_gb=1000", headers=headers))
    assert _line(moved) == "Cheapest: Virtualized, on demand at $1,093.60 a month"


def test_where_no_provider_publishes_every_cost_the_line_says_what_it_leaves_out(client, session):
    """Cheap alone, publishing no egress price: 400 h x 2.00 = 800.00 before its egress."""
    make_offer(session, make_provider(session, "cheap"), "2.00")
    assert _line(soup(client.get(f"/?{QUERY}"))) == (
        "Cheapest-looking: Virtualized, on demand at $800.00 a month, before its egress"
    )


def test_without_an_answer_there_is_no_line(client, session):
    """Cloud, the one virtualized provider, has its headquarters in the US: nothing is left to quote."""
    hand_checked_catalog(session)
    page = soup(client.get(f"/?{QUERY}&tenancy=virtualized&exclude_us_hq=on"))
    assert page.select_one("#results p.problem").get_text().startswith("No offers of H100 match these filters")
    assert page.select_one(".answer-line") is None
