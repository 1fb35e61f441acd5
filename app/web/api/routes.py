"""JSON (and CSV) API: quotes with the same numbers as the page, and the catalog itself."""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import Response

from app.catalog.files import csv_text
from app.catalog.history import price_points
from app.catalog.snapshot import Catalogs, CatalogSnapshot
from app.deps import CatalogsDep, Database, heavy_turn, in_turn, off_the_loop
from app.errors import DATABASE_RETRY_AFTER_S, HEAVY, NOT_READY, core_refusal, refusals
from app.quoting.build import build_quote
from app.quoting.moves import heavy, heavy_sizing
from app.quoting.out.history import HistoryOut, HistoryParams
from app.quoting.out.job import SizedJobOut, sized_job_out
from app.quoting.out.offers import OFFER_OUT_COLUMNS, OfferFilters, OfferOut, offers_matching
from app.quoting.out.providers import ProviderOut
from app.quoting.out.quote import QuoteOut, quote_out
from app.quoting.out.split import SplitIn
from app.quoting.out.throughput import ThroughputOut
from app.quoting.params.quote import VERSION_MAX, FieldErrors, QuoteParams, SizeParams
from app.quoting.provider_view import Column, ProviderView
from app.quoting.sizing import size
from app.web.api.health import DatabaseProbe
from app.web.responses import CSVResponse, as_json

router = APIRouter(prefix="/api", tags=["api"])
T = TypeVar("T")


def _answered(result: T | FieldErrors, location: str = "query") -> T:
    """The result, or the refusal of the first field the core refused."""
    if isinstance(result, dict):
        raise core_refusal([location], result)
    return result


@router.get(
    "/quote",
    response_model=QuoteOut,
    responses=refusals(404) | HEAVY,
    summary="Quote a workload: the cheapest offer of each option",
)
async def api_quote(
    request: Request,
    params: Annotated[QuoteParams, Query()],
    catalogs: CatalogsDep,
    providers: Annotated[
        Column | None, Query(description="list each provider's cheapest offer too (`providers`), sorted by this")
    ] = None,
    providers_dir: Annotated[Literal["asc", "desc"], Query(description="lowest or highest first")] = "asc",
) -> QuoteOut | Response:
    """Each option's cheapest offer for the scenario, with USD per month rounded to the cent; with
    `providers`, each provider's cheapest offer too, as the page lists it behind its link. A heavy
    quote (a split, any GPU afresh) may be refused 429 or 503 with Retry-After."""
    view = ProviderView(providers=providers, providers_dir=providers_dir) if providers else None
    if heavy(catalogs, params):
        return await off_the_loop(request, lambda: as_json(quote_out(_answered(build_quote(catalogs, params)), view)))
    return quote_out(_answered(build_quote(catalogs, params)), view)


@router.post(
    "/split",
    response_model=QuoteOut,
    responses=refusals(400, 404, 413) | HEAVY,
    dependencies=[Depends(heavy_turn)],
    summary="Quote the hybrid split of a demand profile sent as JSON",
)
async def api_split(request: Request, params: SplitIn, catalogs: CatalogsDep) -> Response:
    """The answer of `/api/quote?job=split`, the same whole quote with the split under `split`, for
    the inputs as a JSON body: a month or a year of `hourly` demand (one hour a line) is too long for a
    query string. `job` may be left out; any job but split is refused. A refusal names the field, as
    `/api/quote`'s do: a bad hourly line by its number. Worked out in the heavy lane: past its bounds,
    429 or 503 with Retry-After, before the body is checked."""
    return await in_turn(request, lambda: as_json(quote_out(_answered(build_quote(catalogs, params), "body"))))


def _catalog(catalogs: Catalogs, version: int | None) -> CatalogSnapshot:
    found = catalogs.at(version)
    if found is None:
        raise HTTPException(404, f"there is no catalog version {version}")
    return found


@router.get("/offers", response_model=list[OfferOut], responses=refusals(404), summary="List the catalog's offers")
def api_offers(filters: Annotated[OfferFilters, Query()], catalogs: CatalogsDep) -> list[OfferOut]:
    """The catalog's offers at a version (default: newest), filtered."""
    return offers_matching(_catalog(catalogs, filters.catalog_version), filters)


