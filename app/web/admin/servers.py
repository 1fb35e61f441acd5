"""Admin servers a buyer may own: add one, change one or retire one, each as a new catalog version
with its source."""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog.changes import Change
from app.catalog.currencies import STATED
from app.catalog.rows import decimal_text
from app.catalog.server_changes import retire_server, save_server, server_changed
from app.catalog.server_rows import SERVER_CHECKS, power_refused, server_key
from app.catalog.servers import ServerRecord
from app.catalog.tables import CatalogVersion
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, PostedForm
from app.web.admin.forms import (
    KNOWN_GPU,
    SOURCE_KINDS,
    ChangeNote,
    EditForm,
    Errors,
    FactEdit,
    answer,
    checked,
)
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

CONFLICT = "Someone changed this server after you opened the page; the current one is shown, yours below."


class ServerEdit(FactEdit):
    """A server configuration as its seller published it, with where it was read; its key decides
    whether it is new."""

    conflict = CONFLICT
    key: Annotated[str, checked(server_key)]
    name: Annotated[str, checked(SERVER_CHECKS["name"])]
    seller: Annotated[str, checked(SERVER_CHECKS["seller"])]
    gpu: Annotated[str, checked(SERVER_CHECKS["gpu"]), KNOWN_GPU]
    gpus: Annotated[int, checked(SERVER_CHECKS["gpus"])]
    price: Annotated[Decimal, checked(SERVER_CHECKS["price"])]
    currency: Annotated[str, checked(SERVER_CHECKS["currency"])]
    power_kw: Annotated[Decimal | None, checked(SERVER_CHECKS["power_kw"])]
    power_source: Annotated[str, checked(SERVER_CHECKS["power_source"])]
    setup: Annotated[Decimal | None, checked(SERVER_CHECKS["setup"])]

    def refused(self) -> Errors:
        return power_refused(self.model_dump())

    @property
    def server(self) -> dict[str, Any]:
        """What `save_server` stores: every field of SERVER_CHECKS."""
        return {name: getattr(self, name) for name in SERVER_CHECKS}


class ServerRetirement(EditForm):
    """Why a server leaves new quotes; posted by its names, keyed `retire_` on the page."""

    prefix = "retire_"
    conflict = CONFLICT
    key: Annotated[str, checked(server_key)]
    note: ChangeNote
    based_on: int = 0


def _typed(now: ServerRecord) -> dict[str, str]:
    """A stored server as an admin would type it again: 303610.2, not 303610.20000000; nothing as empty."""
    figures = {name: decimal_text(getattr(now, name)) for name in ("price", "power_kw", "setup") if getattr(now, name)}
    named = {"key": now.key, "name": now.name, "seller": now.seller, "gpu": now.gpu, "gpus": str(now.gpus)}
    return named | {"currency": now.currency, "power_source": now.power_source, "notes": now.notes} | figures


def _page(
    request: Request, admin: AdminUser, db: Database, catalogs: CatalogsDep, key: str = "", status: int = 200,
    errors: Errors | None = None, values: dict[str, str] | None = None,
) -> Response:  # fmt: skip
    """The servers now and a server's form (`key`'s, else empty); refused as stale, with the change that came first."""
    catalog = catalogs.current()
    now = catalog.servers.get(key)
    with db() as session:
        based_on = server_changed(session, key) if key else 0
        change = session.get(CatalogVersion, based_on) if errors and "conflict" in errors else None
    return admin_page(
        request, admin, "servers", status, servers=catalog.servers, now=now, based_on=based_on, change=change,
        gpu_options=[(g, g) for g in catalog.gpus], currencies=STATED, source_kinds=SOURCE_KINDS,
        errors=errors or {}, values=(_typed(now) if now else {}) | (values or {}),
    )  # fmt: skip


@router.get("/servers", response_class=HTMLResponse)
def servers(request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, key: str = "") -> Response:
    return _page(request, admin, db, catalogs, key)


@router.post("/servers", response_class=HTMLResponse)
def save_owned_server(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm
) -> Response:
    """A server's every field as a new version; its key decides whether it is new."""

    def save(session: Session, edit: ServerEdit) -> str:
        save_server(session, edit.key, edit.server, edit.provenance, edit.change(admin.username))
        return f"/admin/servers?{urlencode({'key': edit.key})}"

    return answer(ServerEdit, posted, db, save, partial(_page, request, admin, db, catalogs, posted.get("key", "")))


@router.post("/servers/retire", response_class=HTMLResponse)
def retire_owned_server(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm
) -> Response:
    """Take a server out of new quotes as a new version; it stays in history."""

    def retire(session: Session, edit: ServerRetirement) -> str:
        retire_server(session, edit.key, Change(edit.note, admin.username, edit.based_on))
        return "/admin/servers"

    page = partial(_page, request, admin, db, catalogs, posted.get("key", ""))
    return answer(ServerRetirement, posted, db, retire, page)
