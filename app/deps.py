"""What the routes ask FastAPI for: database sessions, the catalog, fragment or page, the admin."""

from collections.abc import AsyncIterator, Callable, Iterator
from typing import Annotated, TypeVar
from urllib.parse import quote

import httpx
from fastapi import Depends, HTTPException, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import Field, TypeAdapter, ValidationError
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

from app.admin.accounts import session_user
from app.admin.password_checks import PasswordChecks
from app.admin.tables import AdminUser
from app.catalog.snapshot import Catalogs, catalogs_for
from app.platform.db import ID_MAX
from app.platform.heavy_work import HeavyWork
from app.platform.security import ADMIN_COOKIE, csrf_ok
from app.quoting.params.quote import VERSION_MAX
from app.refresh.sources import http_client


async def get_db(request: Request) -> sessionmaker[Session]:
    return request.app.state.db


Database = Annotated[sessionmaker[Session], Depends(get_db)]
"""Short sessions (`with db() as session:`), each closed before the route renders, quotes or calls
out: app/db.py's `session_factory`."""


async def get_password_checks(request: Request) -> PasswordChecks:
    return request.app.state.password_checks


PasswordChecksDep = Annotated[PasswordChecks, Depends(get_password_checks)]
"""The process's bound on password checks at once: app/admin/password_checks.py."""


CATALOG_VERSION = TypeAdapter(Annotated[int, Field(ge=1, le=VERSION_MAX)])
"""A `catalog_version` in a query, read as the routes' params read it."""


async def get_catalogs(request: Request) -> Catalogs:
    """Async, so that the slider's partial never waits for a worker thread: the version the query
    asks for (default: the newest) is found in memory when the process keeps it, and read in a
    thread of its own when it does not, so that no read of the database holds the event loop."""
    catalogs = catalogs_for(request.app.state.engine)
    await catalogs.settle(_version_asked(request))
    return catalogs


def _version_asked(request: Request) -> int | None:
    asked = request.query_params.get("catalog_version")
    if not asked:
        return None
    try:
        return CATALOG_VERSION.validate_python(asked)
    except ValidationError:
        return None  # the route refuses it, or answers the newest


CatalogsDep = Annotated[Catalogs, Depends(get_catalogs)]

T = TypeVar("T")


def _heavy(request: Request) -> tuple[HeavyWork, str]:
    return request.app.state.heavy, request.client.host if request.client else "unknown"


async def off_the_loop(request: Request, work: Callable[[], T]) -> T:
    """`work` in the lane for CPU-heavy answers (app/platform/heavy_work.py), in its client's turn, so
    that the slider's partial and /api/health never wait behind it; or refused 429 or 503 at once."""
    heavy, client = _heavy(request)
    return await heavy.answer(client, work)


async def in_lane_if(request: Request, heavy: bool, work: Callable[[], T]) -> T:
    """`work` in the heavy lane when `heavy` (app/quoting/moves.py decides), else in a worker thread as a
    plain route's, since it may read the database or a catalog version the process does not keep."""
    return await (off_the_loop(request, work) if heavy else run_in_threadpool(work))


async def in_turn(request: Request, work: Callable[[], T]) -> T:
    """`work` in the heavy lane, for a route whose turn `heavy_turn` took."""
    return await _heavy(request)[0].run(work)


async def heavy_turn(request: Request) -> AsyncIterator[None]:
    """A turn in the heavy lane, taken before the body is checked against its model: checking a year
    of hours costs the event loop about 10 ms, which a request refused should not cost it."""
    heavy, client = _heavy(request)
    async with heavy.turn(client):
        yield


async def _is_fragment(request: Request) -> bool:
    """htmx asks for the fragment; a history restore or a plain browser GET gets the whole page."""
    return "HX-Request" in request.headers and "HX-History-Restore-Request" not in request.headers


Fragment = Annotated[bool, Depends(_is_fragment)]
VARIES_BY_FRAGMENT = {"Vary": "HX-Request"}
"""One URL answers a fragment or the whole page by that header: a browser's cache must keep them
apart, or going back could show a bare fragment."""

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def current_admin(request: Request, db: Database) -> AdminUser:
    """The signed-in admin; pages send everyone else to sign in, the admin API answers 401."""
    with db() as session:
        user = session_user(session, request.cookies.get(ADMIN_COOKIE))
    if user is None:
        if request.url.path.startswith("/admin/api/"):
            raise HTTPException(401, "sign in first")
        raise HTTPException(303, headers={"Location": f"/admin/login?next={quote(request.url.path)}"})
    return user


async def csrf_protect(request: Request) -> None:
    """Every request that changes data carries the CSRF token: htmx in a header, forms in a field."""
    if request.method in SAFE_METHODS:
        return
    submitted = request.headers.get("X-CSRF-Token")
    if submitted is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        field = (await request.form()).get("csrf_token")
        submitted = field if isinstance(field, str) else None
    if not csrf_ok(request, submitted):
        raise HTTPException(403, "This request carried no valid CSRF token; nothing was changed.")


Admin = Annotated[AdminUser, Depends(current_admin)]

ADMIN_GUARDS = [Depends(current_admin), Depends(csrf_protect)]
"""On every admin router: signed in, and a CSRF token on every change."""


async def _posted_form(request: Request) -> dict[str, str]:
    """The text fields of a posted form as typed (parsed once: the CSRF check may have read them)."""
    return {name: value for name, value in (await request.form()).items() if isinstance(value, str)}


PostedForm = Annotated[dict[str, str], Depends(_posted_form)]
"""What an admin edit reads into its model (app/forms.py)."""


def public_sources() -> Iterator[httpx.Client]:
    """The HTTP client that reads public price sources; the tests answer in its place."""
    with http_client() as client:
        yield client


PublicSources = Annotated[httpx.Client, Depends(public_sources)]

RecordId = Annotated[int, Path(ge=1, le=ID_MAX)]
"""A record id in a path: a larger number names no row, and is refused (422) before a query is made of it."""
Days = Annotated[int, Query(ge=0, le=36_500)]
