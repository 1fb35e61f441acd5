from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from app.db import migrate


def test_migrations_build_exactly_the_schema_of_the_models(tmp_path):
    url = f"sqlite:///{tmp_path / 'migrated.db'}"
    migrate(url)
    with create_engine(url).connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
