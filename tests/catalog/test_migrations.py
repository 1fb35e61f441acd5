"""The schema changes only through Alembic, on SQLite and on PostgreSQL alike, and a new database
is migrated and seeded once however many workers start on it together."""

import os
import subprocess
import sys

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text
from sqlmodel import Session, SQLModel, col, func, select

from app.catalog.tables import CatalogVersion, OfferVersion, Provider, ShippedUpdate
from app.catalog.updates import SHIPPED_UPDATES
from app.platform.db import alembic_config, make_engine, migrate
from app.platform.settings import ROOT


def test_migrations_build_exactly_the_schema_of_the_models(database_url):
    migrate(database_url)
    with create_engine(database_url).connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []


def test_every_migration_can_be_undone_and_done_again(database_url):
    config = alembic_config(database_url)
    command.upgrade(config, "head")
    command.downgrade(config, "base")
    command.upgrade(config, "head")
    with create_engine(database_url).connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []


def test_headquarters_move_into_their_versioned_table_with_migration_0004(database_url):
    """A provider with its headquarters on its own row before 0004 has them as version 1's row after."""
    config = alembic_config(database_url)
    command.upgrade(config, "0003")
    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO catalogversion (id, created_at, note) VALUES (1, :at, 'first')"),
                           {"at": "2026-11-29 00:00:00+00:00"})  # fmt: skip
        connection.execute(text("INSERT INTO provider (id, slug, name, hq_country, hq_source, notes) "
                                "VALUES (1, 'metal', 'Metal', 'DE', 'https://example.test/imprint', '')"))  # fmt: skip
    command.upgrade(config, "head")
    with engine.connect() as connection:
        moved = connection.execute(text("SELECT provider_id, country, source, valid_from FROM providerheadquarters"))
        assert moved.all() == [(1, "DE", "https://example.test/imprint", 1)]
    engine.dispose()


def test_four_workers_starting_on_a_new_database_migrate_and_seed_it_once(database_url):
    """What `uvicorn app.main:app --workers 4` does on a new database: four processes bring it up
    to date at once (`python -m app.admin migrate` runs what each start runs); it ends at the newest
    revision with one shipped catalog and each shipped update applied once."""
    environment = os.environ | {"DATABASE_URL": database_url}
    workers = [
        subprocess.Popen([sys.executable, "-m", "app.admin", "migrate"], cwd=ROOT, env=environment,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for _ in range(4)
    ]  # fmt: skip
    outputs = [worker.communicate(timeout=120)[0] for worker in workers]
    assert [worker.returncode for worker in workers] == [0] * 4, outputs
    engine = make_engine(database_url)
    with engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == (
            ScriptDirectory.from_config(alembic_config(database_url)).get_current_head()
        )
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(CatalogVersion)).one() == 1 + len(SHIPPED_UPDATES)
        assert session.exec(select(func.count()).select_from(Provider)).one() == 25 + 10
        current = select(func.count()).select_from(OfferVersion).where(col(OfferVersion.valid_to).is_(None))
        once = "the seed's 853 offers, the 159 of 2026-12 and Lambda's 6 clusters, once"
        assert session.exec(current).one() == 853 + 159 + 6, once
        every = select(func.count()).select_from(OfferVersion)
        assert session.exec(every).one() == 853 + 159 + 6 + 171, "171 dated once"
        assert sorted(session.exec(select(ShippedUpdate.name))) == sorted(name for name, _, _ in SHIPPED_UPDATES)
    engine.dispose()
