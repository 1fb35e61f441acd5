"""Which answers take a turn in the heavy lane (issue 40): a saved split or a saved scenario's answers
by version worked out afresh, a serving job's first sizing at a version, the explorer's workload quoted
afresh. With the client's share of the lane under way, those are refused 429 with Retry-After at once,
and what is light or already worked out is answered as before."""

from collections.abc import Iterator
from contextlib import AbstractContextManager

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from fastapi.testclient import TestClient

from app.catalog.snapshot import Catalogs
from app.deps import get_catalogs, get_db
from app.main import app
from app.platform.db import session_factory
from app.platform.heavy_work import TOO_MANY_OF_YOURS, HeavyWork
from app.quoting import moves
from tests.factories import hand_checked_catalog
from tests.web.helpers import soup

SPLIT = {"job": "split", "gpu": "H100", "demand": "simple", "base_gpus": 2, "split_peak": 10, "peak_hours": 100}
HOURS = {"gpu": "H100", "gpu_hours": 400}
SERVING = "job=serve&preset=llama-3.1-70b&weights=fp8&output_tokens_m=1000"


class Lane:
    """The process's heavy lane, one answer at a time per client; `take` puts the test client's one under
    way, held in an event loop of its own until `free`."""

    def __init__(self, portal: BlockingPortal) -> None:
        self.work = HeavyWork(at_once=1, waiting=1, per_client=1)
        self._portal = portal
        self._turn: AbstractContextManager[None] | None = None

    def take(self) -> None:
        self._turn = self._portal.wrap_async_context_manager(self.work.turn("testclient"))
        self._turn.__enter__()

    def free(self) -> None:
        if self._turn is not None:
            self._turn.__exit__(None, None, None)
            self._turn = None


@pytest.fixture
def lane() -> Iterator[Lane]:
    before = app.state.heavy
    with start_blocking_portal() as portal:
        found = Lane(portal)
        app.state.heavy = found.work
        yield found
        found.free()
    app.state.heavy = before


def refused_for_its_share(response) -> bool:
    return (
        response.status_code == 429
        and int(response.headers["Retry-After"]) >= 1
        and TOO_MANY_OF_YOURS.format(1) in response.text
    )


def saved(client, params) -> str:
    response = client.post("/api/scenarios", json={"params": params})
    assert response.status_code == 201, response.text
    return response.json()["slug"]


def test_a_saved_split_is_worked_out_in_the_lane_on_every_route_that_quotes_it(client, session, lane):
    hand_checked_catalog(session)
    split, hours = saved(client, SPLIT), saved(client, HOURS)
    answered = client.get(f"/api/scenarios/{split}").json()["quote"]
    lane.take()
    for path in [f"/s/{split}", f"/s/{split}.json", f"/s/{split}.csv", f"/api/scenarios/{split}"]:
        assert refused_for_its_share(client.get(path)), path
    assert refused_for_its_share(client.get(f"/compare?s={split},{hours}"))
    assert client.get(f"/s/{hours}").status_code == 200
    assert client.get(f"/compare?s={hours},{saved(client, HOURS | {'gpu_hours': 500})}").status_code == 200
    lane.free()
    assert client.get(f"/api/scenarios/{split}").json()["quote"] == answered


def test_a_saved_scenarios_answers_by_version_take_a_turn_until_worked_out_since_the_newest_price_list(
    client, session, lane
):
    """Even an hour quote: each version is a whole quote at a catalog read whole. Once worked out, the
    page and the feed are answered from memory, the same, with the lane taken."""
    hand_checked_catalog(session)
    slug = saved(client, HOURS)
    lane.take()
    assert refused_for_its_share(client.get(f"/s/{slug}/versions"))
    assert refused_for_its_share(client.get(f"/s/{slug}/feed.xml"))
    lane.free()
    worked_out = client.get(f"/s/{slug}/versions")
    assert worked_out.status_code == 200
    lane.take()
    again = client.get(f"/s/{slug}/versions")
    assert again.status_code == 200
    assert soup(again).select_one("p.headline").get_text() == soup(worked_out).select_one("p.headline").get_text()
    assert client.get(f"/s/{slug}/feed.xml").status_code == 200


@pytest.fixture
def shipped_afresh(shipped) -> Iterator[TestClient]:
    """A client on the shipped catalog, read afresh: nothing worked out yet at any version."""
    afresh = Catalogs(shipped.engine)
    app.dependency_overrides[get_catalogs] = lambda: afresh
    app.dependency_overrides[get_db] = lambda: session_factory(shipped.engine)
    yield TestClient(app)
    app.dependency_overrides.clear()


def test_a_serving_jobs_first_sizing_at_a_version_takes_a_turn_and_later_ones_do_not(shipped_afresh, lane):
    """The first works out the version's estimates (0.8 s); the second, another output, reuses them."""
    lane.take()
    assert refused_for_its_share(shipped_afresh.get(f"/api/size?{SERVING}"))
    assert shipped_afresh.get("/api/size?preset=llama-3.1-70b").status_code == 200
    lane.free()
    first = shipped_afresh.get(f"/api/size?{SERVING}").json()
    lane.take()
    later = shipped_afresh.get(f"/api/size?{SERVING.replace('1000', '2000')}").json()
    assert [j["gpu"] for j in later["jobs"]] == [j["gpu"] for j in first["jobs"]] != []


def test_the_explorers_workload_quoted_afresh_takes_a_turn_and_gpu_hours_as_typed_do_not(shipped_afresh, lane):
    lane.take()
    for path in ["/offers", "/offers.csv"]:
        assert refused_for_its_share(shipped_afresh.get(f"{path}?workload=gpu%3Dany%26preset%3Dllama-3.1-70b"))
        assert shipped_afresh.get(f"{path}?workload=gpu%3DH100%26gpu_hours%3D400").status_code == 200


def test_the_schema_documents_the_lanes_refusals_of_sizing_and_a_saved_scenario(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ["/api/size", "/api/scenarios/{slug}"]:
        responses = paths[path]["get"]["responses"]
        assert {"429", "503"} <= set(responses), path
        assert all("Retry-After" in responses[status]["headers"] for status in ("429", "503")), path


def test_one_gpu_models_quote_on_more_offers_than_light_work_takes_a_turn_until_its_move_memo_holds_it(
    shipped_afresh, lane, monkeypatch
):
    """At the catalog's bound a GPU model may have thousands of offers (0.1 s for new inputs); the bound
    of light work is lowered below the shipped H100 offers to stand in for such a catalog."""
    catalog = app.dependency_overrides[get_catalogs]().current()
    h100, l4 = len(catalog.offers_by_gpu["H100"]), len(catalog.offers_by_gpu["L4"])
    assert l4 < h100
    monkeypatch.setattr(moves, "ORDINARY_OFFERS_LIGHT", h100 - 1)
    lane.take()
    assert refused_for_its_share(shipped_afresh.get("/api/quote?gpu=H100&gpu_hours=400"))
    assert shipped_afresh.get("/api/quote?gpu=L4&gpu_hours=400").status_code == 200
    lane.free()
    assert shipped_afresh.get("/api/quote?gpu=H100&gpu_hours=400").status_code == 200
    lane.take()
    moved = shipped_afresh.get("/api/quote?gpu=H100&gpu_hours=500")
    assert moved.status_code == 200 and moved.json()["params"]["gpu_hours"] == 500
