"""Fetching a public source: every way it can fail becomes one plain sentence, and nothing changes."""

from __future__ import annotations

import json
from typing import Any

import httpx


class RefreshFailed(Exception):
    """The source could not be read whole; the catalog is left as it was."""


class Fetcher:
    """GETs through one client; a timeout, a network error, an HTTP error or a payload that is not
    what the source publishes raises RefreshFailed naming the address."""

    def __init__(self, client: httpx.Client) -> None:
        self.client = client

    def _get(self, url: str) -> httpx.Response:
        try:
            response = self.client.get(url)
        except httpx.TimeoutException:
            raise RefreshFailed(f"{url} did not answer in time") from None
        except (httpx.HTTPError, httpx.InvalidURL) as e:
            raise RefreshFailed(f"{url} could not be reached ({type(e).__name__})") from None
        if response.status_code != 200:
            raise RefreshFailed(f"{url} answered HTTP {response.status_code}")
        return response

    def content(self, url: str) -> bytes:
        """The body as sent, for a source published as a file (gpuhunt's zipped catalogs)."""
        return self._get(url).content

    def text(self, url: str) -> str:
        response = self._get(url)
        try:
            return response.text
        except UnicodeDecodeError:
            raise RefreshFailed(f"{url} did not send text") from None

    def json(self, url: str) -> Any:
        try:
            return json.loads(self.text(url))
        except json.JSONDecodeError as e:
            raise RefreshFailed(f"{url} did not send JSON ({e.msg} at character {e.pos})") from None
        except RecursionError:
            raise RefreshFailed(f"{url} sent JSON nested too deep to read") from None
