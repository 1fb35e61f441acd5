"""CSRF tokens for forms that change data, and the pseudonymous client key used for rate limits."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from fastapi import Request, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.platform.settings import settings

CSRF_COOKIE = "csrftoken"
CSRF_FIELD = "csrf_token"
ADMIN_COOKIE = "admin_session"
EXPIRED = "This form has expired or came from another site. {} again from this page."
"""What a public form says when its token fails: the calculator's forms are filled in again, not signed in to."""


def _sign(nonce: str, admin_session: str | None) -> str:
    """Signs the nonce together with the admin session it was issued under (none: signed out), so a
    token is good in one browser's session only: a pair taken from another browser, or from before
    signing in, is refused."""
    bound_to = hashlib.sha256(admin_session.encode()).hexdigest() if admin_session else ""
    message = f"{bound_to}|{nonce}".encode()
    return hmac.new(settings.secret_key.encode(), message, hashlib.sha256).hexdigest()[:32]


def _valid(token: str | None, admin_session: str | None) -> bool:
    if not token or "." not in token:
        return False
    nonce, _, signature = token.partition(".")
    return hmac.compare_digest(_sign(nonce, admin_session), signature)


def new_csrf_token(admin_session: str | None) -> str:
    nonce = secrets.token_urlsafe(16)
    return f"{nonce}.{_sign(nonce, admin_session)}"


def csrf_token(request: Request) -> str:
    """The client's token (a signed cookie that forms echo back), new if it has none for its session."""
    token = request.cookies.get(CSRF_COOKIE)
    if _valid(token, request.cookies.get(ADMIN_COOKIE)):
        assert token is not None
        return token
    return new_csrf_token(request.cookies.get(ADMIN_COOKIE))


def served_over_https(request: Request) -> bool:
    return (settings.public_url or str(request.url)).startswith("https://")


def remember_csrf(request: Request, response: Response, token: str) -> None:
    if request.cookies.get(CSRF_COOKIE) != token:
        set_csrf_cookie(request, response, token)


def set_csrf_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(CSRF_COOKIE, token, httponly=True, samesite="lax", secure=served_over_https(request))


def csrf_ok(request: Request, submitted: str | None) -> bool:
    cookie = request.cookies.get(CSRF_COOKIE)
    return (
        _valid(cookie, request.cookies.get(ADMIN_COOKIE))
        and submitted is not None
        and hmac.compare_digest(cookie or "", submitted)
    )


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
NO_STORE = (b"cache-control", b"no-store")
"""On every admin page and export: what an admin saw must not stay in a shared or browser cache."""


class SecurityHeaders:
    """Adds the security headers to every response, and no-store to the admin area's; plain ASGI, so
    the slider's path pays nothing but a list append."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        admin = scope["path"] == "/admin" or scope["path"].startswith("/admin/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
                if (settings.public_url or "").startswith("https://"):
                    message["headers"].append(HSTS)
                if admin:
                    message["headers"] = [h for h in message["headers"] if h[0].lower() != NO_STORE[0]] + [NO_STORE]
            await send(message)

        await self.app(scope, receive, send_with_headers)
