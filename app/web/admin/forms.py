"""Reading a posted form through the catalog's checks: a refused value becomes a message under its
field, so that every mistake of one submission is shown at once, and what was typed comes back.

An admin edit is a model (as the FastAPI template's `ItemCreate` / `ItemUpdate`): each field's
validator calls its check in app/catalog/rows.py, the one home of every rule and message, and
`answer` gives every edit's three answers: 303 to what it saved, 422 with each message under its
field, or 409 when the record changed since the form was opened (`based_on`, which the catalog's
change checks under the record's lock as it writes). New catalog data gets its admin form by
declaring a model, e.g. a GPU model's dense peak (app/web/admin/throughput.py):

    class PeakEdit(FactEdit):
        conflict = "Someone changed this peak after you opened the page; the current one is shown, yours below."
        gpu: Annotated[str, checked(check.gpu_name), in_catalog(gpu_by_name, "choose a GPU model of the catalog")]
        precision: Annotated[str, checked(check.one_of, Precision)]
        dense_tflops: Annotated[Decimal, checked(dense_tflops)]

    @router.post("/throughput/peaks", response_class=HTMLResponse)
    def save_gpu_peak(request: Request, admin: Admin, db: Database, posted: PostedForm) -> Response:
        def save(session: Session, edit: PeakEdit) -> str:
            save_peak(session, edit.gpu, edit.precision, edit.dense_tflops, edit.provenance,
                      edit.change(admin.username))
            return "/admin/throughput"

        return answer(PeakEdit, posted, db, save, partial(_page, request, admin, db))

`FactEdit` brings what every sourced fact's form asks (`_fields.html`'s `provenance` macro): the
source, as of, publisher and quote (and notes, where a form asks them), the change note and
`based_on` (with the admin, the catalog's `Change`), and `refused`, which an edit overrides where its
fields are checked together. The page's keys of a form's fields (their ids, messages and values) are
`prefix` + the field's name; a field is posted under its alias, if it has one (`hq_` fields posted as
keyed, `storage_` ones by their names).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Annotated, Any, ClassVar, Self, TypeVar, cast

from fastapi import Form
from fastapi.responses import RedirectResponse, Response
from pydantic import AfterValidator, BaseModel, BeforeValidator, ValidationError, ValidationInfo, model_validator
from pydantic_core import ErrorDetails
from sqlalchemy.orm import sessionmaker
from sqlmodel import Session

from app.catalog import rows as check
from app.catalog.changes import Change, StaleRecord
from app.catalog.queries import gpu_by_name
from app.catalog.tables import Provenance, SourceKind
from app.catalog.text_rules import plain_text

T = TypeVar("T")

Errors = dict[str, str]
Values = dict[str, str]
Page = Callable[[int, Errors, Values], Response]
"""An edit's page, answering with a status, each message under its field's key (`conflict`: the
form was stale) and the values as typed."""

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


def checked(rule: Callable[..., object], *args: object, **options: object) -> BeforeValidator:
    """A field read by one of app/catalog/rows.py's checks, `rule(typed, *args, **options)`: its
    value, or a ValueError whose message is shown under the field."""
    return BeforeValidator(lambda typed: rule(typed, *args, **options))


ChangeNote = Annotated[str, checked(check.change_note)]
Country = Annotated[str | None, checked(check.country)]


def in_catalog(find: Callable[[Session, str], object | None], message: str, known: bool = True) -> AfterValidator:
    """A name the catalog must hold (`known`), or must not hold yet: `find` looks it up in the session
    the edit is read and saved in; refused with `message`."""

    def looked_up(name: str, info: ValidationInfo) -> str:
        if (find(cast(Session, info.context), name) is not None) != known:
            raise ValueError(message)
        return name

    return AfterValidator(looked_up)


KNOWN_GPU = in_catalog(gpu_by_name, "choose a GPU model of the catalog (add it under GPU models first)")
"""A benchmark's, a peak's or a server's GPU model: one the catalog holds."""


class Refused(Exception):
    """A form refused: each message under its field's key."""

    def __init__(self, errors: Errors) -> None:
        super().__init__(errors)
        self.errors = errors


