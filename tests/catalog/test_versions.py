from datetime import date
from decimal import Decimal

import pytest

from app.catalog.changes import StaleRecord, change_offer_price, retire_offer
from tests.web.scenario import hand_checked_catalog
from tests.web.test_calculator_page import QUERY


def on_demand_total(client, extra=""):
    body = client.get(f"/api/quote?{QUERY}{extra}").json()
    return body["catalog_version"], next(o["total"] for o in body["options"] if o["option"] == "virtualized/on_demand")


def test_price_change_adds_a_version_and_earlier_versions_still_quote_the_old_price(client, session):
    """2.50 -> 3.00 per GPU-h: at 400 h the total goes from 1,003.60 to 1,203.60 (egress 3.60)."""
    ids = hand_checked_catalog(session)
    change_offer_price(
        session, ids["on_demand"], Decimal("3.00"), "https://example.test/new", date(2026, 11, 20), "raise"
    )
    assert on_demand_total(client) == (2, 1203.60)
    assert on_demand_total(client, "&catalog_version=1") == (1, 1003.60)


def test_retired_offer_leaves_new_quotes_but_not_old_ones(client, session):
    ids = hand_checked_catalog(session)
    retire_offer(session, ids["serverless"], "gone")
    options = lambda extra="": {o["option"] for o in client.get(f"/api/quote?{QUERY}{extra}").json()["options"]}  # noqa: E731
    assert "serverless/per_second" not in options()
    assert "serverless/per_second" in options("&catalog_version=1")


def test_a_replaced_price_cannot_be_changed_again(session):
    ids = hand_checked_catalog(session)
    change_offer_price(session, ids["on_demand"], Decimal("3.00"), "https://example.test/a", date(2026, 11, 20), "a")
    with pytest.raises(StaleRecord):
        change_offer_price(
            session, ids["on_demand"], Decimal("4.00"), "https://example.test/b", date(2026, 11, 21), "b"
        )
