"""The calculator page: the form and, for htmx, only its results block."""

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from app.deps import CatalogsDep, Database, Fragment, off_the_loop
from app.quoting.moves import heavy
from app.quoting.params.form import parse_params, query_of
from app.quoting.params.quote import QuoteParams
from app.scenarios.profiles import profile_hours
from app.web.calculator.page import calculator_page

router = APIRouter(tags=["calculator"])

NOT_KEPT = "is not an upload kept here: upload the CSV again"


@router.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
async def calculator(request: Request, catalogs: CatalogsDep, db: Database, fragment: Fragment) -> Response:
    """An uploaded profile comes by its key, its hours read from the store (in a thread: the slider's
    moves without one never wait for the database). A heavy quote (a split, any GPU afresh) is worked
    out in its lane; an ordinary one, as the slider asks for, on the event loop, never behind it."""
    query = query_of(request.query_params.multi_items())
    key = query.get("hourly_key")
    if isinstance(key, str) and key and not query.get("hourly"):
        hours = await run_in_threadpool(_kept_hours, db, key)
        if hours is None:
            return calculator_page(request, catalogs, query, fragment, problems={"hourly_key": NOT_KEPT})
        query["hourly"] = hours
    parsed = parse_params(query, QuoteParams)
    if not isinstance(parsed, dict) and heavy(catalogs, parsed):
        return await off_the_loop(request, lambda: calculator_page(request, catalogs, query, fragment))
    return calculator_page(request, catalogs, query, fragment)


def _kept_hours(db: Database, key: str) -> str | None:
    with db() as session:
        return profile_hours(session, key)
