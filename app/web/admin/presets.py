"""Admin model presets: add one, or change one, as a new catalog version with its source."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import last_change
from app.catalog.preset_changes import save_preset
from app.catalog.tables import ModelPresetVersion
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, PostedForm
from app.web.admin.forms import SOURCE_KINDS, Errors, FactEdit, answer, checked
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

ARCHITECTURE = ("layers", "hidden_size", "attention_heads", "kv_heads", "head_dim", "default_context")
"""The whole numbers a preset states (each checked in its range by PresetEdit)."""


class PresetEdit(FactEdit):
    """A model's published architecture, with where it was read; parameters are typed in billions."""

    conflict = "Someone changed this preset after you opened the page; the current one is shown."
    key: Annotated[str, checked(check.preset_key)]
    name: Annotated[str, checked(check.text, 100)]
    parameters_b: Annotated[int, checked(check.billions)]
    active_parameters_b: Annotated[int | None, checked(lambda typed: check.billions(typed) if typed else None)]
    parameters_source: Annotated[str, checked(check.web_address)]
    layers: Annotated[int, checked(check.count, 1, 10_000)]
    hidden_size: Annotated[int, checked(check.count, 1, 1_000_000)]
    attention_heads: Annotated[int, checked(check.count, 1, 10_000)]
    kv_heads: Annotated[int, checked(check.count, 1, 10_000)]
    head_dim: Annotated[int, checked(check.count, 1, 100_000)]
    kv_latent: Annotated[int | None, checked(lambda typed: check.count(typed, 1, 100_000) if typed else None)]
    """Values cached per token and layer under latent attention (DeepSeek-R1: 576); empty: none."""
    default_context: Annotated[int, checked(check.count, 1, 10_000_000)]

    @property
    def architecture(self) -> dict[str, Any]:
        """What `save_preset` stores: the counts, the parameters as a whole number."""
        named = {"name": self.name, "parameters": self.parameters_b, "active_parameters": self.active_parameters_b}
        return named | {field: getattr(self, field) for field in ("parameters_source", "kv_latent", *ARCHITECTURE)}


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
            "kv_latent": str(now.kv_latent) if now.kv_latent else "",
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
def save_model_preset(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm
) -> Response:
    """A preset's whole architecture as a new version; its key decides whether it is new."""

    def save(session: Session, preset: PresetEdit) -> str:
        save_preset(session, preset.key, preset.architecture, preset.provenance, preset.change(admin.username))
        return f"/admin/presets?key={preset.key}"

    return answer(PresetEdit, posted, db, save, partial(_page, request, admin, db, catalogs, posted.get("key", "")))
