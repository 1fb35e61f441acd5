"""The price history page: how a GPU model's prices moved, one step chart and table per series, and
its points as CSV; the same filters as `GET /api/history`, kept in the URL."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import ValidationError
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session, select

from app.catalog.files import csv_text
from app.catalog.history import HistoryFilters, price_points
from app.catalog.tables import GpuModel
from app.catalog.wording import BILLING_LABELS, TENANCY_LABELS
from app.deps import CatalogsDep, Database, off_the_loop
from app.errors import HEAVY
from app.quoting.out.history import HistoryParams, PricePointOut
from app.quoting.price_series import provider_names
from app.web.history.view import SeriesView, series_views
from app.web.responses import CSVResponse, not_found_page
from app.web.templating import templates

router = APIRouter(tags=["history"])


def _params(gpu: str, request: Request) -> HistoryParams | dict[str, str]:
    query = request.query_params
    asked = {"gpu": gpu} | {name: [v for v in query.getlist(name) if v] for name in ("tenancy", "billing")}
    try:
        return HistoryParams.model_validate(
            asked | {k: query[k] for k in ("provider", "product", "region") if query.get(k)}
        )
    except ValidationError as e:
        return {str(error["loc"][0]): error["msg"] for error in e.errors()}


@router.get("/history", include_in_schema=False)
def history_asked(request: Request, gpu: Annotated[str, Query()] = "H100") -> Response:
    """The page's form, sent without a script, on to the GPU model's own address with the filters
    it sets."""
    rest = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "gpu" and v])
    return RedirectResponse(f"/history/{quote(gpu, safe='')}" + (f"?{rest}" if rest else ""), status_code=303)


@router.get(
    "/history/{gpu}.csv",
    response_class=CSVResponse,
    responses=HEAVY,
    summary="A GPU model's prices as CSV, dated and undated",
)
async def history_csv(gpu: str, request: Request, db: Database) -> Response:
    """Heavy work (reading and writing every point), in its lane."""
    return await off_the_loop(request, lambda: _history_csv(gpu, request, db))


def _history_csv(gpu: str, request: Request, db: Database) -> Response:
    params = _params(gpu, request)
    if isinstance(params, dict):
        return PlainTextResponse("; ".join(f"{field}: {why}" for field, why in params.items()), status_code=422)
    with db() as session:
        points = price_points(session, params.gpu, params.filters)
    if points is None:
        return not_found_page(request)
    rows = [PricePointOut.of(p).model_dump(mode="json") for p in points]
    body = csv_text(list(PricePointOut.model_fields), [row.values() for row in rows])
    return CSVResponse(body, headers={"Content-Disposition": f'attachment; filename="price-history-{gpu}.csv"'})


@dataclass(frozen=True)
class _Found:
    views: list[SeriesView]
    gpus: list[str]
    providers: dict[str, str]
    """Each provider's name by key, in the order of the names."""


@lru_cache(maxsize=32)
def _found(db: sessionmaker[Session], version: int, gpu: str, wanted: HistoryFilters, today: date) -> _Found | None:
    """What the page shows, kept for each newest catalog `version`: every price change makes a version,
    so a page asked again before the next one is this one; None for no such GPU model."""
    with db() as session:
        points = price_points(session, gpu, wanted.market)
        gpus = list(session.exec(select(GpuModel.name).order_by(GpuModel.name)))
    if points is None:
        return None
    names = sorted(provider_names(points).items(), key=lambda named: named[1].casefold())
    return _Found(series_views(points, wanted, today), gpus, dict(names))


@router.get("/history/{gpu}", response_class=HTMLResponse, responses=HEAVY, summary="How a GPU model's prices moved")
async def history_page(gpu: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    """Per tenancy, billing kind, price basis and currency, never mixed: the cheapest and the median
    price per GPU-hour over time over every provider, the provider asked for drawn over them, and
    each point with its source. Heavy work (worked out afresh after each price change, 30 ms; a
    130 kB page to render, 13 ms), in its lane."""
    return await off_the_loop(request, lambda: _history_page(gpu, request, db, catalogs))


def _history_page(gpu: str, request: Request, db: Database, catalogs: CatalogsDep) -> Response:
    params = _params(gpu, request)
    wanted = params.filters if not isinstance(params, dict) else HistoryFilters()
    found = _found(db, catalogs.newest(), gpu, wanted, date.today())
    if found is None:
        return not_found_page(request)
    asked = [found.providers.get(wanted.provider, wanted.provider) if wanted.provider else None, wanted.product]
    own = " ".join(filter(None, asked)) + (f" in {wanted.region}" if wanted.region else "")
    context = {
        "gpu": gpu,
        "own": own,
        "gpus": found.gpus,
        "wanted": wanted,
        "errors": params if isinstance(params, dict) else {},
        "views": found.views,
        "providers": found.providers,
        "query": request.url.query,
        "tenancies": TENANCY_LABELS.items(),
        "billings": BILLING_LABELS.items(),
    }
    return templates.TemplateResponse(request, "history/history.html", context)
