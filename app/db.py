"""The database engine, the catalog it holds for requests, and bringing the schema up to date at start."""

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

from alembic import command
from alembic.config import Config
from fastapi import Depends
from sqlalchemy import Engine, event
from sqlmodel import Session, create_engine

from app.catalog.snapshot import Catalogs, catalogs_for
from app.settings import settings

ROOT = Path(__file__).resolve().parent.parent


def make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection, _record):  # type: ignore[no-untyped-def]
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return engine


engine = make_engine(settings.database_url)


def migrate(url: str) -> None:
    """Bring the schema to the newest Alembic revision."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url)
    command.upgrade(config, "head")


def get_session() -> Iterator[Session]:
    with Session(engine) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]


async def get_catalogs() -> Catalogs:
    """Async, so that the slider's partial never waits for a worker thread."""
    return catalogs_for(engine)


CatalogsDep = Annotated[Catalogs, Depends(get_catalogs)]
