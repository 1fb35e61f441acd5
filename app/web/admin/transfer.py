"""Admin bulk import with a preview, and exports of the whole catalog."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.catalog import rows as check
from app.catalog.changes import StaleRecord
from app.catalog.exports import export_catalog, export_offers_csv
from app.catalog.imports import apply_import, claim_pending_import, plan_import, save_pending_import
from app.catalog.queries import pending_import
from app.costing.terms import Tenancy
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, RecordId, off_the_loop
from app.web.admin.forms import FormReader, OptionalNote
from app.web.admin.pages import admin_page, import_preview_page, preview_prices

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

MAX_IMPORT_BYTES = 8 * 1024 * 1024
PREVIEW_FIELDS = {
    "source_url": "The source (the file's address) ",
    "tenancy": "The tenancy ",
    "as_of": "The as-of date ",
}


@router.get("/import", response_class=HTMLResponse)
def import_form(request: Request, admin: Admin, catalogs: CatalogsDep) -> Response:
    return admin_page(request, admin, "import", catalog=catalogs.current(), problem="", values={})


@router.post("/import", response_class=HTMLResponse, max_body_size=MAX_IMPORT_BYTES + 64 * 1024)
async def preview_import(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, file: UploadFile,
    provider: Annotated[str, Form()] = "", tenancy: Annotated[str, Form()] = "virtualized",
    source_url: Annotated[str, Form()] = "", as_of: Annotated[str, Form()] = "",
) -> Response:  # fmt: skip
    """Read the file and show what it would change; nothing is applied yet. Planning is heavy work (a
    file that brings the catalog to CATALOG_OFFERS_MAX takes a second or two; one far past it is read
    only that far), in its lane."""
    values = {"provider": provider, "tenancy": tenancy, "source_url": source_url, "as_of": as_of}
    return await off_the_loop(request, lambda: _preview(request, admin, db, catalogs, file, values))


def _preview(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, file: UploadFile, values: dict[str, str]
) -> Response:
    provider, tenancy, source_url, as_of = values["provider"], values["tenancy"], values["source_url"], values["as_of"]
    catalog = catalogs.current()
    content = file.file.read(MAX_IMPORT_BYTES + 1)
    form = FormReader()
    if len(content) > MAX_IMPORT_BYTES:
        form.errors["file"] = "The file is larger than 8 MB"
    if source_url:
        form.read("source_url", check.web_address, source_url)
    form.read("tenancy", check.one_of, tenancy, Tenancy)
    day = form.read("as_of", check.optional_past_day, as_of)
    text = ""
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        form.errors.setdefault("file", "The file is not UTF-8 text")
    del content  # up to 8 MB, not held while the plan is made
    if form.errors:
        problem = " ".join(f"{PREVIEW_FIELDS.get(key, '')}{message}." for key, message in form.errors.items())
        return admin_page(request, admin, "import", 422, catalog=catalog, problem=problem, values=values)
    with db() as session:
        plan = plan_import(session, text, catalog.version, provider, tenancy, source_url, day)
        pending = save_pending_import(session, plan, catalog.version, admin.username) if plan.applicable else None
        prices = preview_prices(session, plan)
    return import_preview_page(request, admin, plan, pending, prices, status=422 if plan.problems else 200)


@router.post("/import/{pending_id}/apply")
async def apply(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, pending_id: RecordId,
    note: OptionalNote = "",
) -> Response:  # fmt: skip
    """All rows in one transaction as one catalog version, or none if anything moved meanwhile. Heavy
    work (the plan read again and applied, then the new version read into memory), in its lane."""
    return await off_the_loop(request, lambda: _apply(admin, db, catalogs, pending_id, note))


def _apply(admin: Admin, db: Database, catalogs: CatalogsDep, pending_id: int, note: str) -> Response:
    newest = catalogs.newest()
    with db() as session:
        pending = pending_import(session, pending_id)
        if pending is None:
            raise HTTPException(404, "no such import waiting")
        if newest != pending.catalog_version:
            raise HTTPException(409, "The catalog changed since this preview; upload the file again.")
        try:  # the claim commits with the import, or not at all
            plan = claim_pending_import(session, pending_id)
            applied = apply_import(session, plan, note.strip() or "bulk import", admin.username)
        except StaleRecord:
            raise HTTPException(409, "This import is being applied already.") from None
        except ValueError as e:
            raise HTTPException(409, str(e)) from None
    catalogs.at(applied)  # read here, not by the first quote after it (20,000 offers: 1.5-3.5 s)
    return RedirectResponse("/admin/audit", status_code=303)


@router.get("/api/export.csv")
def export_csv(db: Database, catalogs: CatalogsDep) -> Response:
    newest = catalogs.newest()
    with db() as session:
        body = export_offers_csv(session, newest)
    return Response(body, media_type="text/csv", headers={"Content-Disposition": 'attachment; filename="offers.csv"'})


@router.get("/api/export.json")
def export_json(db: Database, catalogs: CatalogsDep) -> Response:
    newest = catalogs.newest()
    with db() as session:
        catalog = export_catalog(session, newest)
    body = json.dumps(catalog, indent=1)
    disposition = 'attachment; filename="catalog.json"'
    return Response(body, media_type="application/json", headers={"Content-Disposition": disposition})
