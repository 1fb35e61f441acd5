"""Admin exchange rates: the euro's rate as catalog data, typed in or fetched from the ECB's
reference rates into the same form, saved as a new version."""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog.changes import last_change
from app.catalog.rate_changes import change_rate
from app.catalog.rates import exchange_rate
from app.catalog.tables import ExchangeRate
from app.deps import ADMIN_GUARDS, Admin, CatalogsDep, Database, PostedForm, PublicSources
from app.platform.settings import settings
from app.refresh.ecb import read_ecb
from app.refresh.fetch import Fetcher, RefreshFailed
from app.web.admin.forms import SOURCE_KINDS, FactEdit, answer, checked
from app.web.admin.pages import admin_page

router = APIRouter(prefix="/admin", tags=["admin"], include_in_schema=False, dependencies=ADMIN_GUARDS)

CURRENCY = "EUR"
"""The one display currency besides USD, the currency the catalog's prices are published in."""


class RateEdit(FactEdit):
    """A new rate of the display currency, with where it was read."""

    conflict = "Someone changed the rate after you opened the page; the current one is shown."
    usd_per_unit: Annotated[Decimal, checked(exchange_rate)]


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
def save_rate(request: Request, admin: Admin, db: Database, catalogs: CatalogsDep, posted: PostedForm) -> Response:
    def save(session: Session, rate: RateEdit) -> str:
        change_rate(session, CURRENCY, rate.usd_per_unit, rate.provenance, rate.change(admin.username))
        return "/admin/rates"

    return answer(RateEdit, posted, db, save, partial(_page, request, admin, db, catalogs))
