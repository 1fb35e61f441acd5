"""Admin offers: stale prices first, offers filterable, a price edit as a new version, retiring and
restoring, each offer's history, and new offers."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel
from sqlmodel import Session

from app.catalog import rows as check
from app.catalog.changes import StaleRecord, add_offer, change_offer_price, restore_offer, retire_offer
from app.catalog.queries import gpu_by_name, newest_version_of, offer_exists, offer_history, provider_by_slug
from app.catalog.rows import OfferRow, check_offer_fields, offer_key
from app.catalog.snapshot import CatalogSnapshot
from app.catalog.tables import OfferVersion
from app.costing.terms import Billing, PricePeriod, Tenancy
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, Days, RecordId
from app.forms import FormReader, OptionalNote
from app.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

STALE_AFTER_DAYS = 90


@router.get("", response_class=HTMLResponse)
def stale_prices(request: Request, admin: Admin, catalogs: CatalogsDep, days: Days = STALE_AFTER_DAYS) -> Response:
    """Prices older than `days` (or of unknown date), oldest first: what to check next."""
    cutoff = date.today() - timedelta(days=days)
    stale = sorted(
        (o for o in catalogs.current().offers if o.row.as_of is None or o.row.as_of < cutoff),
        key=lambda o: (o.row.as_of is not None, o.row.as_of or date.min, o.provider.slug),
    )
    return admin_page(request, admin, "stale", offers=stale, days=days)


@router.get("/offers", response_class=HTMLResponse)
def offers(
    request: Request, admin: Admin, catalogs: CatalogsDep,
    provider: str = "", gpu: str = "", tenancy: str = "", stale_days: Days | None = None,
) -> Response:  # fmt: skip
    catalog = catalogs.current()
    cutoff = None if stale_days is None else date.today() - timedelta(days=stale_days)
    shown = [
        o
        for o in catalog.offers
        if (not provider or o.provider.slug == provider)
        and (not gpu or o.row.gpu == gpu)
        and (not tenancy or o.priced.tenancy == tenancy)
        and (cutoff is None or o.row.as_of is None or o.row.as_of < cutoff)
    ]
    filters = {"provider": provider, "gpu": gpu, "tenancy": tenancy, "stale_days": stale_days}
    return admin_page(request, admin, "offers", offers=shown, catalog=catalog, filters=filters)


def _history_url(key: str) -> str:
    """Keys hold spaces and any character a product name has: encoded, never cut at an & or #."""
    return f"/admin/history?{urlencode({'key': key})}"


def _offer_row(session: Session, row_id: int) -> OfferVersion:
    row = session.get(OfferVersion, row_id)
    if row is None:
        raise HTTPException(404, "no such offer")
    return row


def _read_offer_row(db: Database, row_id: int) -> OfferVersion:
    with db() as session:
        return _offer_row(session, row_id)


@router.get("/offers/{row_id}", response_class=HTMLResponse)
def edit_offer(request: Request, admin: Admin, db: Database, row_id: RecordId) -> Response:
    return admin_page(request, admin, "offer_edit", row=_read_offer_row(db, row_id), values={}, errors={})


@router.post("/offers/{row_id}", response_class=HTMLResponse)
def save_offer(
    request: Request, admin: Admin, db: Database, row_id: RecordId,
    price_usd: Annotated[str, Form()] = "", source_url: Annotated[str, Form()] = "",
    as_of: Annotated[str, Form()] = "", note: Annotated[str, Form()] = "",
) -> Response:  # fmt: skip
    """A new price as a new version. `row_id` is the version the admin edited: if another admin
    changed the offer since, nothing is saved and both changes are shown."""
    row = _read_offer_row(db, row_id)
    typed = {"price_usd": price_usd, "source_url": source_url, "as_of": as_of, "note": note}
    form = FormReader()
    amount = form.read("price_usd", check.price, price_usd)
    source = form.read("source_url", check.web_address, source_url)
    day = form.read("as_of", check.past_day, as_of)
    why = form.read("note", check.change_note, note)
    if form.errors:
        return admin_page(request, admin, "offer_edit", 422, row=row, values=typed, errors=form.errors)
    try:
        with db() as session:
            change_offer_price(session, row_id, amount, source, day, why, who=admin.username)
    except StaleRecord:
        with db() as session:
            conflict = newest_version_of(session, row.key)
        return admin_page(request, admin, "offer_edit", 409, row=row, values=typed, errors={}, conflict=conflict)
    return RedirectResponse(_history_url(row.key), status_code=303)


