"""The API's interactive docs, served from vendored Swagger UI so that the strict CSP holds here too."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.web.templating import templates

router = APIRouter(include_in_schema=False)


@router.get("/docs", response_class=HTMLResponse)
def api_docs(request: Request) -> Response:
    return templates.TemplateResponse(request, "api/docs.html", {})
