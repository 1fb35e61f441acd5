"""Signing admins in and out."""

from __future__ import annotations

import time
from asyncio import sleep
from typing import Annotated

from anyio import CapacityLimiter, to_thread
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.admin.accounts import authenticate, end_session, start_session
from app.admin.password_checks import ChecksBusy
from app.admin.tables import AdminUser
from app.admin.throttle import Throttled, failures_from, record_attempt
from app.deps import ADMIN_COOKIE, Database, PasswordChecksDep, csrf_protect
from app.platform.db import in_a_session
from app.platform.security import (
    client_key,
    csrf_token,
    new_csrf_token,
    remember_csrf,
    served_over_https,
    set_csrf_cookie,
)
from app.platform.settings import settings
from app.web.templating import templates

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False)

FEW_RECORDS_AT_ONCE = CapacityLimiter(4)
"""Attempts go on record 4 at a time in a process, the others waiting their turn on the event loop:
SQLite gives its write lock to whichever waiting thread asks first, and of 150 attempts at once in
40 threads some waited past its 5 s busy timeout for a 500 (issue 40). One at a time, PostgreSQL's
records waited up to 14 s for each other under the same storm; 4 at a time, up to 4 s on both."""


def _login_page(request: Request, status: int = 200, problem: str = "", next_path: str = "/admin") -> Response:
    token = csrf_token(request)
    context = {"csrf_token": token, "problem": problem, "next_path": next_path}
    response = templates.TemplateResponse(request, "admin/login.html", context, status_code=status)
    remember_csrf(request, response, token)
    return response


def _safe_next(path: str) -> str:
    """Only back into the admin area: a sign-in link must not send anyone elsewhere."""
    return path if path.startswith("/admin") and not path.startswith("//") else "/admin"


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str = "/admin") -> Response:
    return _login_page(request, next_path=_safe_next(next))


def _new_session(session: Session, user: AdminUser, old_token: str | None) -> str:
    end_session(session, old_token)  # a new sign-in never keeps an old session
    return start_session(session, user)


@router.post("/login", response_class=HTMLResponse, dependencies=[Depends(csrf_protect)])
async def login(
    request: Request,
    db: Database,
    checks: PasswordChecksDep,
    username: Annotated[str, Form(max_length=64)] = "",
    password: Annotated[str, Form(max_length=1024)] = "",
    next: Annotated[str, Form()] = "/admin",
) -> Response:
    """Async, so that an attempt's wait (app/admin/throttle.py) and its place in the queue for a
    password check (app/admin/password_checks.py) hold no thread and no connection; the database
    and the password hash run in threads."""
    asked = time.monotonic()
    try:
        attempt = await to_thread.run_sync(
            in_a_session, db, record_attempt, username, client_key(request), limiter=FEW_RECORDS_AT_ONCE
        )
    except Throttled as e:
        return _login_page(request, 429, str(e), _safe_next(next))
    await sleep(max(0.0, attempt.delay_s - (time.monotonic() - asked)))  # its wait counts from when it was asked
    failures = await to_thread.run_sync(
        in_a_session, db, failures_from, client_key(request), limiter=FEW_RECORDS_AT_ONCE
    )  # counted after the wait, when a storm's guesses sent with it are all on record
    try:
        user = await authenticate(db, checks, attempt, username, password, failures)
    except ChecksBusy as e:
        response = _login_page(request, 429, str(e), _safe_next(next))
        response.headers["Retry-After"] = str(e.retry_after_s)
        return response
    if user is None:
        return _login_page(request, 401, "Wrong name or password.", _safe_next(next))
    response = RedirectResponse(_safe_next(next), status_code=303)
    admin_session = await run_in_threadpool(in_a_session, db, _new_session, user, request.cookies.get(ADMIN_COOKIE))
    response.set_cookie(
        ADMIN_COOKIE,
        admin_session,
        max_age=settings.admin_session_hours * 3600,
        httponly=True,
        samesite="lax",
        secure=served_over_https(request),
    )
    set_csrf_cookie(request, response, new_csrf_token(admin_session))  # a token from before signing in is no good after
    return response


@router.post("/logout", dependencies=[Depends(csrf_protect)])
def logout(request: Request, db: Database) -> Response:
    with db() as session:
        end_session(session, request.cookies.get(ADMIN_COOKIE))
    response = RedirectResponse("/admin/login", status_code=303)
    response.delete_cookie(ADMIN_COOKIE)
    return response
