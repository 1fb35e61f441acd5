"""Saved scenarios: save from the page or the API, open by link, export and import."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from app.catalog.files import csv_text
from app.catalog.snapshot import Catalogs
from app.deps import CatalogsDep, Database, in_lane_if, off_the_loop
from app.errors import HEAVY, core_refusal, heavy_refusals, refusals
from app.platform.security import EXPIRED, client_key, csrf_ok
from app.quoting import moves
from app.quoting.out.quote import quote_out
from app.quoting.params.form import form_values, query_string
from app.quoting.params.quote import QuoteParams
from app.scenarios.alerts import answer_moves
from app.scenarios.csv_rows import csv_header, csv_rows
from app.scenarios.service import (
    ScenarioIn,
    ScenarioOut,
    Unquotable,
    as_saved_and_today,
    form_text,
    heavy_to_quote,
    heavy_to_save,
    quote_and_save,
    saved_quote,
    scenario_out,
    share_link,
)
from app.scenarios.store import TooManySaves, scenario_at, scenario_params
from app.scenarios.tables import NAME_MAX, NOTE_MAX, Scenario
from app.scenarios.versions import cost_by_version, heavy_by_version
from app.web.admin.forms import FormReader
from app.web.calculator.page import calculator_page
from app.web.responses import CSVResponse, as_json, not_found_page
from app.web.scenarios.feed import atom_feed
from app.web.templating import templates

router = APIRouter(tags=["scenarios"])
api_router = APIRouter(prefix="/api/scenarios", tags=["api"])


def _page_after_save_problem(
    request: Request, catalogs: Catalogs, params: QuoteParams | None, status: int, errors: dict[str, str], **values: str
) -> Response:
    query = form_values(params) if params else {}
    return calculator_page(request, catalogs, query, status_code=status, save_errors=errors, save_values=values)


def _scenario_at(db: Database, slug: str) -> Scenario | None:
    with db() as session:
        return scenario_at(session, slug)


SaveAnswer = tuple[bool, Callable[[], Response]]
"""Whether answering a save from the page is heavy work, to run in its lane, and the answer."""
FIX_INPUTS = "Fix the calculator's inputs before saving."
NOT_AN_EXPORT = "That file is not a scenario exported from this calculator."


@router.post("/s", response_class=HTMLResponse, summary="Save a scenario from the page (form post)")
async def save_from_page(
    request: Request,
    db: Database,
    catalogs: CatalogsDep,
    csrf_token: Annotated[str, Form()] = "",
    name: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
    inputs: Annotated[str, Form()] = "",
) -> Response:
    """The page's "Save and share": on success, off to the new link; else the page with the reason. The
    inputs are read and the save limits counted in a worker thread, before any quote; a heavy quote (a
    split) is worked out in its lane, as is the page of a refusal, which shows the inputs' quote."""
    heavy_answer, answer = await run_in_threadpool(_page_save, request, db, catalogs, csrf_token, name, note, inputs)
    return await in_lane_if(request, heavy_answer, answer)


def _page_save(
    request: Request, db: Database, catalogs: Catalogs, csrf_token: str, name: str, note: str, inputs: str
) -> SaveAnswer:
    try:
        params = QuoteParams.model_validate_json(inputs)
    except ValidationError:
        params = None
    page_heavy = params is not None and moves.heavy(catalogs, params)

    def problem(status: int, errors: dict[str, str]) -> Response:
        return _page_after_save_problem(request, catalogs, params, status, errors, name=name, note=note)

    if not csrf_ok(request, csrf_token):
        return page_heavy, partial(problem, 403, {"form": EXPIRED.format("Save")})
    if params is None:
        return page_heavy, partial(problem, 422, {"form": FIX_INPUTS})
    form = FormReader()
    form.read("name", form_text, name, NAME_MAX)
    form.read("note", form_text, note, NOTE_MAX)
    if form.errors:
        return page_heavy, partial(problem, 422, form.errors)
    scenario = ScenarioIn(name=name, note=note, params=params)
    return _save_answer(
        db,
        catalogs,
        scenario,
        client_key(request),
        page_heavy,
        lambda status, message: problem(status, {"form": message}),
        FIX_INPUTS,
    )


