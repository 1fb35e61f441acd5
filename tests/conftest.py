"""Web and catalog tests run on an in-memory SQLite database with the schema of the models."""

import gc
import os
from collections.abc import Iterator

# The cheapest argon2id: the tests check how passwords are used, not what guessing one costs. Set
# before the app reads its settings, and inherited by the servers and commands the tests start.
os.environ |= {"PASSWORD_HASH_TIME_COST": "1", "PASSWORD_HASH_MEMORY_KIB": "8", "PASSWORD_HASH_PARALLELISM": "1"}

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.catalog.snapshot import catalogs_for
from app.deps import get_catalogs, get_session
from app.main import app
from tests.factories import empty_database


@pytest.fixture
def session() -> Iterator[Session]:
    with Session(empty_database()) as session:
        yield session


@pytest.fixture
def client(session: Session) -> Iterator[TestClient]:
    app.dependency_overrides[get_session] = lambda: session
    app.dependency_overrides[get_catalogs] = lambda: catalogs_for(session.get_bind())
    yield TestClient(app)
    app.dependency_overrides.clear()


gc.freeze()  # what is imported by now lives as long as the run: keep it out of every full collection, as the app does
