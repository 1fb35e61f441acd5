"""CSRF tokens for forms that change data, and the pseudonymous client key used for rate limits."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from fastapi import Request, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import settings

CSRF_COOKIE = "csrftoken"
CSRF_FIELD = "csrf_token"


def _sign(nonce: str) -> str:
    return hmac.new(settings.secret_key.encode(), nonce.encode(), hashlib.sha256).hexdigest()[:32]


def _valid(token: str | None) -> bool:
    if not token or "." not in token:
        return False
    nonce, _, signature = token.partition(".")
    return hmac.compare_digest(_sign(nonce), signature)


def csrf_token(request: Request) -> str:
    """The client's token (double-submit: a signed cookie that forms echo back), new if it has none."""
    token = request.cookies.get(CSRF_COOKIE)
    if token is not None and _valid(token):
        return token
    nonce = secrets.token_urlsafe(16)
    return f"{nonce}.{_sign(nonce)}"


def served_over_https(request: Request) -> bool:
    return (settings.public_url or str(request.url)).startswith("https://")


def remember_csrf(request: Request, response: Response, token: str) -> None:
    if request.cookies.get(CSRF_COOKIE) != token:
        response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="lax", secure=served_over_https(request))


def csrf_ok(request: Request, submitted: str | None) -> bool:
    cookie = request.cookies.get(CSRF_COOKIE)
    return _valid(cookie) and submitted is not None and hmac.compare_digest(cookie or "", submitted)


def client_key(request: Request) -> str:
    """A keyed hash of the client's address: enough to count its saves, not to know who it is."""
    host = request.client.host if request.client else "unknown"
    return hmac.new(settings.secret_key.encode(), host.encode(), hashlib.sha256).hexdigest()[:32]


CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"x-frame-options", b"DENY"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
"""Sent only where PUBLIC_URL is https: browsers then never ask for the site over plain HTTP for a year."""


class SecurityHeaders:
    """Adds the security headers to every response; plain ASGI, so the slider's path pays nothing
    but a list append."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
                if (settings.public_url or "").startswith("https://"):
                    message["headers"].append(HSTS)
            await send(message)

        await self.app(scope, receive, send_with_headers)
