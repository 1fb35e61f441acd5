from collections import Counter

import pytest
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, SQLModel, create_engine

from app.catalog.seed import load_seed
from app.catalog.snapshot import catalogs_for, select_offers
from app.costing.egress import check_tiers
from app.costing.terms import Tenancy


@pytest.fixture(scope="module")
def shipped():
    """The shipped catalog, loaded once for this module's checks (none of them writes)."""
    engine = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        load_seed(session)
        session.commit()
    return catalogs_for(engine).at(1)


def test_shipped_catalog_holds_offers_of_all_three_tenancies(shipped):
    counts = Counter(o.priced.tenancy for o in shipped.offers)
    assert set(counts) == set(Tenancy) and min(counts.values()) > 0


def test_every_shipped_price_names_a_source_link(shipped):
    assert all(o.row.source_url.startswith("https://") for o in shipped.offers)


def test_every_shipped_egress_table_is_contiguous_from_zero(shipped):
    for provider in shipped.providers.values():
        if provider.egress_tiers:
            check_tiers(tuple(t.tier for t in provider.egress_tiers))


def test_annual_bare_metal_price_ships_as_published(shipped):
    """Qubrid lists the 8x H100 server at 133,414.80 USD a year; we keep the year, not a derived month,
    and bill at least the year it is sold for."""
    qubrid = [o for o in select_offers(shipped, "H100", frozenset({Tenancy.BARE_METAL})) if o.provider.slug == "qubrid"]
    assert [(o.priced.price_usd, o.priced.period, o.priced.gpus_per_unit) for o in qubrid] == [(133_414.80, "year", 8)]
    assert qubrid[0].priced.min_commitment_months == 12
    assert qubrid[0].priced.usd_per_unit_month == pytest.approx(11_117.90)


def test_gcp_egress_published_per_gib_is_priced_per_gb(shipped):
    """0.12 USD per GiB = 0.12 / 1.073741824 = 0.1117587 USD per GB (stored to 8 places)."""
    tiers = [t.tier for t in shipped.providers["gcp"].egress_tiers]
    assert tiers[1].usd_per_gb == pytest.approx(0.11175871)
    assert tiers[1].to_gb == pytest.approx(1099.511627776, abs=1e-9)


def test_eu_filter_keeps_only_data_centres_in_member_states(shipped):
    eu = select_offers(shipped, "H100", eu_only=True)
    assert eu and {o.row.region_country for o in eu} <= {"FI", "FR", "DE", "NL", "IE", "PL", "SE", "SI", "BG"}


def test_a_gpu_model_ships_with_the_memory_its_first_row_states(shipped):
    """gpu_offers.csv says L40S 48 GiB in 76 rows and 45 in 4, H200 141 before 140: the first holds."""
    assert (shipped.gpus["L40S"], shipped.gpus["H200"], shipped.gpus["H100"]) == (48, 141, 80)
