"""An id past the databases' integers, in any route's path or in a query's catalog_version, names
nothing: 404 or 422 on SQLite and on PostgreSQL alike, never a 500 from an integer out of range."""

import re

import pytest

from tests.web.helpers import csrf
from tests.web.test_admin import _app_routes

FAR_PAST_ANY_ID = 2**62
"""Past PostgreSQL's integer (2**31 - 1) and within SQLite's: each database's own failure, were it asked."""

ROUTES = sorted((method, path) for path, methods in _app_routes() for method in methods - {"HEAD"})
WITH_IDS = [(method, re.sub(r"\{[^}]+\}", str(FAR_PAST_ANY_ID), path)) for method, path in ROUTES if "{" in path]
"""Every route with a part of its path that names a record, read off the app: none can be forgotten."""
WITHOUT_IDS = [(method, path) for method, path in ROUTES if "{" not in path and method == "GET"]


def test_the_routes_with_ids_are_all_found():
    expected = {("GET", "/admin/offers/{0}"), ("POST", "/admin/offers/{0}/retire"), ("POST", "/admin/import/{0}/apply")}
    assert {(method, path.format(FAR_PAST_ANY_ID)) for method, path in expected} <= set(WITH_IDS)


@pytest.mark.parametrize(("method", "path"), WITH_IDS)
def test_an_id_past_the_databases_integers_names_nothing(signed_in, method, path):
    data = {"csrf_token": csrf(signed_in), "price": "1", "note": "x"} if method == "POST" else None
    answered = signed_in.request(method, path, data=data, follow_redirects=False)
    assert answered.status_code in (404, 422), answered.text[:300]


@pytest.mark.parametrize(("method", "path"), WITHOUT_IDS)
def test_a_catalog_version_past_the_databases_integers_is_no_server_error(signed_in, method, path):
    answered = signed_in.request(method, path, params={"catalog_version": FAR_PAST_ANY_ID}, follow_redirects=False)
    assert answered.status_code < 500, answered.text[:300]
