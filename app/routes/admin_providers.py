"""Providers (headquarters, egress tiers, storage price), GPU models and new offers."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel
from sqlmodel import col, select

from app.catalog.changes import (
    StaleRecord,
    add_gpu_model,
    add_offer,
    add_provider,
    change_headquarters,
    change_storage_price,
    last_change,
    replace_egress_tiers,
    retire_offers_of,
)
from app.catalog.tables import EgressTier, GpuModel, Offer, Provider, ProviderHeadquarters, StoragePrice
from app.catalog.transfer import offer_key
from app.costing import egress
from app.costing.terms import Billing, PricePeriod, Tenancy
from app.db import CatalogsDep, SessionDep
from app.routes import admin_fields as fields
from app.routes.admin import page
from app.routes.admin_auth import GUARDS, Admin

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=GUARDS)

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
COUNTRY = re.compile(r"^[A-Z]{2}$")


def _provider_page(
    request: Request,
    admin: Admin,
    session: SessionDep,
    provider: Provider,
    status: int = 200,
    errors: dict[str, str] | None = None,
    values: dict[str, str] | None = None,
) -> HTMLResponse:
    def current(table: type[EgressTier] | type[StoragePrice] | type[ProviderHeadquarters]) -> list:  # type: ignore[type-arg]
        query = select(table).where(table.provider_id == provider.id, col(table.valid_to).is_(None))
        return list(session.exec(query).all())

    tiers = sorted(current(EgressTier), key=lambda t: t.from_gb)
    context = {
        "provider": provider,
        "hq": next(iter(current(ProviderHeadquarters)), None),
        "tiers": tiers,
        "tiers_text": "\n".join(",".join(_plain(v) for v in (t.from_gb, t.to_gb, t.usd_per_gb)) for t in tiers),
        "since": {table.__name__: last_change(session, table, provider.id) for table in VERSIONED},
        "storage": next(iter(current(StoragePrice)), None),
        "errors": errors or {},
        "values": values or {},
    }
    return page(request, admin, "provider", status, **context)


VERSIONED = (ProviderHeadquarters, EgressTier, StoragePrice)
CONFLICT = "Someone changed this after you opened the page; the current values are shown, and yours below."


def _plain(value: Decimal | None) -> str:
    return "" if value is None else f"{value.normalize():f}"


def _provider(session: SessionDep, provider_id: int) -> Provider:
    provider = session.get(Provider, provider_id)
    if provider is None:
        raise HTTPException(404, "no such provider")
    return provider


@router.get("/providers", response_class=HTMLResponse)
def providers(request: Request, admin: Admin, catalogs: CatalogsDep, session: SessionDep) -> HTMLResponse:
    catalog = catalogs.at()
    ids = {p.slug: p.id for p in session.exec(select(Provider))}
    return page(request, admin, "providers", catalog=catalog, ids=ids, errors={}, values={})


@router.post("/providers", response_class=HTMLResponse)
def create_provider(
    request: Request, admin: Admin, session: SessionDep, catalogs: CatalogsDep,
    slug: Annotated[str, Form()] = "", name: Annotated[str, Form()] = "",
    hq_country: Annotated[str, Form()] = "", hq_source: Annotated[str, Form()] = "",
) -> Response:  # fmt: skip
    errors = {}
    if not SLUG.match(slug):
        errors["slug"] = "lower-case letters, digits and dashes, 40 at most"
    elif session.exec(select(Provider).where(Provider.slug == slug)).first():
        errors["slug"] = "there is already a provider with this id"
    fields.plain_text(errors, "name", name, 100)
    if hq_country and not COUNTRY.match(hq_country):
        errors["hq_country"] = "a two-letter ISO country code, e.g. DE, or empty if not known"
    if hq_country:
        fields.web_address(errors, "hq_source", hq_source)
    if errors:
        ids = {p.slug: p.id for p in session.exec(select(Provider))}
        values = {"slug": slug, "name": name, "hq_country": hq_country, "hq_source": hq_source}
        return page(request, admin, "providers", 422, catalog=catalogs.at(), ids=ids, errors=errors, values=values)
    provider = add_provider(session, slug, name.strip(), hq_country or None, hq_source, admin.username)
    return RedirectResponse(f"/admin/providers/{provider.id}", status_code=303)


@router.get("/providers/{provider_id}", response_class=HTMLResponse)
def provider(request: Request, admin: Admin, session: SessionDep, provider_id: fields.Id) -> HTMLResponse:
    return _provider_page(request, admin, session, _provider(session, provider_id))


@router.post("/providers/{provider_id}/headquarters", response_class=HTMLResponse)
def save_headquarters(
    request: Request, admin: Admin, session: SessionDep, provider_id: fields.Id,
    hq_country: Annotated[str, Form()] = "", hq_source: Annotated[str, Form()] = "", note: Annotated[str, Form()] = "",
    based_on: Annotated[int, Form()] = 0,
) -> Response:  # fmt: skip
    p = _provider(session, provider_id)
    errors: dict[str, str] = {}
    if hq_country and not COUNTRY.match(hq_country):
        errors["hq_country"] = "a two-letter ISO country code, e.g. DE, or empty if not known"
    fields.web_address(errors, "hq_source", hq_source)
    fields.change_note(errors, "hq_note", note)
    if errors:
        values = {"hq_country": hq_country, "hq_source": hq_source, "hq_note": note}
        return _provider_page(request, admin, session, p, 422, errors, values)
    try:
        change_headquarters(session, provider_id, hq_country or None, hq_source, note.strip(), admin.username, based_on)
    except StaleRecord:
        values = {"hq_country": hq_country, "hq_source": hq_source, "hq_note": note}
        return _provider_page(request, admin, session, p, 409, {"conflict": CONFLICT}, values)
    return RedirectResponse(f"/admin/providers/{provider_id}", status_code=303)


def parse_tiers(text: str) -> list[tuple[Decimal, Decimal | None, Decimal]]:
    """Lines of `from_gb,to_gb,usd_per_gb` (to_gb empty on the last line), checked to be contiguous."""
    tiers = []
    for number, line in enumerate((line for line in text.strip().splitlines() if line.strip()), start=1):
        parts = [part.strip() for part in line.split(",")]
        if len(parts) != 3:
            raise ValueError(f"line {number}: write from_gb,to_gb,usd_per_gb")
        try:
            from_gb, usd = Decimal(parts[0]), Decimal(parts[2])
            to_gb = Decimal(parts[1]) if parts[1] else None
        except InvalidOperation:
            raise ValueError(f"line {number}: not a number") from None
        if not all(v.is_finite() for v in (from_gb, usd, to_gb or Decimal(0))):
            raise ValueError(f"line {number}: not a number")
        tiers.append((from_gb, to_gb, usd))
    egress.check_tiers(
        tuple(egress.EgressTier(float(f), None if t is None else float(t), float(u)) for f, t, u in tiers)
    )
    return tiers


@router.post("/providers/{provider_id}/egress", response_class=HTMLResponse)
def save_egress(
    request: Request, admin: Admin, session: SessionDep, provider_id: fields.Id,
    tiers: Annotated[str, Form()] = "", source: Annotated[str, Form()] = "", as_of: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "", based_on: Annotated[int, Form()] = 0,
) -> Response:  # fmt: skip
    """The whole tier table at once; refused if someone changed it since the form was opened."""
    p = _provider(session, provider_id)
    values = {"tiers": tiers, "source": source, "as_of": as_of, "note": note}
    errors: dict[str, str] = {}
    try:
        parsed = parse_tiers(tiers) if tiers.strip() else []  # empty: the provider publishes no egress price
    except ValueError as e:
        errors["tiers"] = str(e)
    fields.web_address(errors, "source", source)
    day = fields.past_day(errors, "as_of", as_of)
    fields.change_note(errors, "note", note)
    if errors:
        return _provider_page(request, admin, session, p, 422, errors, values)
    try:
        replace_egress_tiers(session, provider_id, parsed, source, day, note.strip(), admin.username, based_on)  # type: ignore[arg-type]
    except StaleRecord:
        return _provider_page(request, admin, session, p, 409, {"conflict": CONFLICT}, values)
    return RedirectResponse(f"/admin/providers/{provider_id}", status_code=303)


@router.post("/providers/{provider_id}/storage", response_class=HTMLResponse)
def save_storage(
    request: Request, admin: Admin, session: SessionDep, provider_id: fields.Id,
    price: Annotated[str, Form()] = "", source: Annotated[str, Form()] = "", as_of: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "", based_on: Annotated[int, Form()] = 0,
) -> Response:  # fmt: skip
    p = _provider(session, provider_id)
    errors: dict[str, str] = {}
    amount = fields.price(errors, "storage_price", price, optional=True)
    fields.web_address(errors, "storage_source", source)
    day = fields.past_day(errors, "storage_as_of", as_of)
    fields.change_note(errors, "storage_note", note)
    if errors:
        values = {"storage_price": price, "storage_source": source, "storage_as_of": as_of, "storage_note": note}
        return _provider_page(request, admin, session, p, 422, errors, values)
    try:
        change_storage_price(session, provider_id, amount, source, day, note.strip(), admin.username, based_on)  # type: ignore[arg-type]
    except StaleRecord:
        values = {"storage_price": price, "storage_source": source, "storage_as_of": as_of, "storage_note": note}
        return _provider_page(request, admin, session, p, 409, {"conflict": CONFLICT}, values)
    return RedirectResponse(f"/admin/providers/{provider_id}", status_code=303)


@router.get("/gpus", response_class=HTMLResponse)
def gpus(request: Request, admin: Admin, session: SessionDep) -> HTMLResponse:
    models = session.exec(select(GpuModel).order_by(GpuModel.name)).all()
    return page(request, admin, "gpus", gpus=models, errors={}, values={})


@router.post("/gpus", response_class=HTMLResponse)
def create_gpu(
    request: Request, admin: Admin, session: SessionDep,
    name: Annotated[str, Form()] = "", memory_gib: Annotated[str, Form()] = "",
) -> Response:  # fmt: skip
    errors = {}
    if not re.match(r"^[A-Za-z0-9][A-Za-z0-9 .-]{0,39}$", name):
        errors["name"] = "letters, digits, spaces, dots and dashes, 40 at most"
    elif session.exec(select(GpuModel).where(GpuModel.name == name)).first():
        errors["name"] = "this GPU model exists already"
    memory = fields.count(errors, "memory_gib", memory_gib, 1, 4096)
    if errors:
        models = session.exec(select(GpuModel).order_by(GpuModel.name)).all()
        values = {"name": name, "memory_gib": memory_gib}
        return page(request, admin, "gpus", 422, gpus=models, errors=errors, values=values)
    add_gpu_model(session, name, memory, admin.username)  # type: ignore[arg-type]
    return RedirectResponse("/admin/gpus", status_code=303)


@router.get("/new-offer", response_class=HTMLResponse)
def new_offer_form(request: Request, admin: Admin, catalogs: CatalogsDep) -> HTMLResponse:
    return page(request, admin, "offer_new", **_offer_choices(catalogs), errors={}, values={})


def _offer_choices(catalogs: CatalogsDep) -> dict[str, list[tuple[str, str]]]:
    catalog = catalogs.at()
    assert catalog is not None
    return {
        "provider_options": [(slug, p.name) for slug, p in sorted(catalog.providers.items())],
        "gpu_options": [(name, f"{name} ({memory} GiB)") for name, memory in catalog.gpus.items()],
        "tenancy_options": [(t.value, t.value.replace("_", " ")) for t in Tenancy],
        "billing_options": [(b.value, b.value.replace("_", " ")) for b in Billing],
        "period_options": [(p.value, p.value) for p in PricePeriod],
    }


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
    note: str = ""


@router.post("/new-offer", response_class=HTMLResponse)
def create_offer(
    request: Request, admin: Admin, session: SessionDep, catalogs: CatalogsDep, form: Annotated[NewOffer, Form()]
) -> Response:
    """A new offer: every field checked, a source and a date on its price, a known GPU model."""
    f, errors = form, {}
    owner = session.exec(select(Provider).where(Provider.slug == f.provider)).first()
    model = session.exec(select(GpuModel).where(GpuModel.name == f.gpu)).first()
    if owner is None:
        errors["provider"] = "choose a provider"
    if model is None:
        errors["gpu"] = "choose a known GPU model (add it under GPU models first)"
    fields.plain_text(errors, "product", f.product, 120)
    if f.tenancy not in set(Tenancy):
        errors["tenancy"] = "choose a tenancy"
    if f.billing not in set(Billing):
        errors["billing"] = "choose a billing kind"
    if f.price_period not in set(PricePeriod):
        errors["price_period"] = "choose a period"
    gpus_per_unit = fields.count(errors, "gpus_per_unit", f.gpus_per_unit, 1, 1024)
    amount = fields.price(errors, "price_usd", f.price_usd)
    months = (
        fields.count(errors, "min_commitment_months", f.min_commitment_months, 0, 120)
        if f.min_commitment_months
        else None
    )
    fields.plain_text(errors, "region", f.region, 100)
    if f.region_country and not COUNTRY.match(f.region_country):
        errors["region_country"] = "a two-letter ISO country code, or empty if not known"
    fields.web_address(errors, "source_url", f.source_url)
    day = fields.past_day(errors, "as_of", f.as_of)
    fields.change_note(errors, "note", f.note)
    if not errors:
        key = offer_key(f.provider, f.product.strip(), f.gpu, f.region.strip(), f.billing)
        if session.exec(select(Offer).where(Offer.key == key)).first():
            errors["product"] = "this offer exists already: edit it (or restore it) instead"
    if errors:
        return page(
            request, admin, "offer_new", 422, **_offer_choices(catalogs), errors=errors, values=form.model_dump()
        )
    assert owner is not None and model is not None and amount is not None and gpus_per_unit is not None
    offer = Offer(
        key=key,
        provider_id=owner.id,
        gpu_model_id=model.id,
        product=f.product.strip(),
        tenancy=f.tenancy,
        billing=f.billing,
        gpus_per_unit=gpus_per_unit,
        price_usd=amount,
        price_period=f.price_period,
        min_commitment_months=months,
        region=f.region.strip(),
        region_country=f.region_country or None,
        source_url=f.source_url,
        as_of=day,
        valid_from=0,
    )
    try:
        add_offer(session, offer, f.note.strip(), admin.username)
    except StaleRecord:
        raise HTTPException(409, "The same offer was added meanwhile.") from None
    return RedirectResponse(f"/admin/history?key={key}", status_code=303)


@router.post("/providers/{provider_id}/retire")
def retire_provider(
    admin: Admin, session: SessionDep, provider_id: fields.Id, note: Annotated[str, Form()] = ""
) -> Response:
    """All of a provider's offers leave new quotes at once; saved scenarios and history keep them."""
    p = _provider(session, provider_id)
    retire_offers_of(session, admin.username, note.strip() or f"{p.name} retired", provider_id=provider_id)
    return RedirectResponse(f"/admin/offers?provider={p.slug}", status_code=303)


@router.post("/gpus/{gpu_id}/retire")
def retire_gpu(admin: Admin, session: SessionDep, gpu_id: fields.Id, note: Annotated[str, Form()] = "") -> Response:
    """All offers of a GPU model leave new quotes at once."""
    gpu = session.get(GpuModel, gpu_id)
    if gpu is None:
        raise HTTPException(404, "no such GPU model")
    retire_offers_of(session, admin.username, note.strip() or f"{gpu.name} retired", gpu_model_id=gpu_id)
    return RedirectResponse("/admin/gpus", status_code=303)
