"""Admin providers: a new provider, and each one's headquarters, egress tiers and storage price,
each edited as a new version and refused if someone changed it since the form was opened."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import StaleRecord, retire_offers_of
from app.catalog.provider_changes import add_provider, change_headquarters, replace_egress_tiers, replace_storage
from app.catalog.queries import provider_by_slug, provider_ids, provider_now
from app.catalog.rows import decimal_text
from app.catalog.tables import Provider, StorageKind
from app.catalog.tier_rows import parse_tiers
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, RecordId
from app.forms import SOURCE_KINDS, Errors, FormReader, OptionalNote, read_provenance
from app.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

CONFLICT = "Someone changed this after you opened the page; the current values are shown, and yours below."
STORAGE_KINDS = [
    (StorageKind.BLOCK_VOLUME, "block volume"),
    (StorageKind.SHARED_FILESYSTEM, "network volume / shared filesystem"),
]


def _tiers_text(tiers: list[Any], price: str) -> str:
    return "\n".join(",".join("" if v is None else decimal_text(v) for v in (t.from_gb, t.to_gb, getattr(t, price)))
                     for t in tiers)  # fmt: skip


def _provider_page(
    request: Request, admin: AdminUser, db: Database, provider_id: int, status: int = 200,
    errors: Errors | None = None, values: dict[str, str] | None = None,
) -> Response:  # fmt: skip
    with db() as session:
        provider = _provider(session, provider_id)
        now = provider_now(session, provider)
    context = now | {
        "provider": provider,
        "tiers_text": _tiers_text(now["tiers"], "usd_per_gb"),
        "storage_text": _tiers_text(now["storage"], "usd_per_gb_month"),
        "source_kinds": SOURCE_KINDS,
        "storage_kinds": STORAGE_KINDS,
        "errors": errors or {},
        "values": values or {},
    }
    return admin_page(request, admin, "provider", status, **context)


def _provider(session: Session, provider_id: int) -> Provider:
    provider = session.get(Provider, provider_id)
    if provider is None:
        raise HTTPException(404, "no such provider")
    return provider


def _providers_page(
    request: Request, admin: AdminUser, db: Database, catalogs: CatalogsDep, status: int = 200,
    errors: Errors | None = None, values: dict[str, str] | None = None,
) -> Response:  # fmt: skip
    with db() as session:
        ids = provider_ids(session)
    context = {"catalog": catalogs.current(), "ids": ids, "errors": errors or {}, "values": values or {}}
    return admin_page(request, admin, "providers", status, **context)


@router.get("/providers", response_class=HTMLResponse)
def providers(request: Request, admin: Admin, catalogs: CatalogsDep, db: Database) -> Response:
    return _providers_page(request, admin, db, catalogs)


@router.post("/providers", response_class=HTMLResponse)
def create_provider(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep,
    slug: Annotated[str, Form()] = "", name: Annotated[str, Form()] = "",
    hq_country: Annotated[str, Form()] = "", hq_source: Annotated[str, Form()] = "",
) -> Response:  # fmt: skip
    form = FormReader()
    if form.read("slug", check.provider_slug, slug):
        with db() as session:
            if provider_by_slug(session, slug):
                form.errors["slug"] = "there is already a provider with this id"
    display_name = form.read("name", check.text, name, 100)
    country = form.read("hq_country", check.country, hq_country)
    if hq_country:
        form.read("hq_source", check.web_address, hq_source)
    if form.errors:
        values = {"slug": slug, "name": name, "hq_country": hq_country, "hq_source": hq_source}
        return _providers_page(request, admin, db, catalogs, 422, form.errors, values)
    with db() as session:
        provider = add_provider(session, slug, display_name, country, hq_source, admin.username)
    return RedirectResponse(f"/admin/providers/{provider.id}", status_code=303)


@router.get("/providers/{provider_id}", response_class=HTMLResponse)
def provider(request: Request, admin: Admin, db: Database, provider_id: RecordId) -> Response:
    return _provider_page(request, admin, db, provider_id)


@router.post("/providers/{provider_id}/headquarters", response_class=HTMLResponse)
def save_headquarters(
    request: Request, admin: Admin, db: Database, provider_id: RecordId,
    hq_country: Annotated[str, Form()] = "", hq_source: Annotated[str, Form()] = "",
    hq_as_of: Annotated[str, Form()] = "", hq_source_kind: Annotated[str, Form()] = "",
    hq_quote: Annotated[str, Form()] = "", note: Annotated[str, Form()] = "", based_on: Annotated[int, Form()] = 0,
) -> Response:  # fmt: skip
    values = {"hq_country": hq_country, "hq_source": hq_source, "hq_as_of": hq_as_of,
              "hq_source_kind": hq_source_kind, "hq_quote": hq_quote, "hq_note": note}  # fmt: skip
    form = FormReader()
    country = form.read("hq_country", check.country, hq_country)
    provenance = read_provenance(form, "hq_", hq_source, hq_as_of, hq_source_kind, hq_quote)
    why = form.read("hq_note", check.change_note, note)
    if form.errors:
        return _provider_page(request, admin, db, provider_id, 422, form.errors, values)
    try:
        with db() as session:
            _provider(session, provider_id)
            change_headquarters(session, provider_id, country, provenance, why, admin.username, based_on)
    except StaleRecord:
        return _provider_page(request, admin, db, provider_id, 409, {"conflict": CONFLICT}, values)
    return RedirectResponse(f"/admin/providers/{provider_id}", status_code=303)


@router.post("/providers/{provider_id}/egress", response_class=HTMLResponse)
def save_egress(
    request: Request, admin: Admin, db: Database, provider_id: RecordId,
    tiers: Annotated[str, Form()] = "", source: Annotated[str, Form()] = "", as_of: Annotated[str, Form()] = "",
    source_kind: Annotated[str, Form()] = "", quote: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "", based_on: Annotated[int, Form()] = 0,
) -> Response:  # fmt: skip
    """The whole tier table at once; empty means the provider publishes no egress price."""
    values = {"tiers": tiers, "source": source, "as_of": as_of, "source_kind": source_kind, "quote": quote,
              "note": note}  # fmt: skip
    form = FormReader()
    parsed = form.read("tiers", parse_tiers, tiers) if tiers.strip() else []
    provenance = read_provenance(form, "", source, as_of, source_kind, quote)
    why = form.read("note", check.change_note, note)
    if form.errors:
        return _provider_page(request, admin, db, provider_id, 422, form.errors, values)
    try:
        with db() as session:
            _provider(session, provider_id)
            replace_egress_tiers(session, provider_id, parsed, provenance, why, admin.username, based_on)
    except StaleRecord:
        return _provider_page(request, admin, db, provider_id, 409, {"conflict": CONFLICT}, values)
    return RedirectResponse(f"/admin/providers/{provider_id}", status_code=303)


@router.post("/providers/{provider_id}/storage", response_class=HTMLResponse)
def save_storage(
    request: Request, admin: Admin, db: Database, provider_id: RecordId,
    kind: Annotated[str, Form()] = "", product: Annotated[str, Form()] = "", tiers: Annotated[str, Form()] = "",
    source: Annotated[str, Form()] = "", as_of: Annotated[str, Form()] = "",
    source_kind: Annotated[str, Form()] = "", quote: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "", based_on: Annotated[int, Form()] = 0,
) -> Response:  # fmt: skip
    """The storage GPU users keep checkpoints on, as tiers per GB-month; empty means none is published."""
    values = {"storage_kind": kind, "storage_product": product, "storage_tiers": tiers, "storage_source": source,
              "storage_as_of": as_of, "storage_source_kind": source_kind, "storage_quote": quote,
              "storage_note": note}  # fmt: skip
    form = FormReader()
    parsed = form.read("storage_tiers", parse_tiers, tiers) if tiers.strip() else []
    storage_kind = form.read("storage_kind", lambda v: check.one_of(v, StorageKind), kind)
    name = form.read("storage_product", lambda v: check.text(v, 120), product)
    provenance = read_provenance(form, "storage_", source, as_of, source_kind, quote)
    why = form.read("storage_note", check.change_note, note)
    if form.errors:
        return _provider_page(request, admin, db, provider_id, 422, form.errors, values)
    try:
        with db() as session:
            _provider(session, provider_id)
            replace_storage(session, provider_id, storage_kind or "", name or "", parsed, provenance, why,
                            admin.username, based_on)  # fmt: skip
    except StaleRecord:
        return _provider_page(request, admin, db, provider_id, 409, {"conflict": CONFLICT}, values)
    return RedirectResponse(f"/admin/providers/{provider_id}", status_code=303)


@router.post("/providers/{provider_id}/retire")
def retire_provider(admin: Admin, db: Database, provider_id: RecordId, note: OptionalNote = "") -> Response:
    """All of a provider's offers leave new quotes at once; saved scenarios and history keep them."""
    with db() as session:
        p = _provider(session, provider_id)
        retire_offers_of(session, admin.username, note.strip() or f"{p.name} retired", provider_id=provider_id)
    return RedirectResponse(f"/admin/offers?provider={p.slug}", status_code=303)
