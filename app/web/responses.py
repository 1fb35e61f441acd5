"""Responses every page area may give: a CSV download, JSON worked out in the heavy lane, and the page for an
address that leads nowhere."""

from fastapi import Request
from fastapi.responses import Response
from pydantic import BaseModel

from app.web.templating import templates


class CSVResponse(Response):
    """A CSV download; as a route's response_class, the OpenAPI schema says text/csv."""

    media_type = "text/csv"


def not_found_page(request: Request) -> Response:
    return templates.TemplateResponse(request, "not_found.html", {}, status_code=404)


def as_json(answer: BaseModel, status_code: int = 200) -> Response:
    """An answer worked out in the heavy lane, serialised there too: FastAPI would check and serialise a
    year's split (170 kB) on the event loop."""
    return Response(answer.model_dump_json(by_alias=True), status_code=status_code, media_type="application/json")
