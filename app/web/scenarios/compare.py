"""Saved scenarios side by side: the inputs that differ, the curves on one chart, the totals."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.catalog.snapshot import Catalogs
from app.costing.money import USD
from app.costing.quote import OfferCost, OptionKey
from app.deps import CatalogsDep, Database, in_lane_if
from app.quoting.build import QuoteResult
from app.quoting.params.demand import uploaded
from app.quoting.params.form import form_of, form_values
from app.quoting.params.inputs import Widget
from app.quoting.params.quote import QuoteParams
from app.scenarios.service import heavy_to_quote, saved_quote, slug_in
from app.scenarios.store import scenario_at, scenario_params
from app.scenarios.tables import Scenario
from app.web.calculator.charts import Chart, overlay_chart
from app.web.chart_kit import FRAMES
from app.web.templating import templates

router = APIRouter(tags=["scenarios"])


def _shown(value: Any, widget: Widget) -> str:
    if widget == Widget.STORED:
        return str(uploaded(value) or "none")  # the hours summed up: a year of them fits no cell
    if value is None or (widget == Widget.HIDDEN and value == ""):
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


COMPARED_MAX = 4
SHOWN_MAX = 60
"""Characters of a pasted entry that a refusal quotes back."""
NOT_A_LINK = (
    "Not a link to a saved scenario: {}. Paste the link of a saved scenario's page (it ends in /s/ and a code "
    "of letters and digits), or that code alone."
)


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _quoted(entries: list[str]) -> str:
    return ", ".join(f"“{e[:SHOWN_MAX]}{'…' if len(e) > SHOWN_MAX else ''}”" for e in entries[:3])


def _entries(values: list[str]) -> list[str]:
    """What each `s` holds, once each: words apart (pasted links, one a line), each a link or a
    comma-separated list of slugs (the plain address's)."""
    words = (word for value in values for word in value.split())
    return list(dict.fromkeys(e for word in words for e in ([word] if "/" in word else word.split(",")) if e))


def _slugs_asked(entries: list[str]) -> dict[str, str]:
    """Each entry (a pasted link or a slug, as typed) to the slug it names; refused where one is no
    scenario's link or where they name fewer than two or more than COMPARED_MAX scenarios."""
    slugs = {entry: slug_in(entry) for entry in entries}
    not_links = [entry for entry, slug in slugs.items() if slug is None]
    if not_links:
        raise Refused(400, NOT_A_LINK.format(_quoted(not_links)))
    named = {entry: slug for entry, slug in slugs.items() if slug is not None}
    count = len(set(named.values()))
    if count < 2:
        raise Refused(400, "Compare two to four different saved scenarios: add another one's link.")
    if count > COMPARED_MAX:
        raise Refused(400, f"Compare at most {COMPARED_MAX} saved scenarios at once, not {count}: leave some out.")
    return named


def _scenarios_named(db: Database, slugs: dict[str, str]) -> dict[str, Scenario]:
    """Each slug asked, once, to its saved scenario; refused where an entry names no saved scenario."""
    with db() as session:
        found = {slug: scenario_at(session, slug) for slug in dict.fromkeys(slugs.values())}
    missing = [entry for entry, slug in slugs.items() if found[slug] is None]
    if missing:
        raise Refused(404, f"No saved scenario at: {_quoted(missing)}. Check that the whole link was copied.")
    return {slug: scenario for slug, scenario in found.items() if scenario is not None}


def _inputs_side_by_side(scenarios: list[Scenario]) -> list[tuple[str, list[str], bool]]:
    """Each input in the form's order: its label, each scenario's value as shown, and whether they differ."""
    values = [form_values(scenario_params(scenario)) for scenario in scenarios]
    return [
        (field.input.label, cells, len(set(cells)) > 1)
        for field in form_of(QuoteParams).in_form_order
        for cells in [[_shown(v[field.name], field.input.widget) for v in values]]
    ]


def _options_side_by_side(results: list[QuoteResult]) -> dict[OptionKey, list[OfferCost | None]]:
    """Each option any scenario quotes, to its cost in each scenario's column (None where it has none)."""
    options: dict[OptionKey, list[OfferCost | None]] = {}
    for column, result in enumerate(results):
        for cost in result.quote.options:
            options.setdefault(cost.option, [None] * len(results))[column] = cost
    return options


def _overlay_charts(results: list[QuoteResult]) -> list[Chart]:
    """Every scenario's curves on one chart, one per frame. One axis needs one currency: where the
    scenarios differ, it is USD, the prices' own."""
    currencies = {r.currency for r in results}
    shared = currencies.pop() if len(currencies) == 1 else USD
    return [
        overlay_chart(
            [r.quote for r in results],
            [r.params.gpu_hours for r in results],
            break_evens=True,
            currency=shared,
            frame=frame,
            layer_names=[str(n) for n in range(1, len(results) + 1)],
        )
        for frame in FRAMES
    ]


@router.get("/compare", response_class=HTMLResponse, summary="Compare two to four saved scenarios")
async def compare(
    request: Request,
    db: Database,
    catalogs: CatalogsDep,
    s: Annotated[list[str], Query()] = [],  # noqa: B006 (FastAPI copies a default)
) -> Response:
    """`?s=slug1,slug2[,slug3[,slug4]]`: two to four saved scenarios. The compare form's `s` may come
    more than once and hold pasted links, spaced or one a line: it is sent on to that plain address.
    In the heavy lane when any of their quotes is heavy (a split, any GPU afresh)."""
    entries = _entries(s)

    def found() -> tuple[dict[str, Scenario], bool]:
        named = _scenarios_named(db, _slugs_asked(entries))
        return named, any(heavy_to_quote(catalogs, scenario) for scenario in named.values())

    try:
        scenarios, heavy = await run_in_threadpool(found)
    except Refused as refused:
        to_mend = {"problem": str(refused), "typed": "\n".join(entries)}  # the form again, one entry a line
        return templates.TemplateResponse(request, "scenarios/compare.html", to_mend, status_code=refused.status)
    if s != [",".join(scenarios)]:
        return RedirectResponse(f"/compare?s={','.join(scenarios)}", status_code=303)
    return await in_lane_if(request, heavy, lambda: _compared(request, catalogs, list(scenarios.values())))


def _compared(request: Request, catalogs: Catalogs, scenarios: list[Scenario]) -> Response:
    results = [saved_quote(catalogs, scenario) for scenario in scenarios]
    context = {
        "scenarios": scenarios,
        "room_for_more": len(scenarios) < COMPARED_MAX,
        "results": results,
        "inputs": _inputs_side_by_side(scenarios),
        "options": _options_side_by_side(results),
        "splits": [r.split.answer if r.split else None for r in results],
        "charts": _overlay_charts(results),
    }
    return templates.TemplateResponse(request, "scenarios/compare.html", context)
