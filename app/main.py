"""Builds the app: its database engine, brought to head and seeded at start; static files; routers."""

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from anyio import to_thread
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

from app.admin.accounts import dummy_hash
from app.admin.password_checks import PasswordChecks
from app.catalog.snapshot import catalogs_for
from app.catalog.updates import bring_up_to_date
from app.errors import busy, database_unavailable, http_error, server_error, validation_error
from app.platform.allocator import settle_allocator
from app.platform.assets import Assets
from app.platform.client_address import ClientAddress
from app.platform.db import make_engine, session_factory
from app.platform.heavy_work import HeavyWork
from app.platform.hosts import AllowedHosts
from app.platform.paths import FinalNewline
from app.platform.security import SecurityHeaders
from app.platform.settings import ROOT, settings
from app.web.admin import (
    audit,
    auth,
    fabrics,
    gpus,
    offers,
    presets,
    providers,
    rates,
    refresh,
    servers,
    throughput,
    transfer,
)
from app.web.api import docs
from app.web.api import routes as api
from app.web.api.health import DatabaseProbe, probe_engine
from app.web.calculator import routes as calculator
from app.web.calculator import uploads
from app.web.explorer import routes as explorer
from app.web.history import routes as history
from app.web.scenarios import compare
from app.web.scenarios import routes as scenarios

MAX_BODY_BYTES = 256 * 1024
"""The largest request: a scenario with a 2,000-character note is a few kB; nothing needs more."""


class App(FastAPI):
    """FastAPI with four layers outside every other: the client's address, settled before anything
    reads it; the security headers, so that Starlette's own responses (the 500 of an unhandled
    exception, the body limit's 413) carry them too; the host check, before anything reads Host; and
    a path's final newline, before a route is matched."""

    def build_middleware_stack(self) -> ASGIApp:
        return ClientAddress(SecurityHeaders(AllowedHosts(FinalNewline(super().build_middleware_stack()))))


GZIP_LEVEL = 1
"""Measured by bench/bench_partial.py on a 22 KB partial: level 1 sends 5.4 KB for 0.18 ms of server
time, level 5 4.8 KB for 0.42 ms; the page's bytes barely move, and every slider move pays it."""


def create_app(database_url: str | None = None) -> FastAPI:
    """The app on one database (default: DATABASE_URL). Nothing touches the database until it starts."""
    url = database_url or settings.database_url

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settle_allocator()  # before the worker threads: each would otherwise keep an arena of its own
        bring_up_to_date(url)
        # One connection for each worker thread, each heavy answer's thread and the event loop's
        # catalog reads: each holds at most one at a time, so none waits for another to give one back.
        to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        connections = settings.worker_threads + settings.heavy_at_once + 1
        engine = make_engine(url, connections=connections, wait_s=settings.db_pool_timeout_s)
        catalogs_for(engine).at()
        app.state.engine = engine
        app.state.db = session_factory(engine)
        app.state.probe = DatabaseProbe(probe_engine(url))
        app.state.probe.watch(engine)
        gc.freeze()  # the catalog lives as long as the process: keep it out of every full collection
        await app.state.password_checks.run(dummy_hash)  # made now, and a check's time measured
        yield
        engine.dispose()
        app.state.probe.engine.dispose()

    app = App(
        title="GPU cost calculator",
        lifespan=lifespan,
        max_body_size=MAX_BODY_BYTES,
        docs_url=None,
        redoc_url=None,
        redirect_slashes=False,  # Starlette's would name the request's Host: errors.http_error redirects instead
    )
    app.state.heavy = HeavyWork(settings.heavy_at_once, settings.heavy_waiting, settings.heavy_per_client)
    app.state.password_checks = PasswordChecks(settings.password_checks_at_once, settings.password_check_wait_max_s)
    app.add_exception_handler(Exception, server_error)
    app.add_exception_handler(RequestValidationError, validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(PoolTimeout, busy)
    app.add_exception_handler(OperationalError, database_unavailable)
    app.add_middleware(GZipMiddleware, minimum_size=1000, compresslevel=GZIP_LEVEL)
    app.mount("/static", Assets(directory=ROOT / "static"), name="static")
    for area in (
        calculator,
        uploads,
        api,
        scenarios,
        compare,
        explorer,
        history,
        docs,
        auth,
        offers,
        providers,
        gpus,
        transfer,
        refresh,
        rates,
        presets,
        throughput,
        fabrics,
        servers,
        audit,
    ):
        app.include_router(area.router)
    app.include_router(scenarios.api_router)
    return app


app = create_app()
