"""The offers explorer: every offer of a catalog version as a sortable, filterable table, and as CSV.

Served in a worker thread: a page is tens of milliseconds of work on a large catalog, its CSV and the
first page at a version (which works out its rows) hundreds, and the event loop serves the slider's
partial of others meanwhile. A workload quoted afresh (any GPU, a stated job: 0.1-0.6 s) is worked out
in the heavy lane instead."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from app.catalog.snapshot import Catalogs, CatalogSnapshot
from app.deps import VARIES_BY_FRAGMENT, CatalogsDep, Fragment, in_lane_if
from app.quoting.detours import DetourLink, explorer_detours, links
from app.quoting.explorer.listing import LABELS, LIST_FIELDS, ExplorerParams, explore, explored_csv, parse_explorer
from app.quoting.explorer.rows import COLUMNS, DEFAULT_COLUMNS, explorable
from app.quoting.explorer.workload import COLUMNS as WORKLOAD_COLUMNS
from app.quoting.explorer.workload import ExplorerWorkload
from app.quoting.params.quote import FieldErrors
from app.web.templating import templates

router = APIRouter(tags=["explorer"])


Query = dict[str, str | list[str]]


def _query(request: Request) -> Query:
    return {k: (request.query_params.getlist(k) if k in LIST_FIELDS else v) for k, v in request.query_params.items()}


def _heavy(request: Request, catalogs: Catalogs) -> bool:
    """Whether the workload the explorer was opened with is quoted afresh: the rest is a worker thread's."""
    parsed = parse_explorer(_query(request))
    if isinstance(parsed, dict) or not parsed.workload:
        return False
    catalog = catalogs.at(parsed.catalog_version)
    return catalog is not None and ExplorerWorkload.heavy(parsed.workload, catalogs, catalog)


def _read(
    request: Request, catalogs: Catalogs
) -> tuple[Query, ExplorerParams | FieldErrors, CatalogSnapshot, ExplorerWorkload | None]:
    """The raw query (to show back in the form), the params or what is wrong, the catalog asked for,
    and the calculator's inputs the explorer was opened with, if any."""
    query = _query(request)
    parsed = parse_explorer(query)
    catalog = catalogs.at(None if isinstance(parsed, dict) else parsed.catalog_version)
    if catalog is None:
        missing = {"catalog_version": f"there is no catalog version {query.get('catalog_version')}"}
        return query, missing, catalogs.current(), None
    if isinstance(parsed, dict) or not parsed.workload:
        return query, parsed, catalog, None
    workload = ExplorerWorkload.read(parsed.workload, catalogs, catalog)
    if isinstance(workload, dict):
        return query, workload, catalog, None
    return query, parsed, catalog, workload


@router.api_route("/offers", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
async def offers_page(request: Request, catalogs: CatalogsDep, fragment: Fragment) -> Response:
    return await in_lane_if(request, _heavy(request, catalogs), lambda: _offers_page(request, catalogs, fragment))


def _offers_page(request: Request, catalogs: Catalogs, fragment: bool) -> Response:
    query, parsed, catalog, workload = _read(request, catalogs)
    errors, explored = (parsed, None) if isinstance(parsed, dict) else ({}, explore(catalog, parsed, workload))
    detours: tuple[DetourLink, ...] = ()
    if explored is not None and not explored.rows:
        p = explored.params
        detours = links(explorer_detours(catalog, p), lambda update: f"/offers?{p.query(**update, page=1, at='')}")
    context = {
        "values": {"cols": list(DEFAULT_COLUMNS), "sort": "per_gpu_hour", "dir": "asc"} | query,
        "errors": errors,
        "labels": LABELS,
        "explored": explored,
        "detours": detours,
        "options": explorable(catalog),
        "catalog": catalog,
        "all_columns": COLUMNS,
        "workload_columns": WORKLOAD_COLUMNS,
        "fragment": fragment,
    }
    blocks = ["offer_table", "sort_fields", "filters_chosen"] if fragment else []
    # htmx swaps in only a 2xx answer: its partial states the refusal with a 200, or nobody sees it.
    status = 422 if errors and not fragment else 200
    return templates.TemplateResponse(
        request, "explorer/offers.html", context, status_code=status, headers=VARIES_BY_FRAGMENT, block_names=blocks
    )


@router.api_route("/offers.csv", methods=["GET", "HEAD"], response_class=PlainTextResponse, include_in_schema=False)
async def offers_csv(request: Request, catalogs: CatalogsDep) -> Response:
    """Exactly the rows the page lists for the same query (all its pages), with its columns."""
    return await in_lane_if(request, _heavy(request, catalogs), lambda: _offers_csv(request, catalogs))


def _offers_csv(request: Request, catalogs: Catalogs) -> Response:
    _, parsed, catalog, workload = _read(request, catalogs)
    if isinstance(parsed, dict):
        message = "; ".join(f"{LABELS.get(k, k)} {v}" for k, v in parsed.items())
        return PlainTextResponse(f"Nothing exported: {message}.\n", status_code=422)
    return Response(
        explored_csv(explore(catalog, parsed, workload)),
        media_type="text/csv",
        headers={"Content-Disposition": "attachment; filename=offers.csv"},
    )
