"""The shipped dedicated and EU offers (offers-eu-dedicated-2026-12), read as a buyer would ask: one
GPU a month, in an EU data centre, from a company outside the US, in the currency it is published in."""

import re
from decimal import Decimal

import pytest
from sqlmodel import Session

from app.catalog.exports import export_catalog
from app.catalog.imports import load_catalog
from app.catalog.selection import EU_COUNTRIES, select_offers
from app.catalog.snapshot import catalogs_for
from app.catalog.updates import apply_shipped_updates
from app.catalog.wording import plain_note
from app.costing.terms import Billing, Tenancy
from tests.factories import shipped_catalogs

RESEARCH_WORDS = re.compile(
    r"read from|corpus|stored (public )?copy|@[0-9a-f]{7}|\bcommit\b|api-evangelist|hq_country", re.I
)
"""How the research's notes name where and how it read a fact: never in a note a user reads."""


@pytest.fixture(scope="module")
def shipped():
    return shipped_catalogs("sqlite").current()


def test_hetzner_gex63_ships_in_euros_with_its_setup_fee_and_its_own_usd_figures_apart(shipped):
    """EUR 997.30 a month + EUR 999 once; to the cost model 997.30 x 1.1684 = 1,165.24532 USD a month and
    999 x 1.1684 = 1,167.2316 once. Hetzner's own USD list (1,197.10 + 1,199) is another offer."""
    eur = shipped.offers_by_key["hetzner:GEX63:RTX-PRO-6000:HEL1:monthly:EUR"]
    assert (eur.row.price, eur.row.currency, eur.row.setup_fee) == (Decimal("997.3"), "EUR", Decimal(999))
    assert (eur.row.region_country, eur.priced.tenancy, eur.priced.billing) == (
        "FI",
        Tenancy.BARE_METAL,
        Billing.MONTHLY,
    )
    assert eur.priced.price_usd == pytest.approx(1165.24532)
    assert eur.priced.setup_fee_usd == pytest.approx(1167.2316)
    usd = shipped.offers_by_key["hetzner:GEX63:RTX-PRO-6000:HEL1:monthly"]
    assert (usd.row.price, usd.row.currency, usd.priced.setup_fee_usd) == (Decimal("1197.1"), "USD", 1199.0)


def test_one_h100_can_be_rented_by_the_month_from_bare_metal_and_from_eu_clouds(shipped):
    monthly = select_offers(shipped, "H100")
    found = {(o.provider.name, o.priced.tenancy) for o in monthly
             if o.priced.billing is Billing.MONTHLY and o.priced.gpus_per_unit == 1}  # fmt: skip
    assert found == {
        ("Latitude.sh", Tenancy.BARE_METAL),
        ("OVHcloud", Tenancy.VIRTUALIZED),
        ("Leafcloud", Tenancy.VIRTUALIZED),
    }


def test_five_providers_rent_an_h100_in_an_eu_data_centre_from_outside_the_us(shipped):
    """Before this update, two (Nebius, Verda): the filters read the data centre's country and a cited
    headquarters."""
    answer = select_offers(shipped, "H100", eu_only=True, exclude_us_hq=True)
    assert {o.provider.name for o in answer} == {"Leafcloud", "Nebius", "OVHcloud", "Scaleway", "Verda (ex-DataCrunch)"}
    assert all(o.row.region_country in EU_COUNTRIES and o.provider.headquarters.source for o in answer)


def test_switzerland_the_uk_norway_and_iceland_are_not_eu_data_centres():
    assert not {"CH", "GB", "NO", "IS"} & EU_COUNTRIES and len(EU_COUNTRIES) == 27


def test_prices_without_a_stated_currency_are_listed_and_never_quoted(shipped):
    """Lyceum's API and SkyPilot's Seeweb catalogue give numbers with no currency: 48 + 12 offers."""
    assert {o.provider.slug for o in shipped.unpriced} == {"lyceum", "seeweb"}
    assert len(shipped.unpriced) == 60 and all(o.row.currency == "" for o in shipped.unpriced)
    assert not any(o.provider.slug in ("lyceum", "seeweb") for o in shipped.offers)


def test_no_note_a_user_reads_carries_the_research_trail(shipped):
    """Offer notes, provider notes and the notes of their facts, as the pages show them."""
    notes = [plain_note(o.row.notes)[0] for o in [*shipped.offers, *shipped.unpriced]]
    for p in shipped.providers.values():
        facts = [
            *p.egress_tiers,
            *(p.storage.tiers if p.storage else ()),
            *([p.headquarters] if p.headquarters else []),
        ]
        notes += [p.notes, *(plain_note(f.notes)[0] for f in facts)]
    assert [n for n in notes if RESEARCH_WORDS.search(n)] == []


def test_an_export_of_the_shipped_catalog_loads_with_its_rate_and_takes_the_updates_again(new_database):
    """The JSON export carries the EUR rate, so the loaded catalog quotes its EUR offers; the shipped
    updates then run on it (it records none) without adding a GPU, provider or offer twice."""
    shipped = shipped_catalogs("sqlite")
    with Session(shipped.engine) as session:
        exported = export_catalog(session, shipped.current().version)
    engine = new_database()
    with Session(engine) as session:
        load_catalog(session, exported)
        apply_shipped_updates(session)
    loaded = catalogs_for(engine).current()
    assert loaded.rates["EUR"].usd_per_unit == Decimal("1.1684")
    assert (len(loaded.offers), len(loaded.unpriced)) == (958, 60)
    assert sorted(loaded.offers_by_key) == sorted(shipped.current().offers_by_key)