@router.post("/offers/{row_id}/retire")
def retire(admin: Admin, db: Database, row_id: RecordId, note: OptionalNote = "retired") -> Response:
    with db() as session:
        row = _offer_row(session, row_id)
        try:
            retire_offer(session, row_id, note.strip() or "retired", who=admin.username)
        except StaleRecord:
            raise HTTPException(409, "This offer was changed or retired meanwhile; open it again.") from None
    return RedirectResponse(_history_url(row.key), status_code=303)


@router.post("/offers/{row_id}/restore")
def restore(admin: Admin, db: Database, row_id: RecordId) -> Response:
    with db() as session:
        row = _offer_row(session, row_id)
        try:
            restore_offer(session, row_id, f"restored the version of catalog {row.valid_from}", who=admin.username)
        except StaleRecord:
            raise HTTPException(409, "This offer was changed meanwhile; open its history again.") from None
    return RedirectResponse(_history_url(row.key), status_code=303)


@router.get("/history", response_class=HTMLResponse)
def history(request: Request, admin: Admin, db: Database, key: str) -> Response:
    """Every version of one offer, newest first, with what changed and who changed it."""
    with db() as session:
        entries = offer_history(session, key)
    if not entries:
        raise HTTPException(404, "no such offer")
    return admin_page(request, admin, "history", key=key, entries=entries)


def _offer_choices(catalog: CatalogSnapshot) -> dict[str, Any]:
    return {
        "provider_options": [(slug, p.name) for slug, p in sorted(catalog.providers.items())],
        "gpu_options": [(name, f"{name} ({memory} GiB)") for name, memory in catalog.gpus.items()],
        "tenancy_options": [(t.value, t.value.replace("_", " ")) for t in Tenancy],
        "billing_options": [(b.value, b.value.replace("_", " ")) for b in Billing],
        "period_options": [(p.value, p.value) for p in PricePeriod],
    }


@router.get("/new-offer", response_class=HTMLResponse)
def new_offer_form(request: Request, admin: Admin, catalogs: CatalogsDep) -> Response:
    return admin_page(request, admin, "offer_new", **_offer_choices(catalogs.current()), errors={}, values={})


class NewOffer(BaseModel):
    """The new-offer form, as typed (strings, so that a bad value comes back to its field)."""

    provider: str = ""
    gpu: str = ""
    product: str = ""
    tenancy: str = ""
    billing: str = ""
    gpus_per_unit: str = "1"
    price_usd: str = ""
    price_period: str = "hour"
    min_commitment_months: str = ""
    region: str = ""
    region_country: str = ""
    source_url: str = ""
    as_of: str = ""
    vcpus: str = ""
    ram_gib: str = ""
    note: str = ""


@router.post("/new-offer", response_class=HTMLResponse)
def create_offer(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, form: Annotated[NewOffer, Form()]
) -> Response:
    """A new offer: every field checked as an import checks it, a source and a date on its price, a
    known provider and GPU model."""
    reader = FormReader()
    note = reader.read("note", check.change_note, form.note)
    values, errors = check_offer_fields(form.model_dump())
    errors |= reader.errors
    key = offer_key(form.provider, values.get("product", ""), form.gpu, values.get("region", ""), form.billing)
    with db() as session:
        owner, model = provider_by_slug(session, form.provider), gpu_by_name(session, form.gpu)
        exists = offer_exists(session, key)
    if owner is None:
        errors["provider"] = "choose a provider"
    if model is None:
        errors["gpu"] = "choose a known GPU model (add it under GPU models first)"
    if not form.as_of:
        errors["as_of"] = "must be a date, YYYY-MM-DD"
    if not errors and exists:
        errors["product"] = "this offer exists already: edit it (or restore it) instead"
    if errors:
        choices = _offer_choices(catalogs.current())
        return admin_page(request, admin, "offer_new", 422, **choices, errors=errors, values=form.model_dump())
    assert owner is not None and owner.id is not None and model is not None and model.id is not None
    row = OfferRow(key=key, provider=form.provider, gpu=form.gpu, **values)
    try:
        with db() as session:
            add_offer(session, OfferVersion.of_row(row, owner.id, model.id, 0), note, admin.username)
    except StaleRecord:
        raise HTTPException(409, "The same offer was added meanwhile.") from None
    return RedirectResponse(_history_url(key), status_code=303)
