"""The calculator page: the form and, for htmx, only its results block."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.deps import CatalogsDep, Fragment
from app.pages import calculator_page
from app.quoting.form import query_of

router = APIRouter(tags=["calculator"])


@router.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
async def calculator(request: Request, catalogs: CatalogsDep, fragment: Fragment) -> Response:
    return calculator_page(request, catalogs, query_of(request.query_params.multi_items()), fragment)
