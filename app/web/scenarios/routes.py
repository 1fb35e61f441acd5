"""Saved scenarios: save from the page or the API, open by link, export and import."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from app.catalog.files import csv_text
from app.catalog.snapshot import Catalogs
from app.deps import CatalogsDep, Database
from app.errors import core_refusal, refusals
from app.platform.security import EXPIRED, client_key, csrf_ok
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
    quote_and_save,
    saved_quote,
    scenario_out,
    share_link,
)
from app.scenarios.store import TooManySaves, scenario_at, scenario_params
from app.scenarios.tables import NAME_MAX, NOTE_MAX, Scenario
from app.scenarios.versions import cost_by_version
from app.web.admin.forms import FormReader
from app.web.calculator.page import calculator_page
from app.web.responses import CSVResponse, not_found_page
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


@router.post("/s", response_class=HTMLResponse, summary="Save a scenario from the page (form post)")
def save_from_page(
    request: Request,
    db: Database,
    catalogs: CatalogsDep,
    csrf_token: Annotated[str, Form()] = "",
    name: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
    inputs: Annotated[str, Form()] = "",
) -> Response:
    """The page's "Save and share": on success, off to the new link; else the page with the reason."""
    try:
        params = QuoteParams.model_validate_json(inputs)
    except ValidationError:
        params = None

    def problem(status: int, errors: dict[str, str]) -> Response:
        return _page_after_save_problem(request, catalogs, params, status, errors, name=name, note=note)

    if not csrf_ok(request, csrf_token):
        return problem(403, {"form": EXPIRED.format("Save")})
    if params is None:
        return problem(422, {"form": "Fix the calculator's inputs before saving."})
    form = FormReader()
    form.read("name", form_text, name, NAME_MAX)
    form.read("note", form_text, note, NOTE_MAX)
    if form.errors:
        return problem(422, form.errors)
    try:
        scenario = quote_and_save(db, catalogs, ScenarioIn(name=name, note=note, params=params), client_key(request))
    except TooManySaves as e:
        return problem(429, {"form": str(e)})
    except Unquotable:
        return problem(422, {"form": "Fix the calculator's inputs before saving."})
    return RedirectResponse(f"/s/{scenario.slug}", status_code=303)


@router.post("/s/import", response_class=HTMLResponse, summary="Import a scenario's JSON export as a new link")
def import_from_page(
    request: Request,
    db: Database,
    catalogs: CatalogsDep,
    file: UploadFile,
    csrf_token: Annotated[str, Form()] = "",
) -> Response:
    """A JSON export, uploaded, becomes a new link with the same inputs and catalog version."""

    def problem(status: int, message: str) -> Response:
        return _page_after_save_problem(request, catalogs, None, status, {"form": message})

    if not csrf_ok(request, csrf_token):
        return problem(403, EXPIRED.format("Import"))
    content = file.file.read(200_000)  # a plain def: the save runs off the event loop
    try:
        exported = ScenarioIn.model_validate_json(content.decode("utf-8-sig"))  # an editor may have added a BOM
        scenario = quote_and_save(db, catalogs, exported, client_key(request))
    except (UnicodeDecodeError, ValidationError, Unquotable):
        return problem(422, "That file is not a scenario exported from this calculator.")
    except TooManySaves as e:
        return problem(429, str(e))
    return RedirectResponse(f"/s/{scenario.slug}", status_code=303)


@router.get("/s/{slug}.json", summary="A saved scenario as JSON")
def export_json(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    scenario = _scenario_at(db, slug)
    if scenario is None:
        return not_found_page(request)
    body = scenario_out(catalogs, scenario, str(request.base_url)).model_dump_json(indent=2)
    disposition = f'attachment; filename="scenario-{slug}.json"'
    return Response(body, media_type="application/json", headers={"Content-Disposition": disposition})


@router.get("/s/{slug}.csv", response_class=CSVResponse, summary="A saved scenario's options as CSV")
def export_csv(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """The options table of the saved quote, one row per option."""
    scenario = _scenario_at(db, slug)
    if scenario is None:
        return not_found_page(request)
    quote = quote_out(saved_quote(catalogs, scenario))
    body = csv_text(csv_header(quote), csv_rows(quote))
    disposition = f'attachment; filename="scenario-{slug}.csv"'
    return CSVResponse(body, headers={"Content-Disposition": disposition})


@router.get("/s/{slug}/versions", response_class=HTMLResponse, summary="A saved scenario at each price list since")
def scenario_versions(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """The same inputs quoted at each catalog version since the scenario was saved."""
    scenario = _scenario_at(db, slug)
    if scenario is None:
        return not_found_page(request)
    context = {"scenario": scenario, "by_version": cost_by_version(catalogs, scenario)}
    return templates.TemplateResponse(request, "scenarios/scenario_versions.html", context)


@router.get("/s/{slug}/feed.xml", summary="A saved scenario's Atom feed: each price list that moved its answer")
def scenario_feed(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """Tells a feed reader when a price list changed the cheapest option or its provider, or its month
    by more than 1 %."""
    scenario = _scenario_at(db, slug)
    if scenario is None:
        return not_found_page(request)
    moves = answer_moves(cost_by_version(catalogs, scenario))
    body = atom_feed(scenario, moves, share_link(str(request.base_url), slug))
    return Response(body, media_type="application/atom+xml")


@router.get("/s/{slug}", response_class=HTMLResponse, summary="A saved scenario's page")
def open_scenario(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """The calculator exactly as saved, and what the same inputs cost at today's prices."""
    scenario = _scenario_at(db, slug)
    if scenario is None:
        return not_found_page(request)
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


@api_router.post(
    "",
    status_code=201,
    response_model=ScenarioOut,
    responses=refusals(400, 404, 413, 429, 503),
    summary="Save a scenario",
)
def api_save(scenario: ScenarioIn, request: Request, db: Database, catalogs: CatalogsDep) -> ScenarioOut:
    """Save a scenario (the same checks as the page); a JSON export of one is accepted as it is."""
    try:
        saved = quote_and_save(db, catalogs, scenario, client_key(request))
    except Unquotable as e:
        raise core_refusal(["body", "params"], e.errors) from None
    except TooManySaves as e:
        raise HTTPException(429, str(e)) from None
    return scenario_out(catalogs, saved, str(request.base_url))


@api_router.get(
    "/{slug}", response_model=ScenarioOut, responses=refusals(404, 503), summary="A saved scenario with its quote"
)
def api_scenario(slug: str, request: Request, db: Database, catalogs: CatalogsDep) -> ScenarioOut:
    scenario = _scenario_at(db, slug)
    if scenario is None:
        raise HTTPException(404, detail="no scenario at this link")
    return scenario_out(catalogs, scenario, str(request.base_url))
