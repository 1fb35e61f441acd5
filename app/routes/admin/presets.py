"""Admin model presets: add one, or change one, as a new catalog version with its source."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import StaleRecord, last_change
from app.catalog.preset_changes import save_preset
from app.catalog.tables import ModelPresetVersion
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database
from app.forms import SOURCE_KINDS, Errors, FormReader, read_provenance
from app.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

ARCHITECTURE = {
    "layers": (1, 10_000),
    "hidden_size": (1, 1_000_000),
    "attention_heads": (1, 10_000),
    "kv_heads": (1, 10_000),
    "head_dim": (1, 100_000),
    "default_context": (1, 10_000_000),
}
"""The whole numbers a preset states, with the range each is checked against."""


def _page(
    request: Request, admin: AdminUser, db: Database, catalogs: CatalogsDep, key: str = "", status: int = 200,
    errors: Errors | None = None, values: dict[str, str] | None = None,
) -> Response:  # fmt: skip
    presets = catalogs.current().presets
    now = presets.get(key)
    if values is None and now is not None:
        values = {name: str(getattr(now, name)) for name in ARCHITECTURE} | {
            "key": now.key, "name": now.name, "parameters_b": f"{now.parameters / 1e9:g}",
            "active_parameters_b": f"{now.active_parameters / 1e9:g}" if now.active_parameters else "",
            "parameters_source": now.parameters_source, "source": now.source,
        }  # fmt: skip
    with db() as session:
        based_on = last_change(session, ModelPresetVersion, "key", key) if key else 0
    return admin_page(request, admin, "presets", status, presets=presets, now=now, based_on=based_on,
                      source_kinds=SOURCE_KINDS, errors=errors or {}, values=values or {})  # fmt: skip


@router.get("/presets", response_class=HTMLResponse)
def presets(request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, key: str = "") -> Response:
    return _page(request, admin, db, catalogs, key)


@router.post("/presets", response_class=HTMLResponse)
def save(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep,
    key: Annotated[str, Form()] = "", name: Annotated[str, Form()] = "", parameters_b: Annotated[str, Form()] = "",
    active_parameters_b: Annotated[str, Form()] = "", parameters_source: Annotated[str, Form()] = "",
    layers: Annotated[str, Form()] = "", hidden_size: Annotated[str, Form()] = "",
    attention_heads: Annotated[str, Form()] = "", kv_heads: Annotated[str, Form()] = "",
    head_dim: Annotated[str, Form()] = "", default_context: Annotated[str, Form()] = "",
    source: Annotated[str, Form()] = "", as_of: Annotated[str, Form()] = "", source_kind: Annotated[str, Form()] = "",
    quote: Annotated[str, Form()] = "", note: Annotated[str, Form()] = "", based_on: Annotated[int, Form()] = 0,
) -> Response:  # fmt: skip
    """A preset's whole architecture as a new version; its key decides whether it is new."""
    typed = {"layers": layers, "hidden_size": hidden_size, "attention_heads": attention_heads, "kv_heads": kv_heads,
             "head_dim": head_dim, "default_context": default_context}  # fmt: skip
    values = typed | {"key": key, "name": name, "parameters_b": parameters_b,
                      "active_parameters_b": active_parameters_b, "parameters_source": parameters_source,
                      "source": source, "as_of": as_of, "source_kind": source_kind, "quote": quote,
                      "note": note}  # fmt: skip
    form = FormReader()
    form.read("key", check.preset_key, key)
    architecture = {
        "name": form.read("name", lambda v: check.text(v, 100), name),
        "parameters": form.read("parameters_b", check.billions, parameters_b),
        "active_parameters": form.read("active_parameters_b", check.billions, active_parameters_b)
        if active_parameters_b
        else None,
        "parameters_source": form.read("parameters_source", check.web_address, parameters_source),
    } | {field: form.read(field, check.count, typed[field], *ARCHITECTURE[field]) for field in ARCHITECTURE}
    provenance = read_provenance(form, "", source, as_of, source_kind, quote)
    why = form.read("note", check.change_note, note)
    if form.errors:
        return _page(request, admin, db, catalogs, key, 422, form.errors, values)
    try:
        with db() as session:
            save_preset(session, key, architecture, provenance, why, admin.username, based_on)
    except StaleRecord:
        conflict = {"conflict": "Someone changed this preset after you opened the page; the current one is shown."}
        return _page(request, admin, db, catalogs, key, 409, conflict, values)
    return RedirectResponse(f"/admin/presets?key={key}", status_code=303)
