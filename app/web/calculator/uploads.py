"""The upload of hourly GPU demand for the hybrid split: kept under its key, which the page then carries."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import parse_qsl, urlencode

from fastapi import APIRouter, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.deps import CatalogsDep, Database
from app.platform.security import EXPIRED, client_key, csrf_ok
from app.quoting.params.demand import BYTES_MAX, TOO_LARGE, read_hourly
from app.quoting.params.form import query_of
from app.quoting.params.job import Job
from app.scenarios.profiles import keep_profile
from app.scenarios.store import TooManySaves
from app.web.calculator.page import calculator_page

router = APIRouter(tags=["calculator"])

REPLACED = frozenset({"hourly", "hourly_key", "job", "demand"})
"""What an upload sets in the inputs it keeps: the split of this profile."""


def _hours(file: UploadFile | None, text: str) -> tuple[int, ...] | str:
    """The file's hours, else the pasted ones, or why not; a file larger than the limit is refused
    after reading one byte past it, not whole."""
    if file is None or not file.filename:
        return read_hourly(text) if text.strip() else "needs a CSV file chosen or the hours pasted"
    content = file.file.read(BYTES_MAX + 1)  # a plain def: the read runs off the event loop
    if len(content) > BYTES_MAX:
        return TOO_LARGE
    try:
        return read_hourly(content.decode("utf-8-sig"))  # a spreadsheet may have added a BOM
    except UnicodeDecodeError:
        return "is not text: save the CSV as UTF-8"


@router.post("/demand", response_class=HTMLResponse, summary="Upload hourly demand for the split (form post)")
def upload_demand(
    request: Request,
    db: Database,
    catalogs: CatalogsDep,
    file: UploadFile | None = None,
    csrf_token: Annotated[str, Form()] = "",
    text: Annotated[str, Form()] = "",
    inputs: Annotated[str, Form()] = "",
) -> Response:
    """The page's "Upload and split": the hours kept (once, however often sent), then the calculator
    at the page's other inputs with the split of them; else the page with why, under the upload."""
    kept = [(name, value) for name, value in parse_qsl(inputs, keep_blank_values=True) if name not in REPLACED]
    split = [*kept, ("job", Job.SPLIT.value), ("demand", "hourly")]

    def refused(status: int, why: str) -> Response:
        query = query_of(split)
        return calculator_page(request, catalogs, query, status_code=status, problems={"hourly_key": why})

    if not csrf_ok(request, csrf_token):
        return refused(403, EXPIRED.format("Upload"))
    hours = _hours(file, text)
    if isinstance(hours, str):
        return refused(422, hours)
    try:
        with db() as session:
            key = keep_profile(session, hours, client_key(request))
    except TooManySaves as e:
        response = refused(429, str(e))
        response.headers.update(e.headers)
        return response
    return RedirectResponse(f"/?{urlencode([*split, ('hourly_key', key)])}", status_code=303)
