"""The address a request counts under for save limits and sign-in throttling: the socket's peer,
or, where that peer is a proxy named in TRUSTED_PROXIES, the client it forwarded for."""

from __future__ import annotations

from collections.abc import Sequence
from ipaddress import IPv4Network, IPv6Network, ip_address

from starlette.types import ASGIApp, Receive, Scope, Send

from app.platform.settings import settings

UNKNOWN_BEHIND_A_PROXY = "forwarded-by-an-untrusted-proxy"
"""Where a server in front already replaced the peer with a forwarded address, the sender is
unknown: all such requests count as one client, so that a forged header buys no fresh limit."""

Networks = Sequence[IPv4Network | IPv6Network]


def _host(entry: str) -> str:
    """An X-Forwarded-For entry without its port: "[::1]:80" -> "::1", "1.2.3.4:80" -> "1.2.3.4"."""
    entry = entry.strip()
    if entry.startswith("["):
        return entry[1:].partition("]")[0]
    host, colon, port = entry.rpartition(":")
    return host if colon and "." in host and port.isdigit() else entry


def _trusted(host: str, proxies: Networks) -> bool:
    try:
        address = ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in proxies)


def client_address(peer: str, forwarded_for: list[str], proxies: Networks) -> str:
    """Who sent a request that arrived from `peer` with these X-Forwarded-For entries (oldest first).

    From a trusted proxy: the nearest entry that is not itself a trusted proxy. From anyone else,
    the peer, since anyone can write the header; but a peer that appears among the entries was put
    there by a server in front (uvicorn trusts 127.0.0.1's headers unless started with
    --no-proxy-headers), and the true sender is then unknown.
    """
    hosts = [_host(entry) for entry in forwarded_for if entry.strip()]
    if not _trusted(peer, proxies):
        return UNKNOWN_BEHIND_A_PROXY if peer in hosts else peer
    for host in reversed(hosts):
        if not _trusted(host, proxies):
            return host
    return peer


class ClientAddress:
    """Sets the request's client (and, from a trusted proxy, its scheme) by `client_address`,
    before anything reads it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("client"):
            forwarded_for: list[str] = []
            forwarded_proto = None
            for name, value in scope["headers"]:
                if name == b"x-forwarded-for":
                    forwarded_for += value.decode("latin-1").split(",")
                elif name == b"x-forwarded-proto":
                    forwarded_proto = value.decode("latin-1").strip()
            peer, port = scope["client"]
            if forwarded_for:
                scope["client"] = (client_address(peer, forwarded_for, settings.trusted_proxies), port)
            if forwarded_proto in ("http", "https") and _trusted(peer, settings.trusted_proxies):
                scope["scheme"] = forwarded_proto
        await self.app(scope, receive, send)
