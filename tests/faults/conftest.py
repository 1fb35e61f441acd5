"""A database of each backend as the app's first start leaves it (migrated, the shipped catalog
loaded), which the server processes of these tests open by its URL."""

from __future__ import annotations

import pytest

from app.catalog.updates import bring_up_to_date


@pytest.fixture
def shipped_database(database_url: str) -> str:
    bring_up_to_date(database_url)
    return database_url
