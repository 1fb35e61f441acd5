"""Reading a form's fields through the catalog's checks: a refused value becomes a message under
its field, so that every mistake of one submission is shown at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar, cast

from fastapi import Form
from pydantic import AfterValidator

from app.catalog import rows as check
from app.catalog.tables import Provenance, SourceKind
from app.catalog.text_rules import plain_text

T = TypeVar("T")

Errors = dict[str, str]

OptionalNote = Annotated[str, Form(max_length=500), AfterValidator(plain_text)]
"""Why an admin retires something or applies an import, which may be left to a default: refused
(422) if it holds a control character, as every text of the catalog is."""


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


SOURCE_KINDS = [
    (SourceKind.OFFICIAL, "whoever sets it: its own page, file or filing"),
    (SourceKind.TRANSCRIPTION, "a copy of that page"),
    (SourceKind.THIRD_PARTY, "someone else's data or model"),
]


def read_provenance(form: FormReader, prefix: str, source: str, as_of: str, source_kind: str, quote: str) -> Provenance:
    """Where the admin read a fact: every form that changes one asks the same."""
    return Provenance(
        source=form.read(f"{prefix}source", check.web_address, source) or "",
        as_of=form.read(f"{prefix}as_of", check.past_day, as_of),
        source_kind=form.read(f"{prefix}source_kind", check.publisher, source_kind) or "",
        quote=form.read(f"{prefix}quote", lambda v: check.text(v, 2000, required=False), quote) or "",
    )
