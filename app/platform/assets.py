"""Static files under addresses that change with their content, so that a browser may keep them for a
year and never ask again: the name carries a version (htmx-2.0.11.min.js) or the link a digest."""

from __future__ import annotations

import hashlib
import re
from functools import cache

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from app.platform.settings import ROOT

FOR_A_YEAR = "public, max-age=31536000, immutable"
VERSIONED_NAME = re.compile(r"-\d+\.\d+\.\d+[./]")
"""A vendored library's file or folder named with its version, e.g. swagger-ui-5.35.0/."""


@cache
def asset_url(name: str) -> str:
    """The address of a static file with its content's digest: a changed file is a new address."""
    digest = hashlib.sha256((ROOT / "static" / name).read_bytes()).hexdigest()[:12]
    return f"/static/{name}?v={digest}"


class Assets(StaticFiles):
    """Static files, kept by browsers for a year where the address names the content, else
    checked again on each use."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            named = b"v=" in scope.get("query_string", b"") or VERSIONED_NAME.search(path)
            response.headers["Cache-Control"] = FOR_A_YEAR if named else "no-cache"
        return response
