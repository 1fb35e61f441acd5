"""Reading a form's fields through the catalog's checks: a refused value becomes a message under
its field, so that every mistake of one submission is shown at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

Errors = dict[str, str]


def read(errors: Errors, key: str, check: Callable[..., T], *args: Any) -> T | None:
    """`check(*args)`, or None with its message noted under `key`."""
    try:
        return check(*args)
    except ValueError as e:
        errors[key] = str(e)
        return None
