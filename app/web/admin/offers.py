"""Admin offers: stale prices first, offers filterable, a price edit as a new version, retiring and
restoring, each offer's history, and new offers."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from functools import partial
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationInfo, field_validator
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import StaleRecord, add_offer, change_offer_price, restore_offer, retire_offer
from app.catalog.currencies import STATED, stated_currency
from app.catalog.plans import CatalogFull
from app.catalog.queries import gpu_by_name, newest_version_of, offer_exists, offer_history, provider_by_slug
from app.catalog.rows import OFFER_CHECKS, OfferRow, offer_key
from app.catalog.snapshot import CatalogSnapshot
from app.catalog.tables import OfferVersion
from app.costing.terms import RENTAL_BILLINGS, RENTED, PricePeriod
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, Days, PostedForm, RecordId
from app.web.admin.forms import ChangeNote, EditForm, Errors, OptionalNote, Refused, Values, answer, checked, in_catalog
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

STALE_AFTER_DAYS = 90


@router.get("", response_class=HTMLResponse)
def stale_prices(request: Request, admin: Admin, catalogs: CatalogsDep, days: Days = STALE_AFTER_DAYS) -> Response:
    """Prices and exchange rates older than `days` (or of unknown date), oldest first: what to check
    next. A rate converts every figure shown in its currency, so it ages like a price."""
    cutoff, current = date.today() - timedelta(days=days), catalogs.current()

    def stale(as_of: date | None) -> bool:
        return as_of is None or as_of < cutoff

    def oldest_first(as_of: date | None) -> tuple[bool, date]:
        return as_of is not None, as_of or date.min

    offers = sorted(
        (o for o in current.listed if stale(o.row.as_of)),
        key=lambda o: (*oldest_first(o.row.as_of), o.provider.slug),
    )
    rates = sorted((r for r in current.rates.values() if stale(r.as_of)), key=lambda r: oldest_first(r.as_of))
    return admin_page(request, admin, "stale", offers=offers, rates=rates, days=days)


@router.get("/offers", response_class=HTMLResponse)
def offers(
    request: Request, admin: Admin, catalogs: CatalogsDep,
    provider: str = "", gpu: str = "", tenancy: str = "", stale_days: Days | None = None,
) -> Response:  # fmt: skip
    catalog = catalogs.current()
    cutoff = None if stale_days is None else date.today() - timedelta(days=stale_days)
    shown = [
        o
        for o in catalog.listed
        if (not provider or o.provider.slug == provider)
        and (not gpu or o.row.gpu == gpu)
        and (not tenancy or o.row.tenancy == tenancy)
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


class OfferEdit(EditForm):
    """A new price of an offer, as a new version of the one the admin opened: the URL names that
    version, which is what the edit is based on."""

    conflict = "Someone changed this offer after you opened it, so your change was not saved."
    price: Annotated[Decimal, checked(check.price)]
    setup_fee: Annotated[Decimal | None, checked(OFFER_CHECKS["setup_fee"])]
    source_url: Annotated[str, checked(check.web_address)]
    as_of: Annotated[date, checked(check.past_day)]
    note: ChangeNote


def _edit_page(
    request: Request, admin: AdminUser, db: Database, row: OfferVersion, status: int = 200,
    errors: Errors | None = None, values: Values | None = None,
) -> Response:  # fmt: skip
    """An offer's edit form; refused as stale, with the change that came first (`newest_version_of`)."""
    conflict = None
    if errors and "conflict" in errors:
        with db() as session:
            conflict = newest_version_of(session, row.key)
    return admin_page(request, admin, "offer_edit", status, row=row, values=values or {}, errors=errors or {},
                      conflict=conflict)  # fmt: skip


@router.get("/offers/{row_id}", response_class=HTMLResponse)
def edit_offer(request: Request, admin: Admin, db: Database, row_id: RecordId) -> Response:
    return _edit_page(request, admin, db, _read_offer_row(db, row_id))


