"""Alembic environment: the schema is SQLModel's metadata; the URL comes from the app's settings."""

from alembic import context
from sqlalchemy import engine_from_config, pool
from sqlmodel import SQLModel

import app.catalog.tables  # noqa: F401  (registers the tables on SQLModel.metadata)
import app.catalog.throughput_tables  # noqa: F401
import app.catalog.server_tables  # noqa: F401
import app.catalog.fabric  # noqa: F401
import app.catalog.history_tables  # noqa: F401
import app.admin.tables  # noqa: F401
import app.scenarios.profiles  # noqa: F401
import app.scenarios.tables  # noqa: F401
import app.refresh.status  # noqa: F401
from app.platform.settings import settings

config = context.config
url = config.get_main_option("sqlalchemy.url") or settings.database_url


def run_migrations_offline() -> None:
    context.configure(url=url, target_metadata=SQLModel.metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = engine_from_config({"sqlalchemy.url": url}, prefix="sqlalchemy.", poolclass=pool.NullPool)
    with connectable.connect() as connection:
        context.configure(connection=connection, target_metadata=SQLModel.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
