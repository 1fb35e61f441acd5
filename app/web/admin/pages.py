"""An admin page in its frame, and the preview of an import or a refresh that several admin areas show."""

from datetime import date
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from sqlmodel import Session

from app.admin.tables import AdminUser
from app.catalog.plans import ImportPlan
from app.catalog.queries import offer_prices
from app.catalog.tables import PendingImport
from app.platform.security import csrf_token, remember_csrf
from app.web.templating import templates


def admin_page(request: Request, admin: AdminUser, name: str, status: int = 200, **context: Any) -> Response:
    """An admin page; it (re)sets the CSRF cookie, which a browser drops on restart while the
    longer admin session lives on."""
    token = csrf_token(request)
    context |= {"admin": admin, "csrf_token": token, "today": date.today()}
    response = templates.TemplateResponse(request, f"admin/{name}.html", context, status_code=status)
    remember_csrf(request, response, token)
    return response


PREVIEW_ROWS = 500
"""An import preview lists this many new and changed offers; the counts cover all."""


def preview_prices(session: Session, plan: ImportPlan) -> dict[int, str]:
    """The price now of each changed offer that an import preview lists."""
    return offer_prices(session, [row_id for row_id, _ in plan.change[:PREVIEW_ROWS]])


def import_preview_page(
    request: Request, admin: AdminUser, plan: ImportPlan, pending: PendingImport | None,
    current_prices: dict[int, str], status: int = 200, **context: Any,
) -> Response:  # fmt: skip
    """What an import or a refresh would change, and the form that applies the waiting plan."""
    context |= {"plan": plan, "pending": pending, "current_prices": current_prices, "shown": PREVIEW_ROWS}
    return admin_page(request, admin, "import_preview", status, **context)