@router.post("/offers/{row_id}", response_class=HTMLResponse)
def save_offer(request: Request, admin: Admin, db: Database, row_id: RecordId, posted: PostedForm) -> Response:
    """A new price as a new version of the version `row_id`: if another admin changed the offer since,
    nothing is saved and both changes are shown."""
    row = _read_offer_row(db, row_id)

    def save(session: Session, offer: OfferEdit) -> str:
        change_offer_price(session, row_id, offer.price, offer.source_url, offer.as_of, offer.note, admin.username,
                           setup_fee=offer.setup_fee)  # fmt: skip
        return _history_url(row.key)

    return answer(OfferEdit, posted, db, save, partial(_edit_page, request, admin, db, row))


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
def restore(request: Request, admin: Admin, db: Database, row_id: RecordId) -> Response:
    """The offer's history again, each version as it was, if restoring it would take the catalog past
    its bound (422, with the message)."""
    with db() as session:
        row = _offer_row(session, row_id)
        try:
            restore_offer(session, row_id, f"restored the version of catalog {row.valid_from}", who=admin.username)
        except StaleRecord:
            raise HTTPException(409, "This offer was changed meanwhile; open its history again.") from None
        except CatalogFull as e:
            problem = f"Not restored: {e}."
        else:
            return RedirectResponse(_history_url(row.key), status_code=303)
    return _history_page(request, admin, db, row.key, problem, 422)


@router.get("/history", response_class=HTMLResponse)
def history(request: Request, admin: Admin, db: Database, key: str) -> Response:
    """Every version of one offer, newest first, with what changed and who changed it."""
    return _history_page(request, admin, db, key)


def _history_page(
    request: Request, admin: AdminUser, db: Database, key: str, problem: str = "", status: int = 200
) -> Response:
    with db() as session:
        entries = offer_history(session, key)
    if not entries:
        raise HTTPException(404, "no such offer")
    return admin_page(request, admin, "history", status, key=key, entries=entries, problem=problem)


def _offer_choices(catalog: CatalogSnapshot) -> dict[str, Any]:
    return {
        "provider_options": [(slug, p.name) for slug, p in sorted(catalog.providers.items())],
        "gpu_options": [(name, f"{name} ({memory} GiB)") for name, memory in catalog.gpus.items()],
        "tenancy_options": [(t.value, t.value.replace("_", " ")) for t in RENTED],
        "billing_options": [(b.value, b.value.replace("_", " ")) for b in RENTAL_BILLINGS],
        "period_options": [(p.value, p.value) for p in PricePeriod],
        "currency_options": STATED,
    }


def _new_offer_page(
    request: Request, admin: AdminUser, catalogs: CatalogsDep, status: int = 200, errors: Errors | None = None,
    values: Values | None = None,
) -> Response:  # fmt: skip
    choices = _offer_choices(catalogs.current())
    return admin_page(request, admin, "offer_new", status, **choices, errors=errors or {}, values=values or {})


@router.get("/new-offer", response_class=HTMLResponse)
def new_offer_form(request: Request, admin: Admin, catalogs: CatalogsDep) -> Response:
    return _new_offer_page(request, admin, catalogs)


class NewOffer(EditForm):
    """A new offer: every field checked as an import checks it (OFFER_CHECKS), a date on its price,
    a provider and a GPU model the catalog knows."""

    conflict = "The same offer was added meanwhile."
    provider: Annotated[str, in_catalog(provider_by_slug, "choose a provider")]
    gpu: Annotated[str, in_catalog(gpu_by_name, "choose a known GPU model (add it under GPU models first)")]
    product: str
    tenancy: str
    billing: str
    gpus_per_unit: int = 1
    price: Decimal
    currency: Annotated[str, checked(stated_currency)]
    price_period: str = PricePeriod.HOUR
    min_commitment_months: int | None
    setup_fee: Decimal | None
    region: str
    region_country: str | None
    source_url: str
    as_of: Annotated[date, checked(check.past_day)]
    vcpus: int | None
    ram_gib: Decimal | None
    note: ChangeNote

    @field_validator(*(set(OFFER_CHECKS) - {"notes", "as_of", "currency"}), mode="before")
    @classmethod
    def _as_imported(cls, typed: str, info: ValidationInfo) -> object:
        return OFFER_CHECKS[str(info.field_name)](typed)


@router.post("/new-offer", response_class=HTMLResponse)
def create_offer(request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm) -> Response:
    def save(session: Session, new: NewOffer) -> str:
        key = offer_key(new.provider, new.product, new.gpu, new.region, new.billing, new.currency)
        if offer_exists(session, key):
            raise Refused({"product": "this offer exists already: edit it (or restore it) instead"})
        owner, model = provider_by_slug(session, new.provider), gpu_by_name(session, new.gpu)
        assert owner is not None and owner.id is not None and model is not None and model.id is not None
        row = OfferRow(key=key, **new.model_dump(exclude={"note"}))
        try:
            add_offer(session, OfferVersion.of_row(row, owner.id, model.id, 0), new.note, admin.username)
        except CatalogFull as e:
            raise Refused({"catalog": f"Not added: {e}."}) from None
        return _history_url(key)

    return answer(NewOffer, posted, db, save, partial(_new_offer_page, request, admin, catalogs))
