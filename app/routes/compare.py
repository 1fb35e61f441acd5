"""Saved scenarios side by side: the inputs that differ, the curves on one chart, the totals."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.chart_layout import FRAMES
from app.charts import overlay_chart
from app.costing.money import USD
from app.costing.quote import OfferCost, OptionKey
from app.deps import CatalogsDep, Database
from app.quoting.form import form_of, form_values
from app.quoting.params import QuoteParams
from app.scenarios.service import saved_quote
from app.scenarios.store import scenario_at, scenario_params
from app.templating import templates

router = APIRouter(tags=["scenarios"])


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "all"
    if isinstance(value, float):
        return f"{value:,g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value) or "any"


def _problem(request: Request, message: str, status: int) -> Response:
    return templates.TemplateResponse(request, "compare.html", {"problem": message}, status_code=status)


@router.get("/compare", response_class=HTMLResponse, summary="Compare two to four saved scenarios")
def compare(request: Request, db: Database, catalogs: CatalogsDep, s: str = "") -> Response:
    """`?s=slug1,slug2[,slug3[,slug4]]`: two to four saved scenarios."""
    slugs = [slug.strip() for slug in s.split(",") if slug.strip()]
    if not 2 <= len(slugs) <= 4 or len(set(slugs)) != len(slugs):
        return _problem(request, "Compare two to four different saved scenarios: /compare?s=first,second", 400)
    with db() as session:
        found = {slug: scenario_at(session, slug) for slug in slugs}
    missing = [slug for slug, scenario in found.items() if scenario is None]
    if missing:
        return _problem(request, f"No saved scenario at: {', '.join(missing)}", 404)
    scenarios = [scenario for scenario in found.values() if scenario is not None]
    results = [saved_quote(catalogs, scenario) for scenario in scenarios]
    values = [form_values(scenario_params(scenario)) for scenario in scenarios]
    inputs = [
        (field.input.label, cells, len(set(cells)) > 1)
        for field in form_of(QuoteParams).in_form_order
        for cells in [[_shown(v[field.name]) for v in values]]
    ]
    options: dict[OptionKey, list[OfferCost | None]] = {}
    for column, result in enumerate(results):
        for cost in result.quote.options:
            options.setdefault(cost.option, [None] * len(results))[column] = cost
    # One axis needs one currency: where the scenarios differ, it is USD, the prices' own.
    currencies = {r.currency for r in results}
    shared = currencies.pop() if len(currencies) == 1 else USD
    context = {
        "scenarios": scenarios,
        "results": results,
        "inputs": inputs,
        "options": options,
        "charts": [
            overlay_chart(
                [r.quote for r in results],
                [r.params.gpu_hours for r in results],
                break_evens=True,
                currency=shared,
                frame=frame,
                layer_names=[str(n) for n in range(1, len(results) + 1)],
            )
            for frame in FRAMES
        ],
    }
    return templates.TemplateResponse(request, "compare.html", context)