@router.get("/offers.csv", response_class=CSVResponse, responses=refusals(404), summary="The same offers as CSV")
def api_offers_csv(filters: Annotated[OfferFilters, Query()], catalogs: CatalogsDep) -> Response:
    """The same offers as CSV, one row per offer."""
    offers = offers_matching(_catalog(catalogs, filters.catalog_version), filters)
    body = csv_text(OFFER_OUT_COLUMNS, ([getattr(o, name) for name in OFFER_OUT_COLUMNS] for o in offers))
    return CSVResponse(body, headers={"Content-Disposition": "attachment; filename=offers.csv"})


@router.get(
    "/providers",
    response_model=list[ProviderOut],
    responses=refusals(404),
    summary="Providers with their egress, storage and headquarters",
)
def api_providers(
    catalogs: CatalogsDep, catalog_version: Annotated[int | None, Query(ge=1, le=VERSION_MAX)] = None
) -> list[ProviderOut]:
    """Providers with their egress tiers and storage price at a version (default: newest)."""
    catalog = _catalog(catalogs, catalog_version)
    return [ProviderOut.of(p) for p in sorted(catalog.providers.values(), key=lambda p: p.slug)]


@router.get(
    "/throughput",
    response_model=ThroughputOut,
    responses=refusals(404),
    summary="Throughput benchmarks and GPU models' dense peaks",
)
def api_throughput(
    catalogs: CatalogsDep, catalog_version: Annotated[int | None, Query(ge=1, le=VERSION_MAX)] = None
) -> ThroughputOut:
    """Each benchmark (a model on a GPU model under named conditions) and each GPU model's dense peak per
    precision at a version (default: newest), with its source, as-of date and quote."""
    return ThroughputOut.of(_catalog(catalogs, catalog_version))


@router.get(
    "/size",
    response_model=SizedJobOut,
    responses=refusals(404) | HEAVY,
    summary="Size a model: its memory, the GPUs that hold it and what a stated job takes on each",
)
async def api_size(
    request: Request, params: Annotated[SizeParams, Query()], catalogs: CatalogsDep
) -> SizedJobOut | Response:
    """A model's memory need, term by term with its formula, how many GPUs of each model hold it and,
    for a stated job, what it takes on each GPU model offered. Serving's first sizing at a catalog
    version is heavy work, in its lane: past its bounds, 429 or 503 with Retry-After."""
    if params.measured_tps is not None and params.serves:
        _answered({"measured_tps": "is measured on one GPU model: quote it with /api/quote and that gpu"})
    if heavy_sizing(catalogs, params):
        return await off_the_loop(request, lambda: as_json(sized_job_out(_answered(size(catalogs, params)))))
    return sized_job_out(_answered(size(catalogs, params)))


@router.get(
    "/history",
    response_model=HistoryOut,
    responses=HEAVY,
    summary="How a GPU model's prices moved: dated points with their sources, and step series",
)
async def api_history(request: Request, params: Annotated[HistoryParams, Query()], db: Database) -> Response:
    """Every dated price of a GPU model (the shipped history, and each price the catalog has set since),
    with its source and quote, filtered; and the step series made of them, one per tenancy, billing kind,
    price basis and currency: the cheapest and the median over providers on each day, and how many.
    With `provider` (or an offer's `product` and `region`) the series are of those points alone, that
    provider's own line; the page `/history/{gpu}` draws that line over the whole market's. Heavy work,
    in its lane."""
    return await off_the_loop(request, lambda: as_json(_history(params, db)))


def _history(params: HistoryParams, db: Database) -> HistoryOut:
    with db() as session:
        points = price_points(session, params.gpu, params.filters)
    if points is None:
        raise core_refusal(["query"], {"gpu": f"the catalog has no GPU model {params.gpu!r}"})
    return HistoryOut.of(params.gpu, points)


@router.get("/health", responses=NOT_READY, summary="Is the service ready: does its database answer")
async def health(request: Request) -> dict[str, str]:
    """A readiness check for load balancers: 200 while the database answers, 503 when it has not
    for a second (app/web/api/health.py). The probe is read from the app's state, not a dependency, which
    would cost this endpoint (the benchmarks' yardstick of a request) a sixth of its time. A 503 asks
    for the wait every route that found the database not answering asks for (Retry-After: 5): a check
    has just given the database up to a second and a half on a connection of its own, so one asked
    again at once would mostly find it still down."""
    probe: DatabaseProbe = request.app.state.probe
    if not await probe.reachable():
        headers = {"Retry-After": str(DATABASE_RETRY_AFTER_S)}
        raise HTTPException(503, "The database did not answer within a second.", headers=headers)
    return {"status": "ok"}
