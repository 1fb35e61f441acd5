"""Admin GPU models: add one with its memory, or retire all offers of one."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import add_gpu_model, retire_offers_of
from app.catalog.queries import gpu_by_name, gpu_models
from app.catalog.tables import GpuModel
from app.deps import ADMIN_GUARDS, Admin, Database, PostedForm, RecordId
from app.web.admin.forms import EditForm, Errors, OptionalNote, answer, checked, in_catalog
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)


class NewGpu(EditForm):
    """A GPU model and its memory per GPU."""

    conflict = "This GPU model was added meanwhile."
    name: Annotated[str, checked(check.gpu_name), in_catalog(gpu_by_name, "this GPU model exists already", known=False)]
    memory_gib: Annotated[int, checked(check.memory_gib)]


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
def create_gpu(request: Request, admin: Admin, db: Database, posted: PostedForm) -> Response:
    def save(session: Session, gpu: NewGpu) -> str:
        add_gpu_model(session, gpu.name, gpu.memory_gib, admin.username)
        return "/admin/gpus"

    return answer(NewGpu, posted, db, save, partial(_page, request, admin, db))


@router.post("/gpus/{gpu_id}/retire")
def retire_gpu(admin: Admin, db: Database, gpu_id: RecordId, note: OptionalNote = "") -> Response:
    """All offers of a GPU model leave new quotes at once."""
    with db() as session:
        gpu = session.get(GpuModel, gpu_id)
        if gpu is None:
            raise HTTPException(404, "no such GPU model")
        retire_offers_of(session, admin.username, note.strip() or f"{gpu.name} retired", gpu_model_id=gpu_id)
    return RedirectResponse("/admin/gpus", status_code=303)
