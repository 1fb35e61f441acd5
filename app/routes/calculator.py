"""The calculator page: the form and, for htmx, only its results block."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.charts import cost_chart
from app.db import CatalogsDep
from app.quote_request import QuoteParams, build_quote, parse_params
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


@router.get("/", response_class=HTMLResponse)
async def calculator(request: Request, catalogs: CatalogsDep, fragment: Fragment) -> HTMLResponse:
    query = {k: (request.query_params.getlist(k) if k == "tenancy" else v) for k, v in request.query_params.items()}
    parsed = parse_params(query)
    errors = parsed if isinstance(parsed, dict) else {}
    params = parsed if isinstance(parsed, QuoteParams) else None
    result = build_quote(catalogs, params) if params else None
    if isinstance(result, dict):
        errors, result = result, None
    context = {
        "values": {**QuoteParams().model_dump(), **query},
        "errors": errors,
        "fields": QuoteParams.model_fields,
        "result": result,
        "chart": cost_chart(result.quote, result.params.gpu_hours) if result else None,
        "slider_max": SLIDER_MAX,
        "fragment": fragment,
        "catalog": result.catalog if result else catalogs.at(),
    }
    return templates.TemplateResponse(request, "calculator.html", context, block_name="results" if fragment else None)
