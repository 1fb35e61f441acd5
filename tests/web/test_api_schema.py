"""Property-based tests of the API against its own OpenAPI schema (schemathesis, issue 11): any
request the schema allows, and many it does not, gets no server error and a documented answer."""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from app.main import app
from tests.factories import hand_checked_catalog

EXAMPLES_PER_OPERATION = 25
"""Enough to meet each parameter's edges on every run; `schemathesis run` goes further by hand."""
CHECKED_AGAINST_THE_CATALOG = ("/api/quote", "/api/split", "/api/size", "/api/scenarios", "/api/history")
"""A GPU model, preset or offer key is any string to the schema; which exist is the catalog's to
say, as whether a model's fields go together (parameters and architecture) is the sizing's, and
whether a week or an hourly profile reads whole (168 numbers, one hour a line) the demand's. These
may refuse schema-valid input with a 422 naming the field (a "value_error"), and no other may."""


async def _served_as_the_client_fixture_serves_it(scope, receive, send):
    """The app without its start-up: the `client` fixture has given it the test's database."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    await app(scope, receive, send)


schema = schemathesis.openapi.from_dict(app.openapi()).include(path_regex="^/api/")


@pytest.fixture
def catalog(client, session):
    """Made once per operation: its examples all read (and save into) the hand-checked catalog."""
    hand_checked_catalog(session)


def _refused_by_the_catalog(case, response):
    if case.path not in CHECKED_AGAINST_THE_CATALOG or response.status_code != 422:
        return False
    return all(problem["type"] == "value_error" for problem in response.json()["detail"])


@schema.parametrize()
@settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_request_gets_a_documented_answer_and_never_a_server_error(case, catalog):
    served = {"app": _served_as_the_client_fixture_serves_it}
    response = case.call(**served)
    excused = [positive_data_acceptance] if _refused_by_the_catalog(case, response) else []
    if response.status_code == 413:  # a body over the limit is refused before its fields are read, as documented
        excused.append(negative_data_rejection)
    case.validate_response(response, excluded_checks=excused, transport_kwargs=served)
