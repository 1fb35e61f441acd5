"""Responses every page area may give: a CSV download, and the page for an address that leads nowhere."""

from fastapi import Request
from fastapi.responses import Response

from app.web.templating import templates


class CSVResponse(Response):
    """A CSV download; as a route's response_class, the OpenAPI schema says text/csv."""

    media_type = "text/csv"


def not_found_page(request: Request) -> Response:
    return templates.TemplateResponse(request, "not_found.html", {}, status_code=404)
