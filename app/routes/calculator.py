"""The calculator page: the form and, for htmx, only its results block."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.catalog.snapshot import Catalogs
from app.charts import cost_chart
from app.db import CatalogsDep
from app.quote_request import QuoteParams, build_quote, parse_params
from app.security import csrf_token, remember_csrf
from app.templating import Fragment, templates

router = APIRouter(tags=["calculator"])

SLIDER_MAX = {
    "gpu_hours": 10_000,
    "peak_gpus": 64,
    "checkpoint_gb": 2_000,
    "checkpoints_out": 60,
    "egress_gb": 20_000,
    "stored_gb": 50_000,
}
"""Where each slider ends; the number input beside it takes anything up to the field's own limit."""


def form_values(params: QuoteParams) -> dict[str, Any]:
    """Inputs as a person would type them: 500, not 500.0."""
    return {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in params.model_dump().items()}


DEFAULT_VALUES = form_values(QuoteParams())
"""What an empty form shows; worked out once, not on every move of a slider."""


def render_calculator(
    request: Request,
    catalogs: Catalogs,
    query: dict[str, Any],
    fragment: bool = False,
    status_code: int = 200,
    **extra: Any,
) -> HTMLResponse:
    """The calculator for these inputs: the whole page, or its results block for htmx."""
    parsed = parse_params(query)
    built = parsed if isinstance(parsed, dict) else build_quote(catalogs, parsed)
    errors, result = (built, None) if isinstance(built, dict) else ({}, built)
    token = csrf_token(request)
    context = {
        "values": {**DEFAULT_VALUES, **query},
        "errors": errors,
        "fields": QuoteParams.model_fields,
        "result": result,
        "chart": cost_chart(result.quote, result.params.gpu_hours) if result else None,
        "pinned_inputs": result.params.model_copy(update={"catalog_version": result.catalog.version}).model_dump_json()
        if result
        else None,
        "slider_max": SLIDER_MAX,
        "fragment": fragment,
        "catalog": result.catalog if result else catalogs.at(),
        "csrf_token": token,
        "save_values": {},
        "save_errors": {},
        **extra,
    }
    response = templates.TemplateResponse(
        request,
        "calculator.html",
        context,
        status_code=status_code,
        block_name="results" if fragment else None,
    )
    if not fragment:
        remember_csrf(request, response, token)
    return response


@router.get("/", response_class=HTMLResponse)
async def calculator(request: Request, catalogs: CatalogsDep, fragment: Fragment) -> HTMLResponse:
    query = {k: (request.query_params.getlist(k) if k == "tenancy" else v) for k, v in request.query_params.items()}
    return render_calculator(request, catalogs, query, fragment)
