"""The admin area: stale prices first, offers with their history, edits as new versions, the audit log."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlmodel import col, select

from app.catalog.changes import StaleRecord, change_offer_price, restore_offer, retire_offer
from app.catalog.tables import CatalogVersion, Offer
from app.db import CatalogsDep, SessionDep
from app.routes import admin_fields as fields
from app.routes.admin_auth import GUARDS, Admin
from app.security import csrf_token, remember_csrf
from app.templating import templates

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=GUARDS)

STALE_AFTER_DAYS = 90


def page(request: Request, admin: Admin, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """An admin page; it (re)sets the CSRF cookie, which a browser drops on restart while the
    longer admin session lives on."""
    token = csrf_token(request)
    context |= {"admin": admin, "csrf_token": token, "today": date.today()}
    response = templates.TemplateResponse(request, f"admin/{name}.html", context, status_code=status)
    remember_csrf(request, response, token)
    return response


@router.get("", response_class=HTMLResponse)
def stale_prices(
    request: Request, admin: Admin, catalogs: CatalogsDep, days: fields.Days = STALE_AFTER_DAYS
) -> HTMLResponse:
    """Prices older than `days` (or of unknown date), oldest first: what to check next."""
    catalog = catalogs.at()
    assert catalog is not None
    cutoff = date.today() - timedelta(days=max(days, 0))
    stale = sorted(
        (o for o in catalog.offers if o.as_of is None or o.as_of < cutoff),
        key=lambda o: (o.as_of is not None, o.as_of or date.min, o.provider.slug),
    )
    return page(request, admin, "stale", offers=stale, days=days)


@router.get("/offers", response_class=HTMLResponse)
def offers(
    request: Request,
    admin: Admin,
    catalogs: CatalogsDep,
    provider: str = "",
    gpu: str = "",
    tenancy: str = "",
    stale_days: fields.Days | None = None,
) -> HTMLResponse:
    catalog = catalogs.at()
    assert catalog is not None
    cutoff = None if stale_days is None else date.today() - timedelta(days=stale_days)
    shown = [
        o
        for o in catalog.offers
        if (not provider or o.provider.slug == provider)
        and (not gpu or o.gpu == gpu)
        and (not tenancy or o.priced.tenancy == tenancy)
        and (cutoff is None or o.as_of is None or o.as_of < cutoff)
    ]
    filters = {"provider": provider, "gpu": gpu, "tenancy": tenancy, "stale_days": stale_days}
    return page(request, admin, "offers", offers=shown, catalog=catalog, filters=filters)


def _current(session: SessionDep, row_id: int) -> Offer:
    row = session.get(Offer, row_id)
    if row is None:
        raise HTTPException(404, "no such offer")
    return row


@router.get("/offers/{row_id}", response_class=HTMLResponse)
def edit_offer(request: Request, admin: Admin, session: SessionDep, row_id: fields.Id) -> HTMLResponse:
    row = _current(session, row_id)
    return page(request, admin, "offer_edit", row=row, values={}, errors={})


@router.post("/offers/{row_id}", response_class=HTMLResponse)
def save_offer(
    request: Request,
    admin: Admin,
    session: SessionDep,
    row_id: fields.Id,
    price_usd: Annotated[str, Form()] = "",
    source_url: Annotated[str, Form()] = "",
    as_of: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
) -> Response:
    """A new price as a new version. `row_id` is the version the admin edited: if another admin
    changed the offer since, nothing is saved and both changes are shown."""
    row = _current(session, row_id)
    typed = {"price_usd": price_usd, "source_url": source_url, "as_of": as_of, "note": note}
    errors: fields.Errors = {}
    values = {
        "price_usd": fields.price(errors, "price_usd", price_usd),
        "source_url": fields.web_address(errors, "source_url", source_url),
        "as_of": fields.past_day(errors, "as_of", as_of),
    }
    fields.change_note(errors, "note", note)
    if errors:
        return page(request, admin, "offer_edit", 422, row=row, values=typed, errors=errors)
    try:
        change_offer_price(session, row_id, note=note.strip(), who=admin.username, **values)
    except StaleRecord:
        newer = session.exec(select(Offer).where(Offer.key == row.key).order_by(col(Offer.id).desc())).first()
        change = session.get(CatalogVersion, newer.valid_from) if newer else None
        return page(request, admin, "offer_edit", 409, row=row, values=typed, errors={}, conflict=(newer, change))
    return RedirectResponse(f"/admin/history?key={row.key}", status_code=303)


@router.post("/offers/{row_id}/retire")
def retire(admin: Admin, session: SessionDep, row_id: fields.Id, note: Annotated[str, Form()] = "retired") -> Response:
    row = _current(session, row_id)
    try:
        retire_offer(session, row_id, note.strip() or "retired", who=admin.username)
    except StaleRecord:
        raise HTTPException(409, "This offer was changed or retired meanwhile; open it again.") from None
    return RedirectResponse(f"/admin/history?key={row.key}", status_code=303)


@router.post("/offers/{row_id}/restore")
def restore(admin: Admin, session: SessionDep, row_id: fields.Id) -> Response:
    row = _current(session, row_id)
    try:
        restore_offer(session, row_id, f"restored the version of catalog {row.valid_from}", who=admin.username)
    except StaleRecord:
        raise HTTPException(409, "This offer was changed meanwhile; open its history again.") from None
    return RedirectResponse(f"/admin/history?key={row.key}", status_code=303)


@router.get("/history", response_class=HTMLResponse)
def history(request: Request, admin: Admin, session: SessionDep, key: str) -> HTMLResponse:
    """Every version of one offer, newest first, with what changed and who changed it."""
    rows = session.exec(select(Offer).where(Offer.key == key).order_by(col(Offer.id).desc())).all()
    if not rows:
        raise HTTPException(404, "no such offer")
    versions = {
        v.id: v
        for v in session.exec(select(CatalogVersion).where(col(CatalogVersion.id).in_({r.valid_from for r in rows})))
    }
    fields = ("price_usd", "price_period", "gpus_per_unit", "source_url", "as_of", "region")
    entries = []
    for newer, older in zip(rows, [*rows[1:], None], strict=True):
        changed = [f for f in fields if older is None or getattr(newer, f) != getattr(older, f)]
        entries.append((newer, versions.get(newer.valid_from), changed, older))
    return page(request, admin, "history", key=key, entries=entries)


@router.get("/audit", response_class=HTMLResponse)
def audit(request: Request, admin: Admin, session: SessionDep, by: str = "", record: str = "") -> HTMLResponse:
    """Every change of the catalog, newest first."""
    query = select(CatalogVersion).order_by(col(CatalogVersion.id).desc()).limit(500)
    if by:
        query = query.where(CatalogVersion.created_by == by)
    if record:
        query = query.where(col(CatalogVersion.record).contains(record))
    return page(request, admin, "audit", changes=session.exec(query).all(), by=by, record=record)
