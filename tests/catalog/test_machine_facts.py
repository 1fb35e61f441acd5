"""An offer's vCPUs and RAM: read from SkyPilot files, kept through a refresh that does not state
them, optional in our own CSV, and backfilled by migration 0012 from the shipped seed file."""

import csv
import io
from datetime import date
from decimal import Decimal

from alembic import command
from sqlmodel import Session, select

from app.catalog.exports import export_offers_csv
from app.catalog.imports import plan_import
from app.catalog.rows import OPTIONAL_COLUMNS
from app.catalog.tables import OfferVersion
from app.catalog.updates import load_shipped_catalog
from app.costing.terms import Billing
from app.platform.db import alembic_config, make_engine, migrate
from app.refresh.reading import SourceRows, hourly_row, keep
from tests.catalog.test_transfer import SKYPILOT
from tests.factories import hand_checked_catalog


def test_a_skypilot_import_keeps_each_instances_vcpus_and_ram(session):
    """gpu_1x_h100: 26 vCPUs, 200 GiB; gpu_8x_h100: 208 vCPUs, 1,800 GiB, on demand and spot."""
    hand_checked_catalog(session)
    plan = plan_import(session, SKYPILOT, 1, "cloud", "virtualized", "https://example.test/vms.csv", date(2026, 11, 25))
    assert [(r.product, r.vcpus, r.ram_gib) for r in plan.add] == [
        ("gpu_1x_h100", 26, Decimal(200)), ("gpu_8x_h100", 208, Decimal(1800)), ("gpu_8x_h100", 208, Decimal(1800))
    ]  # fmt: skip


def test_an_export_made_before_vcpus_and_ram_were_kept_imports_unchanged(session):
    hand_checked_catalog(session)
    rows = list(csv.DictReader(io.StringIO(export_offers_csv(session, 1))))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=[c for c in rows[0] if c not in OPTIONAL_COLUMNS], extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    plan = plan_import(session, out.getvalue(), 1)
    assert (plan.problems, plan.add, plan.change, plan.rows) == ([], [], [], 3)


def test_a_refresh_that_states_no_vcpus_or_ram_keeps_what_the_catalog_holds():
    held = hourly_row("azure", "NC40", "H100", 1, "eastus", Billing.ON_DEMAND, Decimal("6.98"),
                      "https://example.test/old", date(2026, 11, 1), vcpus=40, ram_gib=Decimal(320))  # fmt: skip
    fresh = hourly_row("azure", "NC40", "H100", 1, "eastus", Billing.ON_DEMAND, Decimal("6.50"),
                       "https://example.test/new", date(2026, 11, 30))  # fmt: skip
    read = SourceRows()
    keep(read, [("page 1", fresh)], {held.key: held})
    ((_, refreshed),) = read.rows
    assert (refreshed.price, refreshed.vcpus, refreshed.ram_gib) == (Decimal("6.50"), 40, Decimal(320))


def test_migration_0012_fills_vcpus_and_ram_of_existing_offers_from_the_seed_file(database_url):
    """gpu_offers.csv: aws,p5.48xlarge,H100,8 GPUs,80 GiB each,192 vCPUs,2048 GiB RAM,... in us-east-1."""
    migrate(database_url)
    engine = make_engine(database_url)
    with Session(engine) as session:
        load_shipped_catalog(session)
    config = alembic_config(database_url)
    command.downgrade(config, "0011")
    command.upgrade(config, "head")
    with Session(engine) as session:
        offers = {o.key: o for o in session.exec(select(OfferVersion))}
    p5 = offers["aws:p5.48xlarge:H100:us-east-1:on_demand"]
    assert (p5.vcpus, p5.ram_gib) == (192, Decimal(2048))
    serverless = [o for o in offers.values() if o.tenancy == "serverless"]
    assert serverless and all(o.vcpus is None and o.ram_gib is None for o in serverless)
    assert sum(o.vcpus is not None for o in offers.values()) == 809, "675 instance rows, 134 of them with spot"
