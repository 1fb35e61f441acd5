"""Admin providers: a new provider, and each one's headquarters, egress tiers and storage price,
each edited as a new version and refused if someone changed it since the form was opened."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import partial
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ConfigDict, ValidationInfo, field_validator
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import retire_offers_of
from app.catalog.currencies import STATED, stated_currency
from app.catalog.provider_changes import add_provider, change_headquarters, replace_egress_tiers, replace_storage
from app.catalog.queries import provider_by_slug, provider_ids, provider_now
from app.catalog.rows import decimal_text
from app.catalog.tables import Provider, StorageKind
from app.catalog.tier_rows import parse_tiers
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, PostedForm, RecordId
from app.web.admin.forms import (
    SOURCE_KINDS,
    Country,
    EditForm,
    Errors,
    FactEdit,
    OptionalNote,
    answer,
    checked,
    in_catalog,
)
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

STORAGE_KINDS = [
    (StorageKind.BLOCK_VOLUME, "block volume"),
    (StorageKind.SHARED_FILESYSTEM, "network volume / shared filesystem"),
]
TypedTiers = Annotated[
    list[tuple[Decimal, Decimal | None, Decimal]], checked(lambda typed: parse_tiers(typed) if typed.strip() else [])
]
"""Tiers typed a line each, as `parse_tiers` reads them; none typed: no published price."""


class NewProvider(EditForm):
    """A provider, with where it is headquartered if known."""

    conflict = "A provider with this id was added meanwhile."
    slug: Annotated[
        str,
        checked(check.provider_slug),
        in_catalog(provider_by_slug, "there is already a provider with this id", known=False),
    ]
    name: Annotated[str, checked(check.text, 100)]
    hq_country: Country
    hq_source: str

    @field_validator("hq_source")
    @classmethod
    def _sourced(cls, source: str, info: ValidationInfo) -> str:
        """A country given comes with where it was read."""
        return source if info.data.get("hq_country", "") is None else check.web_address(source)


class HeadquartersEdit(FactEdit):
    """Where a provider is headquartered; posted under the page's keys (hq_country), but for its note."""

    prefix = "hq_"
    model_config = ConfigDict(alias_generator=lambda name: name if name in ("note", "based_on") else f"hq_{name}")
    country: Country


class EgressEdit(FactEdit):
    """A provider's whole table of internet egress tiers, per GB, in the currency they are published in."""

    tiers: TypedTiers
    currency: Annotated[str, checked(stated_currency)]


class StorageEdit(FactEdit):
    """The storage a provider's GPU users keep checkpoints on, as tiers per GB-month."""

    prefix = "storage_"
    kind: Annotated[str, checked(check.one_of, StorageKind)]
    product: Annotated[str, checked(check.text, 120)]
    tiers: TypedTiers
    currency: Annotated[str, checked(stated_currency)]


F = TypeVar("F", bound=FactEdit)


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
        "tiers_text": _tiers_text(now["tiers"], "per_gb"),
        "storage_text": _tiers_text(now["storage"], "per_gb_month"),
        "currencies": STATED,
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
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm
) -> Response:
    def save(session: Session, new: NewProvider) -> str:
        provider = add_provider(session, new.slug, new.name, new.hq_country, new.hq_source, admin.username)
        return f"/admin/providers/{provider.id}"

    return answer(NewProvider, posted, db, save, partial(_providers_page, request, admin, db, catalogs))


@router.get("/providers/{provider_id}", response_class=HTMLResponse)
def provider(request: Request, admin: Admin, db: Database, provider_id: RecordId) -> Response:
    return _provider_page(request, admin, db, provider_id)


def _save_fact(
    request: Request, admin: AdminUser, db: Database, provider_id: int, posted: PostedForm, edit: type[F],
    change: Callable[[Session, F], object],
) -> Response:  # fmt: skip
    """One of a provider's facts as a new version, then the provider's page."""

    def save(session: Session, fact: F) -> str:
        _provider(session, provider_id)
        change(session, fact)
        return f"/admin/providers/{provider_id}"

    return answer(edit, posted, db, save, partial(_provider_page, request, admin, db, provider_id))


@router.post("/providers/{provider_id}/headquarters", response_class=HTMLResponse)
def save_headquarters(
    request: Request, admin: Admin, db: Database, provider_id: RecordId, posted: PostedForm
) -> Response:
    def change(session: Session, hq: HeadquartersEdit) -> None:
        change_headquarters(session, provider_id, hq.country, hq.provenance, hq.change(admin.username))

    return _save_fact(request, admin, db, provider_id, posted, HeadquartersEdit, change)


@router.post("/providers/{provider_id}/egress", response_class=HTMLResponse)
def save_egress(request: Request, admin: Admin, db: Database, provider_id: RecordId, posted: PostedForm) -> Response:
    def change(session: Session, egress: EgressEdit) -> None:
        replace_egress_tiers(session, provider_id, egress.tiers, egress.currency, egress.provenance,
                             egress.change(admin.username))  # fmt: skip

    return _save_fact(request, admin, db, provider_id, posted, EgressEdit, change)


@router.post("/providers/{provider_id}/storage", response_class=HTMLResponse)
def save_storage(request: Request, admin: Admin, db: Database, provider_id: RecordId, posted: PostedForm) -> Response:
    """The storage GPU users keep checkpoints on, as tiers per GB-month; empty means none is published."""

    def change(session: Session, s: StorageEdit) -> None:
        replace_storage(session, provider_id, s.kind, s.product, s.tiers, s.currency, s.provenance,
                        s.change(admin.username))  # fmt: skip

    return _save_fact(request, admin, db, provider_id, posted, StorageEdit, change)


@router.post("/providers/{provider_id}/retire")
def retire_provider(admin: Admin, db: Database, provider_id: RecordId, note: OptionalNote = "") -> Response:
    """All of a provider's offers leave new quotes at once; saved scenarios and history keep them."""
    with db() as session:
        p = _provider(session, provider_id)
        retire_offers_of(session, admin.username, note.strip() or f"{p.name} retired", provider_id=provider_id)
    return RedirectResponse(f"/admin/offers?provider={p.slug}", status_code=303)
