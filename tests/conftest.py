"""Web and catalog tests run on a database of each backend that TEST_DATABASES names (tests/databases.py).

A test that asks for `session`, `client`, `new_database` or `database_url` runs once on SQLite
(in memory, the schema of the models copied in) and once on PostgreSQL (a database with that
schema, emptied); every other test, the cost model's and the end-to-end ones among them, runs
once, on SQLite where it needs a database.
"""

import gc
import os
from collections.abc import Callable, Iterator
from datetime import date

# The cheapest argon2id: the tests check how passwords are used, not what guessing one costs. Set
# before the app reads its settings, and inherited by the servers and commands the tests start.
os.environ |= {"PASSWORD_HASH_TIME_COST": "1", "PASSWORD_HASH_MEMORY_KIB": "8", "PASSWORD_HASH_PARALLELISM": "1"}

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

from app.catalog import ages
from app.catalog.snapshot import catalogs_for
from app.deps import get_catalogs, get_db
from app.main import app
from app.platform.db import make_engine, session_factory
from app.web.api.health import DatabaseProbe
from tests.databases import BACKENDS, postgres
from tests.factories import empty_database


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def new_database(backend: str) -> Iterator[Callable[[], Engine]]:
    """Makes databases with the schema of the models on the test's backend; gone after the test."""
    made: list[tuple[Engine, str]] = []

    def new() -> Engine:
        if backend == "sqlite":
            return empty_database()
        name = postgres().schema_database()
        made.append((make_engine(postgres().url_of(name)), name))
        return made[-1][0]

    yield new
    for engine, name in made:
        engine.dispose()
        postgres().give_back(name)


@pytest.fixture
def database_url(backend: str, tmp_path) -> Iterator[str]:
    """A new database without a schema, for a test that migrates it or shares it between threads or processes."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    name = postgres().create()
    yield postgres().url_of(name)
    postgres().drop(name)


@pytest.fixture
def session(new_database: Callable[[], Engine]) -> Iterator[Session]:
    with Session(new_database()) as session:
        yield session


@pytest.fixture
def db(session: Session) -> sessionmaker[Session]:
    """Short sessions on the test's database, as the app's routes open them."""
    return session_factory(session.get_bind())  # type: ignore[arg-type]


@pytest.fixture
def client(session: Session, db: sessionmaker[Session]) -> Iterator[TestClient]:
    app.dependency_overrides[get_db] = lambda: db
    app.dependency_overrides[get_catalogs] = lambda: catalogs_for(session.get_bind())
    app.state.probe = DatabaseProbe(session.get_bind())  # type: ignore[arg-type]
    yield TestClient(app)
    app.dependency_overrides.clear()


gc.freeze()  # what is imported by now lives as long as the run: keep it out of every full collection, as the app does


@pytest.fixture
def today_is(monkeypatch: pytest.MonkeyPatch) -> Callable[[date], None]:
    """Pins the day prices' ages count to (app/catalog/ages.py): `today_is(date(2026, 12, 6))`."""

    def pin(day: date) -> None:
        monkeypatch.setattr(ages, "today", lambda: day)

    return pin
