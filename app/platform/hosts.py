"""The host names the app answers for: a request naming any other is refused before a route could
build a link or a redirect on its Host header."""

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from app.platform.settings import settings

UNCHECKED_PATHS = frozenset({"/api/health"})
"""A load balancer or container health check asks by address, not by name; the answer names no host."""


def host_allowed(host: str, allowed: list[str]) -> bool:
    """`host` without its port, against names (`*.example.com` matches its subdomains, `*` any)."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.lower().rstrip(".")
    return any(
        pattern == "*" or name == pattern.lower() or (pattern.startswith("*.") and name.endswith(pattern[1:].lower()))
        for pattern in allowed
    )


class AllowedHosts:
    """Answers 400 to a request whose Host header names a host not in `settings.hosts_allowed()`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in UNCHECKED_PATHS:
            await self.app(scope, receive, send)
            return
        host = next((value.decode("latin-1") for key, value in scope["headers"] if key == b"host"), "")
        if host_allowed(host, settings.hosts_allowed()):
            await self.app(scope, receive, send)
            return
        refusal = PlainTextResponse("This server does not answer for that host name.", status_code=400)
        await refusal(scope, receive, send)
