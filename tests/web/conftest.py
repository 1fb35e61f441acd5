"""Fixtures the web tests share: signed-in admins, the shipped rate, the shipped catalog."""

import pytest
from fastapi.testclient import TestClient

from app.admin.accounts import create_admin
from app.catalog.changes import new_version
from app.catalog.updates import ecb_rate_2026_04, model_presets_2026_11
from app.deps import get_catalogs, get_db
from app.main import app
from app.platform.db import session_factory
from tests.factories import hand_checked_catalog, shipped_catalogs
from tests.web.helpers import PASSWORD, signed_in_as


@pytest.fixture
def signed_in(client, session):
    """A client signed in as alice, on the hand-checked catalog."""
    hand_checked_catalog(session)
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    return client


@pytest.fixture
def signed_in_with_presets(client, session):
    """The same, with the shipped model presets as a catalog version of their own."""
    hand_checked_catalog(session)
    model_presets_2026_11(session, new_version(session, "presets"))
    session.commit()
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    return client


@pytest.fixture
def with_shipped_rate(session):
    """The hand-checked catalog, then the shipped ECB rate (1 EUR = 1.1684 USD of 2026-04-13) as version 2."""
    hand_checked_catalog(session)
    ecb_rate_2026_04(session, new_version(session, "the shipped rate"))
    session.commit()


@pytest.fixture(scope="module")
def shipped():
    """The shipped catalog with its updates, for tests that only read it."""
    return shipped_catalogs()


@pytest.fixture
def shipped_client(shipped):
    """A client whose pages and API answer from the shipped catalog, and read its database (an upload's
    hours on the calculator's page)."""
    app.dependency_overrides[get_catalogs] = lambda: shipped
    app.dependency_overrides[get_db] = lambda: session_factory(shipped.engine)
    yield TestClient(app)
    app.dependency_overrides.clear()
