"""A fresh database per test, migrated and loaded with the shipped catalog as the app's first start
leaves it: the server processes of these tests open it by its URL."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from app.catalog.updates import load_shipped_catalog
from app.db import make_engine, migrate


@pytest.fixture
def database_url(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'faults.db'}"
    migrate(url)
    engine = make_engine(url)
    with Session(engine) as session:
        load_shipped_catalog(session)
    engine.dispose()
    return url
