"""Reading a form's fields through the catalog's checks: a refused value becomes a message under
its field, so that every mistake of one submission is shown at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")

Errors = dict[str, str]


class FormReader:
    """Collects each field's checked value, or its message under `errors`."""

    def __init__(self) -> None:
        self.errors: Errors = {}

    def read(self, key: str, check: Callable[..., T], *args: Any) -> T:
        """`check(*args)`; a refused value reads as None, which is never used: with any errors the
        handler answers with them before it saves anything."""
        try:
            return check(*args)
        except ValueError as e:
            self.errors[key] = str(e)
            return cast(T, None)
