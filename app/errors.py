"""Refusals that never become a 500 and read well: JSON for programs, a page for people."""

import logging
from typing import Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app.platform.settings import settings
from app.web.templating import templates

log = logging.getLogger(__name__)


class Refusal(BaseModel):
    """A refusal's body (other than validation's 422): what is wrong, in a sentence."""

    detail: str


_AS_JSON = {"application/json": {"schema": Refusal.model_json_schema()}}
"""Stated, not left to `model=`, which would document it in the route's own type (text/csv)."""
_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
REFUSALS: dict[int, dict[str, Any]] = {
    400: {"description": "The body is not text in UTF-8", "content": _AS_JSON},
    404: {"description": "Not found: no catalog version or scenario by that number or link", "content": _AS_JSON},
    413: {"description": "The body is over 256 kB", "content": {"text/plain": {"schema": {"type": "string"}}}},
    429: {"description": "Too many scenarios saved of late, by this client or by everyone", "content": _AS_JSON},
    503: {
        "description": "Busy (no database connection came free within DB_POOL_TIMEOUT_S, default 2 s) or the "
        "database is not answering; try again after Retry-After",
        "content": _AS_JSON,
        "headers": _RETRY_AFTER,
    },
}
HEAVY: dict[int | str, dict[str, Any]] = {
    429: {
        "description": "This client has HEAVY_PER_CLIENT (default 2) heavy answers under way or waiting; try again",
        "content": _AS_JSON,
        "headers": _RETRY_AFTER,
    },
    503: {
        "description": "Busy: HEAVY_AT_ONCE heavy answers under way and HEAVY_WAITING more waiting (default 2 and"
        " 8), or no database connection came free within DB_POOL_TIMEOUT_S (default 2 s); try again",
        "content": _AS_JSON,
        "headers": _RETRY_AFTER,
    },
}
"""The refusals of a route whose answer may be heavy (app/platform/heavy_work.py)."""


NOT_READY: dict[int | str, dict[str, Any]] = {
    503: {
        "description": "Not ready: the database did not answer within a second; ask again after Retry-After",
        "content": _AS_JSON,
        "headers": _RETRY_AFTER,
    }
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """An API route's `responses=`: the refusals besides 422 that its OpenAPI schema documents."""
    return {status: REFUSALS[status] for status in statuses}


def heavy_refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`refusals(*statuses) | HEAVY`, for a route whose answer may be heavy; its own 429 (too many saves)
    and the lane's, if both, described as one."""
    found = refusals(*statuses) | HEAVY
    if 429 in statuses:
        lanes = HEAVY[429]["description"]
        found[429] = HEAVY[429] | {"description": f"{REFUSALS[429]['description']}; or {lanes[0].lower()}{lanes[1:]}"}
    return found


def core_refusal(location: list[str], errors: dict[str, str]) -> HTTPException:
    """The first field the quote or sizing refused, named as validation names it (422); except a
    catalog version that does not exist, a 404, since no schema can say which versions exist."""
    field, message = next(iter(errors.items()))
    if field == "catalog_version":
        return HTTPException(404, message)
    return HTTPException(422, [{"loc": [*location, field], "msg": message, "type": "value_error"}])


async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 naming each field. The input is left out: NaN or Infinity in a JSON body has no JSON
    form, and echoing it would turn a clear refusal into a server error."""
    detail = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
    return JSONResponse({"detail": detail}, status_code=422)


def _routed_path(request: Request) -> str:
    """The path as the routes matched it. Not `request.url.path`: that is parsed by urllib, which drops
    tabs and carriage returns as a browser would, so `/api/scenarios/%0D` would read as `/api/scenarios/`."""
    return request.scope["path"]


def _wants_json(request: Request) -> bool:
    path = _routed_path(request)
    return path.startswith(("/api/", "/admin/api/")) or "text/html" not in request.headers.get("accept", "")


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    """People get a page that says what happened; API clients get JSON; redirects stay redirects."""
    if exc.status_code < 400:
        return Response(status_code=exc.status_code, headers=exc.headers)
    if exc.status_code == 404 and request.method in ("GET", "HEAD") and _routed_path(request).endswith("/"):
        found = _without_trailing_slash(request)
        if found is not None:
            return found
    if _wants_json(request):
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)
    context = {"status": exc.status_code, "message": exc.detail}
    return templates.TemplateResponse(request, "error.html", context, status_code=exc.status_code, headers=exc.headers)


RETRY_AFTER_S = 2
BUSY = "The server is busy; try again in a moment."


async def busy(request: Request, _exc: Exception) -> Response:
    """A request that waited DB_POOL_TIMEOUT_S for a database connection in vain (SQLAlchemy's
    TimeoutError): 503 with Retry-After at once, rather than a 500 after a long wait."""
    return await http_error(request, StarletteHTTPException(503, BUSY, headers={"Retry-After": str(RETRY_AFTER_S)}))


DATABASE_RETRY_AFTER_S = 5
UNAVAILABLE = "The database is not answering just now; try again in a moment."


async def database_unavailable(request: Request, exc: Exception) -> Response:
    """SQLAlchemy's OperationalError: PostgreSQL stopped, out of reach or gone mid-request, or the SQLite
    file gone (app/platform/db.py never makes a new one): 503 with Retry-After, the page titled so rather
    than a 500. The server's log says which (one line: the cause, not a traceback)."""
    log.warning("the database did not answer %s %s: %s", request.method, _routed_path(request), exc)
    headers = {"Retry-After": str(DATABASE_RETRY_AFTER_S)}
    if _wants_json(request):
        return JSONResponse({"detail": UNAVAILABLE}, status_code=503, headers=headers)
    context = {"status": 503, "heading": "Unavailable", "message": UNAVAILABLE}
    return templates.TemplateResponse(request, "error.html", context, status_code=503, headers=headers)


def _without_trailing_slash(request: Request) -> Response | None:
    """`/offers/` to `/offers` where that is a page, on PUBLIC_URL where it is set, else on the path
    alone: never on the request's Host header, and never to `//other.example`."""
    path = "/" + _routed_path(request).strip("/")
    if path == _routed_path(request) or not any(
        route.matches({**request.scope, "path": path})[0] is not Match.NONE for route in request.app.router.routes
    ):
        return None
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"{(settings.public_url or '').rstrip('/')}{path}{query}", status_code=307)


SERVER_ERROR = (
    "Something went wrong on our side and the request may not have been completed. "
    "Nothing is ever saved in part; try again in a moment."
)
"""True of any 500: each change is one transaction, rolled back unless it is committed whole; a
failure after the commit (while answering) leaves the change saved, hence "may not"."""


async def server_error(request: Request, _exc: Exception) -> Response:
    """The 500 of an unhandled exception: a plain page or JSON, never the traceback (the server logs it)."""
    if _wants_json(request):
        return JSONResponse({"detail": SERVER_ERROR}, status_code=500)
    return templates.TemplateResponse(request, "error.html", {"status": 500, "message": SERVER_ERROR}, status_code=500)
