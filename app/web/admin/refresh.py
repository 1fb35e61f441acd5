"""Admin price refresh from public sources: fetched, previewed like an import, applied from the
import's own preview (one catalog version, or nothing)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.catalog.imports import save_pending_import
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, PublicSources
from app.refresh.fetch import RefreshFailed
from app.refresh.runs import ECB
from app.refresh.sources import SOURCES, plan_refresh
from app.refresh.status import RefreshStatus, statuses
from app.web.admin.pages import admin_page, import_preview_page, preview_prices

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)


def last_runs(db: Database) -> list[tuple[str, str, RefreshStatus | None]]:
    """Each source the scheduled `refresh --all` runs, its title, and its last success and failure."""
    with db() as session:
        known = statuses(session)
    titles = {name: source.title for name, source in SOURCES.items()} | {ECB: "ECB euro reference rate"}
    return [(name, title, known.get(name)) for name, title in titles.items()]


@router.get("/refresh", response_class=HTMLResponse)
def refresh_form(request: Request, admin: Admin, db: Database) -> Response:
    return admin_page(request, admin, "refresh", sources=SOURCES, problem="", chosen="", runs=last_runs(db))


@router.post("/refresh", response_class=HTMLResponse)
def preview_refresh(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep,
    client: PublicSources, source: Annotated[str, Form()] = "",
) -> Response:  # fmt: skip
    """Fetch the source and show what it would change; nothing is applied yet."""
    if source not in SOURCES:
        return admin_page(
            request, admin, "refresh", 422, sources=SOURCES, problem="Choose a source.", chosen="", runs=last_runs(db)
        )
    version = catalogs.current().version
    try:
        plan = plan_refresh(db, version, source, client)
    except RefreshFailed as e:
        problem = f"Nothing was changed: {e}."
        return admin_page(
            request, admin, "refresh", 502, sources=SOURCES, problem=problem, chosen=source, runs=last_runs(db)
        )
    title = SOURCES[source].title
    with db() as session:
        pending = save_pending_import(session, plan, version, admin.username) if plan.applicable else None
        prices = preview_prices(session, plan)
    return import_preview_page(request, admin, plan, pending, prices, title=title, note=f"refresh from {title}")