@router.post("/s/import", response_class=HTMLResponse, summary="Import a scenario's JSON export as a new link")
async def import_from_page(
    request: Request,
    db: Database,
    catalogs: CatalogsDep,
    file: UploadFile,
    csrf_token: Annotated[str, Form()] = "",
) -> Response:
    """A JSON export, uploaded, becomes a new link with the same inputs and catalog version: read, and
    the save limits counted, in a worker thread; its quote in the heavy lane when heavy (a split)."""
    content = await file.read(200_000)
    heavy_answer, answer = await run_in_threadpool(_import_save, request, db, catalogs, content, csrf_token)
    return await in_lane_if(request, heavy_answer, answer)


def _import_save(request: Request, db: Database, catalogs: Catalogs, content: bytes, csrf_token: str) -> SaveAnswer:
    def problem(status: int, message: str) -> Response:
        return _page_after_save_problem(request, catalogs, None, status, {"form": message})

    if not csrf_ok(request, csrf_token):
        return False, partial(problem, 403, EXPIRED.format("Import"))
    try:
        exported = ScenarioIn.model_validate_json(content.decode("utf-8-sig"))  # an editor may have added a BOM
    except (UnicodeDecodeError, ValidationError):
        return False, partial(problem, 422, NOT_AN_EXPORT)
    return _save_answer(db, catalogs, exported, client_key(request), False, problem, NOT_AN_EXPORT)


def _save_answer(
    db: Database,
    catalogs: Catalogs,
    scenario: ScenarioIn,
    key: str,
    page_heavy: bool,
    problem: Callable[[int, str], Response],
    unquotable: str,
) -> SaveAnswer:
    """Whether the answer is heavy work, and the answer: off to the new link, or the page with the reason.
    The save limits are counted first, so that a save refused for them costs no quote; `page_heavy`: the
    page for a refusal quotes the inputs (a split's, from the calculator), so it too is heavy work."""
    try:
        heavy_save = heavy_to_save(db, catalogs, scenario, key)
    except TooManySaves as e:
        return page_heavy, partial(_too_many, problem, e)

    def save() -> Response:
        try:
            saved = quote_and_save(db, catalogs, scenario, key)
        except TooManySaves as e:
            return _too_many(problem, e)
        except Unquotable:
            return problem(422, unquotable)
        return RedirectResponse(f"/s/{saved.slug}", status_code=303)

    return heavy_save or page_heavy, save


def _too_many(problem: Callable[[int, str], Response], refused: TooManySaves) -> Response:
    response = problem(429, str(refused))
    response.headers.update(refused.headers)
    return response


async def _saved(db: Database, slug: str, heavy: Callable[[Scenario], bool]) -> tuple[Scenario | None, bool]:
    """The scenario at `slug` and whether answering it is heavy work, found in a worker thread: the
    decision may read the saved catalog version, which the process may not keep."""

    def found() -> tuple[Scenario | None, bool]:
        scenario = _scenario_at(db, slug)
        return scenario, scenario is not None and heavy(scenario)

    return await run_in_threadpool(found)


