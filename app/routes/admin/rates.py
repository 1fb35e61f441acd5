"""Admin exchange rates: the euro's rate as catalog data, typed in or fetched from the ECB's
reference rates into the same form, saved as a new version."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.admin.tables import AdminUser
from app.catalog import rows as check
from app.catalog.changes import StaleRecord, last_change
from app.catalog.rate_changes import change_rate
from app.catalog.tables import ExchangeRate
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, PublicSources
from app.forms import SOURCE_KINDS, FormReader, read_provenance
from app.pages import admin_page
from app.refresh.ecb import read_ecb
from app.refresh.fetch import Fetcher, RefreshFailed
from app.settings import settings

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

CURRENCY = "EUR"
"""The one display currency besides USD, the currency the catalog's prices are published in."""


def _page(request: Request, admin: AdminUser, db: Database, catalogs: CatalogsDep, status: int = 200,
          errors: dict[str, str] | None = None, values: dict[str, str] | None = None) -> Response:  # fmt: skip
    now = catalogs.current().rates.get(CURRENCY)
    with db() as session:
        based_on = last_change(session, ExchangeRate, "currency", CURRENCY)
    return admin_page(
        request, admin, "rates", status, now=now, currency=CURRENCY, based_on=based_on,
        source_kinds=SOURCE_KINDS, errors=errors or {}, values=values or {},
    )  # fmt: skip


@router.get("/rates", response_class=HTMLResponse)
def rates(request: Request, admin: Admin, db: Database, catalogs: CatalogsDep) -> Response:
    return _page(request, admin, db, catalogs)


@router.post("/rates/ecb", response_class=HTMLResponse)
def fetch_ecb(request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, client: PublicSources) -> Response:
    """The ECB's reference rate, filled into the form for the admin to save; nothing is saved yet."""
    try:
        found = read_ecb(Fetcher(client), settings.ecb_rates_url)
    except RefreshFailed as e:
        return _page(request, admin, db, catalogs, 502, {"fetch": f"Nothing was fetched: {e}."})
    values = {"usd_per_unit": str(found.usd_per_eur), "source": found.url, "as_of": found.as_of.isoformat(),
              "source_kind": "official", "quote": found.quote,
              "note": f"ECB euro reference rate of {found.as_of.isoformat()}"}  # fmt: skip
    return _page(request, admin, db, catalogs, values=values)


@router.post("/rates", response_class=HTMLResponse)
def save_rate(
    request: Request, admin: Admin, db: Database, catalogs: CatalogsDep,
    usd_per_unit: Annotated[str, Form()] = "", source: Annotated[str, Form()] = "", as_of: Annotated[str, Form()] = "",
    source_kind: Annotated[str, Form()] = "", quote: Annotated[str, Form()] = "", note: Annotated[str, Form()] = "",
    based_on: Annotated[int, Form()] = 0,
) -> Response:  # fmt: skip
    values = {"usd_per_unit": usd_per_unit, "source": source, "as_of": as_of, "source_kind": source_kind,
              "quote": quote, "note": note}  # fmt: skip
    form = FormReader()
    rate = form.read("usd_per_unit", check.exchange_rate, usd_per_unit)
    provenance = read_provenance(form, "", source, as_of, source_kind, quote)
    why = form.read("note", check.change_note, note)
    if form.errors:
        return _page(request, admin, db, catalogs, 422, form.errors, values)
    try:
        with db() as session:
            change_rate(session, CURRENCY, rate, provenance, why, admin.username, based_on)
    except StaleRecord:
        conflict = {"conflict": "Someone changed the rate after you opened the page; the current one is shown."}
        return _page(request, admin, db, catalogs, 409, conflict, values)
    return RedirectResponse("/admin/rates", status_code=303)