class EditForm(BaseModel):
    """A form that changes the catalog, read from the text typed in it. A blank field reads as its
    default where it has one, as FastAPI reads a form field, else as "" for its check to judge."""

    prefix: ClassVar[str] = ""
    """What the page's keys of this form's fields start with (hq_, storage_)."""
    conflict: ClassVar[str] = (
        "Someone changed this after you opened the page; the current values are shown, and yours below."
    )
    """What the page says when the form was stale (409)."""

    @classmethod
    def typed(cls, posted: Mapping[str, str]) -> Values:
        """Each field's text by the page's keys: what a refused form shows again."""
        return {cls.prefix + name: text for name, text in cls._texts(posted).items()}

    @classmethod
    def read(cls, posted: Mapping[str, str], session: Session) -> Self:
        """The form checked, or Refused with every message; validators that look a name up in the
        catalog read `session`."""
        try:
            return cls.model_validate(cls._texts(posted), context=session, by_alias=False, by_name=True)
        except ValidationError as refused:
            raise Refused({f"{cls.prefix}{e['loc'][0]}": _message(e) for e in refused.errors()}) from None

    @classmethod
    def _texts(cls, posted: Mapping[str, str]) -> Values:
        return {
            name: posted.get(field.alias or name) or ("" if field.is_required() else str(field.default))
            for name, field in cls.model_fields.items()
        }


def _message(error: ErrorDetails) -> str:
    """A check's own words; pydantic's where no check spoke (a `based_on` that is no number)."""
    refusal = error.get("ctx", {}).get("error")
    return str(refusal) if isinstance(refusal, ValueError) else error["msg"]


class FactEdit(EditForm):
    """A new version of a sourced fact: where the admin read it, why it changes, and the catalog
    version the form was opened at (an edit based on an older one is refused)."""

    source: Annotated[str, checked(check.web_address)]
    as_of: Annotated[date, checked(check.past_day)]
    source_kind: Annotated[str, checked(check.publisher)]
    quote: Annotated[str, checked(check.text, 2000, required=False)]
    notes: Annotated[str, checked(check.text, 4000, required=False)] = ""
    """What the reader of the fact should know besides the quote; blank where a form does not ask."""
    note: ChangeNote
    based_on: int = 0
    """The record's `last_change` when the form was opened; 0: it had none."""

    def refused(self) -> Errors:
        """The catalog's check of the fields together (a power figure needs its source): by field, why
        not. Run once every field has passed its own check."""
        return {}

    @model_validator(mode="after")
    def _fields_together(self) -> Self:
        if refused := self.refused():
            raise Refused(refused)
        return self

    @property
    def provenance(self) -> Provenance:
        return Provenance(
            source=self.source, as_of=self.as_of, source_kind=self.source_kind, quote=self.quote, notes=self.notes
        )

    def change(self, who: str) -> Change:
        """The change the admin `who` makes, based on the version the form was opened at."""
        return Change(self.note, who, self.based_on)


SOURCE_KINDS = [
    (SourceKind.OFFICIAL, "whoever sets it: its own page, file or filing"),
    (SourceKind.TRANSCRIPTION, "a copy of that page"),
    (SourceKind.THIRD_PARTY, "someone else's data or model"),
]
"""The publishers a fact's form offers (`source_kind`), as the page words them."""


E = TypeVar("E", bound=EditForm)


def answer(
    edit: type[E], posted: Mapping[str, str], db: sessionmaker[Session], save: Callable[[Session, E], str], page: Page
) -> Response:
    """Every admin edit's answer: the form read as `edit` and saved, in one short session, then 303
    to the address `save` returns; or `page` again with the values as typed, each message under its
    field (422: refused by a check, or by `save` raising Refused, as a name taken already), or
    the other admin's change shown (409: `save` raised StaleRecord)."""
    try:
        with db() as session:
            location = save(session, edit.read(posted, session))
    except Refused as refused:
        return page(422, refused.errors, edit.typed(posted))
    except StaleRecord:
        return page(409, {"conflict": edit.conflict}, edit.typed(posted))
    return RedirectResponse(location, status_code=303)
