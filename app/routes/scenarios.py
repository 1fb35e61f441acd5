"""Saved scenarios: save from the page or the API, open by link, export and import."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlmodel import Session

from app.catalog.snapshot import Catalogs
from app.db import CatalogsDep, SessionDep
from app.quote_request import VERSION_MAX, QuoteParams, QuoteResult, build_quote
from app.routes.api import QuoteOut, quote_out
from app.routes.calculator import form_values, render_calculator
from app.scenarios.store import TooManySaves, find_scenario, save_scenario, scenario_params
from app.scenarios.tables import NAME_MAX, NOTE_MAX, Scenario
from app.scenarios.today import ThenAndNow, then_and_now
from app.security import client_key, csrf_ok
from app.settings import settings
from app.templating import option_label, templates

router = APIRouter(tags=["scenarios"])
api_router = APIRouter(prefix="/api/scenarios", tags=["api"])

SLUG = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class ScenarioIn(BaseModel):
    """A scenario to save; a JSON export of one is accepted as it is (its other fields are ignored)."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field("", max_length=NAME_MAX)
    note: str = Field("", max_length=NOTE_MAX)
    params: QuoteParams
    catalog_version: int | None = Field(
        None, ge=1, le=VERSION_MAX, description="default: the one in params, else the newest"
    )


class ScenarioOut(BaseModel):
    slug: str
    url: str
    name: str
    note: str
    created_at: datetime
    catalog_version: int
    params: QuoteParams
    quote: QuoteOut


class _Unquotable(Exception):
    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors


def _save(request: Request, session: SessionDep, catalogs: Catalogs, scenario: ScenarioIn) -> Scenario:
    """Quote first (the same checks as the page), then save pinned to the version quoted at."""
    version = scenario.catalog_version or scenario.params.catalog_version
    pinned = scenario.params.model_copy(update={"catalog_version": version})
    result = build_quote(catalogs, pinned)
    if isinstance(result, dict):
        raise _Unquotable(result)
    return save_scenario(
        session,
        pinned,
        result.catalog.version,
        scenario.name.strip(),
        scenario.note.strip(),
        client_key(request),
        json.dumps(_totals(result)),
    )


def _totals(result: QuoteResult) -> list[dict[str, Any]]:
    """What the link promises: each option's offer and total, to the cent."""
    return [{"option": o.option, "offer_id": o.offer_id, "total": f"{o.total:.2f}"} for o in quote_out(result).options]


def found_scenario(session: Session, slug: str) -> Scenario | None:
    return find_scenario(session, slug) if SLUG.match(slug) else None


def not_found_page(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "not_found.html", {}, status_code=404)


def saved_quote(catalogs: Catalogs, scenario: Scenario) -> QuoteResult:
    result = build_quote(catalogs, scenario_params(scenario))
    assert not isinstance(result, dict), "a saved scenario was quotable at its own version"
    return result


def _scenario_out(request: Request, catalogs: Catalogs, scenario: Scenario) -> ScenarioOut:
    result = saved_quote(catalogs, scenario)
    return ScenarioOut(
        slug=scenario.slug,
        url=share_link(request, scenario.slug),
        name=scenario.name,
        note=scenario.note,
        created_at=scenario.created_at,
        catalog_version=scenario.catalog_version,
        params=result.params.model_copy(update={"catalog_version": None}),
        quote=quote_out(result),
    )


def share_link(request: Request, slug: str) -> str:
    if settings.public_url:
        return f"{settings.public_url.rstrip('/')}/s/{slug}"
    return str(request.url_for("open_scenario", slug=slug))


def query_string(params: QuoteParams) -> str:
    """The calculator's URL for these inputs at today's prices."""
    pairs: list[tuple[str, Any]] = []
    for name, value in form_values(params).items():
        if name == "catalog_version" or value is False or value is None:
            continue
        if isinstance(value, list):
            pairs += [(name, str(v)) for v in value]
        else:
            pairs.append((name, "on" if value is True else value))
    return urlencode(pairs)


def _page_after_save_problem(
    request: Request, catalogs: Catalogs, params: QuoteParams | None, status: int, errors: dict[str, str], **values: str
) -> HTMLResponse:
    query = form_values(params) if params else {}
    return render_calculator(request, catalogs, query, status_code=status, save_errors=errors, save_values=values)


