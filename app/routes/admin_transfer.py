"""Bulk import with a preview, and exports of the whole catalog."""

from __future__ import annotations

import json
from datetime import date
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy import update
from sqlmodel import col

from app.admin.tables import PendingImport
from app.catalog.tables import Offer
from app.catalog.transfer import (
    ImportPlan,
    OfferRow,
    apply_import,
    export_catalog,
    export_offers_csv,
    plan_import,
    typed_row,
)
from app.costing.terms import Tenancy
from app.db import CatalogsDep, SessionDep
from app.routes import admin_fields as fields
from app.routes.admin import page
from app.routes.admin_auth import GUARDS, Admin

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=GUARDS)

MAX_IMPORT_BYTES = 8 * 1024 * 1024


@router.get("/import", response_class=HTMLResponse)
def import_form(request: Request, admin: Admin, catalogs: CatalogsDep) -> HTMLResponse:
    return page(request, admin, "import", catalog=catalogs.at(), problem="", values={})


@router.post("/import", response_class=HTMLResponse, max_body_size=MAX_IMPORT_BYTES + 64 * 1024)
def preview_import(
    request: Request,
    admin: Admin,
    session: SessionDep,
    catalogs: CatalogsDep,
    file: UploadFile,
    provider: Annotated[str, Form()] = "",
    tenancy: Annotated[str, Form()] = "virtualized",
    source_url: Annotated[str, Form()] = "",
    as_of: Annotated[str, Form()] = "",
) -> HTMLResponse:
    """Read the file and show what it would change; nothing is applied yet."""
    values = {"provider": provider, "tenancy": tenancy, "source_url": source_url, "as_of": as_of}
    catalog = catalogs.at()
    assert catalog is not None
    problem = ""
    content = file.file.read(MAX_IMPORT_BYTES + 1)  # a plain def: the database work runs off the event loop
    day = None
    if len(content) > MAX_IMPORT_BYTES:
        problem = "The file is larger than 8 MB."
    elif source_url and not source_url.startswith(("https://", "http://")):
        problem = "The source must be the http(s) address the file came from."
    elif tenancy not in set(Tenancy):
        problem = "Unknown tenancy."
    else:
        try:
            day = date.fromisoformat(as_of) if as_of else None
        except ValueError:
            problem = "The as-of date must be YYYY-MM-DD."
    if problem:
        return page(request, admin, "import", 422, catalog=catalog, problem=problem, values=values)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return page(
            request, admin, "import", 422, catalog=catalog, problem="The file is not UTF-8 text.", values=values
        )
    plan = plan_import(session, text, catalog.version, provider, tenancy, source_url, day)
    pending = None
    if not plan.problems and (plan.add or plan.change):
        pending = PendingImport(created_by=admin.username, catalog_version=catalog.version, plan=_dump(plan))
        session.add(pending)
        session.commit()
    current_prices = {row_id: _price_now(session, row_id) for row_id, _ in plan.change[:500]}
    return page(request, admin, "import_preview", plan=plan, pending=pending, current_prices=current_prices)


def _price_now(session: SessionDep, row_id: int) -> str:
    row = session.get(Offer, row_id)
    return f"{row.price_usd.normalize()} / {row.price_period}" if row else ""


def _dump(plan: ImportPlan) -> str:
    return json.dumps({"add": [r.as_json() for r in plan.add], "change": [[i, r.as_json()] for i, r in plan.change]})


def _load(text: str) -> ImportPlan:
    data = json.loads(text)
    return ImportPlan(
        add=[OfferRow(**typed_row(r)) for r in data["add"]],
        change=[(i, OfferRow(**typed_row(r))) for i, r in data["change"]],
    )


@router.post("/import/{pending_id}/apply")
def apply(
    request: Request, admin: Admin, session: SessionDep, catalogs: CatalogsDep, pending_id: fields.Id,
    note: Annotated[str, Form(max_length=500)] = "",
) -> Response:  # fmt: skip
    """All rows in one transaction as one catalog version, or none if anything moved meanwhile."""
    pending = session.get(PendingImport, pending_id)
    if pending is None or pending.applied:
        raise HTTPException(404, "no such import waiting")
    if catalogs.newest() != pending.catalog_version:
        raise HTTPException(409, "The catalog changed since this preview; upload the file again.")
    claimed = session.execute(
        update(PendingImport)
        .where(col(PendingImport.id) == pending_id, col(PendingImport.applied).is_(False))
        .values(applied=True)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise HTTPException(409, "This import is being applied already.")
    try:  # the claim commits with the import, or not at all
        apply_import(session, _load(pending.plan), note.strip() or "bulk import", admin.username)
    except ValueError as e:
        raise HTTPException(409, str(e)) from None
    return RedirectResponse("/admin/audit", status_code=303)


@router.get("/api/export.csv")
def export_csv(session: SessionDep, catalogs: CatalogsDep) -> Response:
    body = export_offers_csv(session, catalogs.newest())
    return Response(body, media_type="text/csv", headers={"Content-Disposition": 'attachment; filename="offers.csv"'})


@router.get("/api/export.json")
def export_json(session: SessionDep, catalogs: CatalogsDep) -> Response:
    body = json.dumps(export_catalog(session, catalogs.newest()), indent=1)
    disposition = 'attachment; filename="catalog.json"'
    return Response(body, media_type="application/json", headers={"Content-Disposition": disposition})
