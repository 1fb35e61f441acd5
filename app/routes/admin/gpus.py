"""Admin GPU models: add one with its memory, or retire all offers of one."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import add_gpu_model, retire_offers_of
from app.catalog.queries import gpu_by_name, gpu_models
from app.catalog.tables import GpuModel
from app.deps import ADMIN_GUARDS, Admin, Database, RecordId
from app.forms import Errors, FormReader, OptionalNote
from app.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)


def _page(
    request: Request, admin: AdminUser, db: Database, status: int = 200, errors: Errors | None = None,
    values: dict[str, str] | None = None,
) -> Response:  # fmt: skip
    with db() as session:
        models = gpu_models(session)
    return admin_page(request, admin, "gpus", status, gpus=models, errors=errors or {}, values=values or {})


@router.get("/gpus", response_class=HTMLResponse)
def gpus(request: Request, admin: Admin, db: Database) -> Response:
    return _page(request, admin, db)


@router.post("/gpus", response_class=HTMLResponse)
def create_gpu(
    request: Request, admin: Admin, db: Database,
    name: Annotated[str, Form()] = "", memory_gib: Annotated[str, Form()] = "",
) -> Response:  # fmt: skip
    form = FormReader()
    if form.read("name", check.gpu_name, name):
        with db() as session:
            if gpu_by_name(session, name):
                form.errors["name"] = "this GPU model exists already"
    memory = form.read("memory_gib", check.memory_gib, memory_gib)
    if form.errors:
        return _page(request, admin, db, 422, form.errors, {"name": name, "memory_gib": memory_gib})
    with db() as session:
        add_gpu_model(session, name, memory, admin.username)
    return RedirectResponse("/admin/gpus", status_code=303)


@router.post("/gpus/{gpu_id}/retire")
def retire_gpu(admin: Admin, db: Database, gpu_id: RecordId, note: OptionalNote = "") -> Response:
    """All offers of a GPU model leave new quotes at once."""
    with db() as session:
        gpu = session.get(GpuModel, gpu_id)
        if gpu is None:
            raise HTTPException(404, "no such GPU model")
        retire_offers_of(session, admin.username, note.strip() or f"{gpu.name} retired", gpu_model_id=gpu_id)
    return RedirectResponse("/admin/gpus", status_code=303)
