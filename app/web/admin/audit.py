"""The audit log: every change of the catalog, who made it, when, to which record and why."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.catalog.queries import audit_log
from app.deps import ADMIN_GUARDS, Admin, Database
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)


@router.get("/audit", response_class=HTMLResponse)
def audit(request: Request, admin: Admin, db: Database, by: str = "", record: str = "") -> Response:
    """Every change of the catalog, newest first."""
    with db() as session:
        changes = audit_log(session, by, record)
    return admin_page(request, admin, "audit", changes=changes, by=by, record=record)
