"""Which answers take a turn in the heavy lane (issue 40): a split saved, a saved split or a saved
scenario's answers by version worked out afresh, a serving job's first sizing at a version, the
explorer's workload quoted afresh. With the client's share of the lane under way, those are refused 429
with Retry-After at once, and what is light or already worked out is answered as before. A save over
the save limits is refused before its quote, and takes no turn."""

import json
from collections.abc import Iterator
from contextlib import AbstractContextManager

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from fastapi.testclient import TestClient
from sqlmodel import func, select

from app.catalog.snapshot import Catalogs
from app.deps import get_catalogs, get_db
from app.main import app
from app.platform.db import session_factory
from app.platform.heavy_work import TOO_MANY_OF_YOURS, HeavyWork
from app.platform.settings import settings
from app.quoting import moves
from app.quoting.params.quote import QuoteParams
from app.scenarios import service
from app.scenarios.tables import Scenario
from tests.factories import hand_checked_catalog
from tests.web.helpers import html, soup

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


def save_form(client, params) -> dict[str, str]:
    """What the calculator's "Save and share" posts for these inputs."""
    token = soup(client.get("/")).select_one("#save-form input[name=csrf_token]")["value"]
    return {"csrf_token": token, "inputs": json.dumps(params)}


def imported(client, params):
    """These inputs' JSON export uploaded on the page."""
    token = soup(client.get("/")).select_one("details.import input[name=csrf_token]")["value"]
    export = {"file": ("scenario.json", json.dumps({"params": params}), "application/json")}
    return client.post("/s/import", data={"csrf_token": token}, files=export, follow_redirects=False)


def saved_count(session) -> int:
    return session.exec(select(func.count()).select_from(Scenario)).one()


def test_a_split_saved_while_the_clients_share_of_the_lane_is_under_way_is_refused_429_and_saves_nothing(
    client, session, lane
):
    """From the page, an export uploaded, or the API alike; a save of GPU-hours still saves, and the
    split saves once the client's turn is over."""
    hand_checked_catalog(session)
    split_form, hours_form = save_form(client, SPLIT), save_form(client, HOURS)
    lane.take()
    assert refused_for_its_share(client.post("/s", data=split_form, follow_redirects=False))
    assert refused_for_its_share(imported(client, SPLIT))
    assert refused_for_its_share(client.post("/api/scenarios", json={"params": SPLIT}))
    assert saved_count(session) == 0
    assert client.post("/s", data=hours_form, follow_redirects=False).status_code == 303
    assert imported(client, HOURS).status_code == 303
    assert client.post("/api/scenarios", json={"params": HOURS}).status_code == 201
    assert saved_count(session) == 3
    lane.free()
    split = saved(client, SPLIT)
    assert client.get(f"/api/scenarios/{split}").json()["params"]["job"] == "split"


def test_a_client_over_its_save_limit_saving_a_split_is_refused_without_the_quote_being_worked_out(
    client, session, lane, monkeypatch
):
    """Refused at the first count of its saves, before any quote: through the API or an export uploaded
    with the client's share of the lane under way, the refusal is the save limit's, not the lane's. The
    page says why beside the inputs' own quote, worked out in the lane, never the save's."""
    hand_checked_catalog(session)
    monkeypatch.setattr(settings, "saves_per_client_per_10_min", 1)
    saved(client, HOURS)
    split_form = save_form(client, SPLIT)
    quoted: list[QuoteParams] = []
    quote = service.build_quote
    monkeypatch.setattr(
        service, "build_quote", lambda catalogs, params: quoted.append(params) or quote(catalogs, params)
    )
    lane.take()
    api = client.post("/api/scenarios", json={"params": SPLIT})
    assert api.status_code == 429 and "try again in ten minutes" in api.json()["detail"]
    upload = imported(client, SPLIT)
    assert upload.status_code == 429
    assert "try again in ten minutes" in html(upload).select_one("#save-form .problem").get_text()
    lane.free()
    page = client.post("/s", data=split_form, follow_redirects=False)
    assert page.status_code == 429
    assert "try again in ten minutes" in html(page).select_one("#save-form .problem").get_text()
    assert quoted == [] and saved_count(session) == 1


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


def test_the_schema_documents_the_lanes_refusals_of_sizing_and_saving_a_scenario_and_reading_one(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path, method in [("/api/size", "get"), ("/api/scenarios/{slug}", "get"), ("/api/scenarios", "post")]:
        responses = paths[path][method]["responses"]
        assert {"429", "503"} <= set(responses), path
        assert all("Retry-After" in responses[status]["headers"] for status in ("429", "503")), path
    saving = paths["/api/scenarios"]["post"]["responses"]["429"]["description"]
    assert "scenarios saved" in saving and "HEAVY_PER_CLIENT" in saving


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