@router.post("/s", response_class=HTMLResponse)
def save_from_page(
    request: Request,
    session: SessionDep,
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
    problem = lambda status, errors: _page_after_save_problem(  # noqa: E731
        request, catalogs, params, status, errors, name=name, note=note
    )
    if not csrf_ok(request, csrf_token):
        return problem(403, {"form": "This form has expired or came from another site. Save again from this page."})
    if params is None:
        return problem(422, {"form": "Fix the calculator's inputs before saving."})
    errors = {}
    if len(name) > NAME_MAX:
        errors["name"] = f"must be at most {NAME_MAX} characters"
    if len(note) > NOTE_MAX:
        errors["note"] = f"must be at most {NOTE_MAX:,} characters"
    if errors:
        return problem(422, errors)
    try:
        scenario = _save(
            request,
            session,
            catalogs,
            ScenarioIn(name=name, note=note, params=params),
        )
    except TooManySaves as e:
        return problem(429, {"form": str(e)})
    except _Unquotable:
        return problem(422, {"form": "Fix the calculator's inputs before saving."})
    return RedirectResponse(f"/s/{scenario.slug}", status_code=303)


@router.post("/s/import", response_class=HTMLResponse)
def import_from_page(
    request: Request,
    session: SessionDep,
    catalogs: CatalogsDep,
    file: UploadFile,
    csrf_token: Annotated[str, Form()] = "",
) -> Response:
    """A JSON export, uploaded, becomes a new link with the same inputs and catalog version."""
    problem = lambda status, message: _page_after_save_problem(request, catalogs, None, status, {"form": message})  # noqa: E731
    if not csrf_ok(request, csrf_token):
        return problem(403, "This form has expired or came from another site. Import again from this page.")
    content = file.file.read(200_000)  # a plain def: the save runs off the event loop
    try:
        scenario_in = ScenarioIn.model_validate_json(content)
        scenario = _save(request, session, catalogs, scenario_in)
    except (ValidationError, _Unquotable):
        return problem(422, "That file is not a scenario exported from this calculator.")
    except TooManySaves as e:
        return problem(429, str(e))
    return RedirectResponse(f"/s/{scenario.slug}", status_code=303)


@router.get("/s/{slug}.json")
def export_json(slug: str, request: Request, session: SessionDep, catalogs: CatalogsDep) -> Response:
    scenario = found_scenario(session, slug)
    if scenario is None:
        return not_found_page(request)
    body = _scenario_out(request, catalogs, scenario).model_dump_json(indent=2)
    disposition = f'attachment; filename="scenario-{slug}.json"'
    return Response(body, media_type="application/json", headers={"Content-Disposition": disposition})


@router.get("/s/{slug}.csv")
def export_csv(slug: str, request: Request, session: SessionDep, catalogs: CatalogsDep) -> Response:
    """The options table of the saved quote, one row per option."""
    scenario = found_scenario(session, slug)
    if scenario is None:
        return not_found_page(request)
    quote = quote_out(saved_quote(catalogs, scenario))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "option",
            "provider",
            "product",
            "region",
            "compute_usd",
            "egress_usd",
            "storage_usd",
            "total_usd",
            "horizon_total_usd",
            "usd_per_useful_gpu_hour",
            "source_url",
            "as_of",
            "catalog_version",
        ]
    )
    for o in quote.options:
        writer.writerow(
            [
                option_label((o.tenancy, o.billing)),
                o.offer.provider_name,
                o.offer.product,
                o.offer.region,
                o.compute,
                o.egress,
                o.storage,
                o.total,
                o.horizon_total,
                o.effective_per_gpu_hour,
                o.offer.source_url,
                o.offer.as_of,
                quote.catalog_version,
            ]
        )
    disposition = f'attachment; filename="scenario-{slug}.csv"'
    return Response(out.getvalue(), media_type="text/csv", headers={"Content-Disposition": disposition})


@router.get("/s/{slug}", response_class=HTMLResponse)
def open_scenario(slug: str, request: Request, session: SessionDep, catalogs: CatalogsDep) -> HTMLResponse:
    """The calculator exactly as saved, and what the same inputs cost at today's prices."""
    scenario = found_scenario(session, slug)
    if scenario is None:
        return not_found_page(request)
    params = scenario_params(scenario)
    result = saved_quote(catalogs, scenario)
    as_saved = json.loads(scenario.totals)
    today: dict[str, Any] = {}
    if as_saved and as_saved != _totals(result):  # [] for saves before totals were kept
        today["arithmetic_changed"] = as_saved
    if catalogs.newest() != scenario.catalog_version:
        now = build_quote(catalogs, params.model_copy(update={"catalog_version": None}))
        if isinstance(now, dict):
            today["today_problem"] = "Today's catalog cannot quote these inputs: " + "; ".join(
                f"{field} {message}" for field, message in now.items()
            )
        else:
            saved = result.quote
            both = saved.options and now.quote.options
            today.update(
                today_rows=then_and_now(saved, now.quote),
                cheapest=ThenAndNow(saved.options[0].option, saved.options[0], now.quote.options[0]) if both else None,
                today_version=now.catalog.version,
            )
    return render_calculator(
        request,
        catalogs,
        form_values(params),
        scenario=scenario,
        share_url=share_link(request, slug),
        today_query=query_string(params),
        **today,
    )


@api_router.post("", status_code=201, response_model=ScenarioOut)
def api_save(scenario: ScenarioIn, request: Request, session: SessionDep, catalogs: CatalogsDep) -> ScenarioOut:
    """Save a scenario (the same checks as the page); a JSON export of one is accepted as it is."""
    try:
        saved = _save(request, session, catalogs, scenario)
    except _Unquotable as e:
        field, message = next(iter(e.errors.items()))
        raise HTTPException(422, [{"loc": ["body", "params", field], "msg": message, "type": "value_error"}]) from None
    except TooManySaves as e:
        raise HTTPException(429, str(e)) from None
    return _scenario_out(request, catalogs, saved)


@api_router.get("/{slug}", response_model=ScenarioOut)
def api_scenario(slug: str, request: Request, session: SessionDep, catalogs: CatalogsDep) -> ScenarioOut:
    scenario = found_scenario(session, slug)
    if scenario is None:
        raise HTTPException(404, detail="no scenario at this link")
    return _scenario_out(request, catalogs, scenario)
