"""A path ending in a newline names no page: Starlette's `$` would otherwise match before it."""

import pytest

from tests.factories import hand_checked_catalog


@pytest.mark.parametrize("path", ["/api/quote%0A", "/%0A", "/offers%0A"])
def test_a_page_path_with_a_final_newline_is_not_found(client, session, path):
    hand_checked_catalog(session)
    assert client.get(path).status_code == 404


def test_a_scenario_slug_of_a_newline_is_no_scenario_rather_than_a_405(client, session):
    hand_checked_catalog(session)
    response = client.get("/api/scenarios/%0A")
    assert response.status_code == 404
    assert response.json() == {"detail": "no scenario at this link"}


@pytest.mark.parametrize("slug", ["%0D", "%09", "%09%0D"])
def test_a_scenario_slug_of_a_tab_or_carriage_return_is_no_scenario_rather_than_a_redirect(client, session, slug):
    """urllib drops tabs and carriage returns from a URL: read that way, the path would end in `/`
    and be redirected to the list (307, then its 405)."""
    hand_checked_catalog(session)
    response = client.get(f"/api/scenarios/{slug}", follow_redirects=False)
    assert response.status_code == 404
    assert response.json() == {"detail": "no scenario at this link"}
