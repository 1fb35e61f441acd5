"""A request path as the routes are matched against it."""

from starlette.types import ASGIApp, Receive, Scope, Send


class FinalNewline:
    """Starlette matches a route's pattern with `$`, which also matches before a path's final newline:
    `/api/quote%0A` would be answered as `/api/quote`, and `/api/scenarios/%0A` as the list's 405. A
    final newline is routed percent-encoded instead, a character of the last segment like any other,
    so that such a path names no page (404) or a slug that no scenario has."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].endswith("\n"):
            scope = {**scope, "path": scope["path"][:-1] + "%0A"}
        await self.app(scope, receive, send)
