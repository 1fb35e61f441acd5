"""Issue 21's dated copies on the shipped catalog: a confirming copy dates an offer at its price, a
differing one reprices it; either way the version before keeps what it had (seed_data/README.md)."""

from datetime import date
from decimal import Decimal

import pytest

from app.catalog.seed import rows_of
from app.catalog.updates import SHIPPED_UPDATES
from tests.factories import shipped_catalogs

DATED = list(rows_of("dated_offers_2026_12.csv"))


@pytest.fixture(scope="module")
def catalogs():
    return shipped_catalogs("sqlite")


@pytest.fixture(scope="module")
def after(catalogs):
    return catalogs.current()


@pytest.fixture(scope="module")
def before(catalogs, after):
    """The catalog just before the dated copies: the version their update opened, less one."""
    (position,) = [i for i, (name, _, _) in enumerate(SHIPPED_UPDATES) if name == "dated-offers-2026-12"]
    version = after.version - (len(SHIPPED_UPDATES) - 1 - position) - 1
    return catalogs.at(version)


def test_undated_prices_fall_by_every_offer_the_copies_date(catalogs, before):
    """Each line of the file dates one offer; those that were undated are no longer (168 of 689)."""
    dated = catalogs.at(before.version + 1)
    newly_dated = sum(before.offers_by_key[r["key"]].row.as_of is None for r in DATED)
    assert (before.undated, newly_dated, dated.undated) == (689, 168, 521)


def test_every_dated_offer_takes_its_copys_price_as_of_and_source(after):
    for r in DATED:
        row = after.offers_by_key[r["key"]].row
        assert (row.price, row.as_of, row.source_url) == (
            Decimal(r["price_usd"]),
            date.fromisoformat(r["as_of"]),
            r["source_url"],
        )
        assert r["quote"] in row.notes


def test_a_confirmed_oci_h100_node_keeps_80_an_hour_dated_2026_01_05(before, after):
    """Oracle's price list: part B98415 H100 at 10 USD a GPU-hour x 8 GPUs = 80 USD an hour."""
    key = "oci:BM.GPU.H100.8:H100:us-phoenix-1:on_demand"
    old, new = before.offers_by_key[key].row, after.offers_by_key[key].row
    assert old.price == new.price == Decimal(80)
    assert (old.as_of, new.as_of) == (None, date(2026, 1, 5))
    assert '"priceUSD": 10' in new.notes and "Read from:" in new.notes


def test_a_confirmed_gcp_a2_highgpu_1g_keeps_its_price_dated_2026_07_30(before, after):
    """Cyclenerd's build publishes 3.673385; the catalog's 3.67339 is the same price to 5 places: kept."""
    key = "gcp:a2-highgpu-1g:A100:us-central1:on_demand"
    old, new = before.offers_by_key[key].row, after.offers_by_key[key].row
    assert old.price == new.price == Decimal("3.67339")
    assert new.as_of == date(2026, 7, 30) and "hour: 3.673385" in new.notes


def test_a_differing_nebius_h100_takes_3_85_read_2026_10_07_and_history_keeps_2_95(before, after):
    """Nebius's page: 3.85 USD per GPU-hour x 8 GPUs = 30.80 USD an hour, where the catalog had 23.60."""
    one = "nebius:gpu-h100-sxm_1gpu-16vcpu-200gb:H100:eu-north1:on_demand"
    eight = "nebius:gpu-h100-sxm_8gpu-128vcpu-1600gb:H100:eu-north1:on_demand"
    assert after.offers_by_key[one].row.price == Decimal("3.85")
    assert after.offers_by_key[eight].row.price == Decimal("30.8")
    assert after.offers_by_key[eight].row.as_of == date(2026, 10, 7)
    assert before.offers_by_key[one].row.price == Decimal("2.95")
    assert before.offers_by_key[eight].row.price == Decimal("23.6")
    assert before.offers_by_key[eight].row.as_of is None


def test_spot_offers_are_left_as_they_were(before, after):
    """The copies' relation compares on-demand prices only; a spot offer is not dated by them."""
    spot = "gcp:a2-highgpu-1g:A100:us-central1:spot"
    assert after.offers_by_key[spot].row == before.offers_by_key[spot].row
    assert all(r["key"].endswith(":on_demand") for r in DATED)


def test_the_copy_of_paperspaces_footnoted_a100_price_is_not_shipped(before, after):
    """ "$ 1.15** / hour": the footnote was not captured (it may be a commitment price)."""
    key = "paperspace:A100-80G:A100-80GB:East Coast (NY2):on_demand"
    assert after.offers_by_key[key].row == before.offers_by_key[key].row