@router.get("/s/{slug}.json", summary="A saved scenario as JSON")
async def export_json(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    scenario, heavy = await _saved(db, slug, partial(heavy_to_quote, catalogs))
    if scenario is None:
        return not_found_page(request)

    def export() -> Response:
        body = scenario_out(catalogs, scenario, str(request.base_url)).model_dump_json(indent=2)
        disposition = f'attachment; filename="scenario-{slug}.json"'
        return Response(body, media_type="application/json", headers={"Content-Disposition": disposition})

    return await in_lane_if(request, heavy, export)


@router.get("/s/{slug}.csv", response_class=CSVResponse, summary="A saved scenario's options as CSV")
async def export_csv(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """The options table of the saved quote, one row per option."""
    scenario, heavy = await _saved(db, slug, partial(heavy_to_quote, catalogs))
    if scenario is None:
        return not_found_page(request)

    def export() -> Response:
        quote = quote_out(saved_quote(catalogs, scenario))
        body = csv_text(csv_header(quote), csv_rows(quote))
        disposition = f'attachment; filename="scenario-{slug}.csv"'
        return CSVResponse(body, headers={"Content-Disposition": disposition})

    return await in_lane_if(request, heavy, export)


@router.get("/s/{slug}/versions", response_class=HTMLResponse, summary="A saved scenario at each price list since")
async def scenario_versions(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """The same inputs quoted at each catalog version since the scenario was saved: heavy work, in its
    lane, unless worked out since the newest price list."""
    scenario, heavy = await _saved(db, slug, partial(heavy_by_version, catalogs))
    if scenario is None:
        return not_found_page(request)

    def page() -> Response:
        context = {"scenario": scenario, "by_version": cost_by_version(catalogs, scenario)}
        return templates.TemplateResponse(request, "scenarios/scenario_versions.html", context)

    return await in_lane_if(request, heavy, page)


@router.get("/s/{slug}/feed.xml", summary="A saved scenario's Atom feed: each price list that moved its answer")
async def scenario_feed(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """Tells a feed reader when a price list changed the cheapest option or its provider, or its month
    by more than 1 %. The versions page's work, in its lane likewise."""
    scenario, heavy = await _saved(db, slug, partial(heavy_by_version, catalogs))
    if scenario is None:
        return not_found_page(request)

    def feed() -> Response:
        moves = answer_moves(cost_by_version(catalogs, scenario))
        body = atom_feed(scenario, moves, share_link(str(request.base_url), slug))
        return Response(body, media_type="application/atom+xml")

    return await in_lane_if(request, heavy, feed)


@router.get("/s/{slug}", response_class=HTMLResponse, summary="A saved scenario's page")
async def open_scenario(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """The calculator exactly as saved, and what the same inputs cost at today's prices; in the heavy
    lane when either quote is heavy (a split, any GPU afresh)."""
    scenario, heavy = await _saved(db, slug, partial(heavy_to_quote, catalogs, and_today=True))
    if scenario is None:
        return not_found_page(request)

    def page() -> Response:
        params = scenario_params(scenario)
        return calculator_page(
            request,
            catalogs,
            form_values(params),
            scenario=scenario,
            share_url=share_link(str(request.base_url), slug),
            today_query=query_string(params),
            **as_saved_and_today(catalogs, scenario, saved_quote(catalogs, scenario)),
        )

    return await in_lane_if(request, heavy, page)


@api_router.post(
    "",
    status_code=201,
    response_model=ScenarioOut,
    responses=heavy_refusals(400, 404, 413, 429),
    summary="Save a scenario",
)
async def api_save(
    scenario: ScenarioIn, request: Request, db: Database, catalogs: CatalogsDep
) -> ScenarioOut | Response:
    """Save a scenario (the same checks as the page); a JSON export of one is accepted as it is. The save
    limits are counted before any quote; a heavy one (a split) is worked out in its lane, and past its
    bounds refused 429 or 503 with Retry-After."""
    key = client_key(request)
    try:
        heavy_save = await run_in_threadpool(heavy_to_save, db, catalogs, scenario, key)
    except TooManySaves as e:
        raise HTTPException(429, str(e), headers=e.headers) from None

    def save() -> ScenarioOut:
        try:
            saved = quote_and_save(db, catalogs, scenario, key)
        except Unquotable as e:
            raise core_refusal(["body", "params"], e.errors) from None
        except TooManySaves as e:
            raise HTTPException(429, str(e), headers=e.headers) from None
        return scenario_out(catalogs, saved, str(request.base_url))

    if heavy_save:
        return await off_the_loop(request, lambda: as_json(save(), status_code=201))
    return await run_in_threadpool(save)


@api_router.get(
    "/{slug}",
    response_model=ScenarioOut,
    responses=refusals(404) | HEAVY,
    summary="A saved scenario with its quote",
)
async def api_scenario(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> ScenarioOut | Response:
    """The scenario as saved, with its quote at its own version: a heavy one (a split, any GPU afresh) is
    worked out in its lane, and past its bounds refused 429 or 503 with Retry-After."""
    scenario, heavy = await _saved(db, slug, partial(heavy_to_quote, catalogs))
    if scenario is None:
        raise HTTPException(404, detail="no scenario at this link")
    work = partial(scenario_out, catalogs, scenario, str(request.base_url))
    if heavy:
        return await off_the_loop(request, lambda: as_json(work()))
    return await run_in_threadpool(work)
