"""The calculator's form: a request model's inputs as the page lays them out, a query string read
into the model (a plain message per bad field), and the model written back as a form and a URL."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, get_args, get_origin
from urllib.parse import urlencode

from annotated_types import Ge, Gt
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

from app.quoting.params.inputs import Fieldset, Input, Widget
from app.quoting.params.quote import FieldErrors, QuoteParams


@dataclass(frozen=True)
class FormField:
    """An input as the form shows it: its declaration, and what its field's type and limits imply."""

    name: str
    input: Input
    min: float | None
    """The field's lower limit."""
    step: int | str
    """1 for a whole number, else "any"."""
    may_be_empty: bool
    """Its default is empty (none, "", no ticks), so that sent empty it takes the default; any other
    sent empty is refused, so that a cleared number never quietly shows the default's numbers."""

    def slider_end(self, values: Mapping[str, object]) -> int | None:
        """Where its slider ends for the values shown: `slider`, times the field it is per where it has one
        (a value not yet a number counts as 1)."""
        if self.input.slider is None or not self.input.slider_each:
            return self.input.slider
        try:
            each = int(float(str(values.get(self.input.slider_each))))
        except (ValueError, OverflowError):
            each = 1
        return self.input.slider * max(1, each)

    def beyond(self, values: Mapping[str, object], each_unit: str) -> str:
        """`Input.beyond` where the value is past the slider's end, else ""; `each_unit` is that of
        the field the slider is per ("GPUs", said "1 GPU")."""
        end = self.slider_end(values)
        try:
            value = float(str(values.get(self.name)))
        except (ValueError, OverflowError):
            return ""
        if not self.input.beyond or end is None or not value > end:
            return ""
        each = end // (self.input.slider or 1)
        return self.input.beyond.format(each=f"{each} {each_unit[:-1] if each == 1 else each_unit}", end=f"{end:,}")

    @classmethod
    def of(cls, name: str, info: FieldInfo) -> FormField:
        found = [item for item in info.metadata if isinstance(item, Input)]
        if not found:
            raise TypeError(f"{name} declares no Input: how would the form show it, or a message name it?")
        lower: list[Any] = [
            item.ge if isinstance(item, Ge) else item.gt for item in info.metadata if isinstance(item, Ge | Gt)
        ]
        whole = info.annotation is int or int in get_args(info.annotation)
        empty = info.get_default(call_default_factory=True) in (None, "", [])
        return cls(name, found[0], lower[0] if lower else None, 1 if whole else "any", empty)


@dataclass(frozen=True)
class Form:
    """A request model's inputs as the calculator's form shows them."""

    fields: tuple[FormField, ...]
    """In the order the model declares them."""

    def shown_in(self, fieldset: str, folded: bool = False) -> list[FormField]:
        return [f for f in self.fields if f.input.fieldset == fieldset and f.input.folded == folded]

    @cached_property
    def hidden(self) -> list[FormField]:
        return [f for f in self.fields if f.input.fieldset is None]

    @cached_property
    def in_form_order(self) -> list[FormField]:
        """Fieldset by fieldset, as the page lays them out, then the hidden ones."""
        return [f for fieldset in Fieldset for folded in (False, True) for f in self.shown_in(fieldset, folded)] + (
            self.hidden
        )

    @cached_property
    def stored(self) -> frozenset[str]:
        """Inputs kept whole only where a scenario is stored: never in a form or a URL."""
        return frozenset(f.name for f in self.fields if f.input.widget == Widget.STORED)

    @cached_property
    def labels(self) -> dict[str, str]:
        return {f.name: f.input.label for f in self.fields}

    @cached_property
    def units(self) -> dict[str, str]:
        return {f.name: f.input.unit for f in self.fields}

    @cached_property
    def may_be_empty(self) -> set[str]:
        return {f.name for f in self.fields if f.may_be_empty}


@cache
def form_of(model: type[BaseModel]) -> Form:
    """One per request model (the calculator's, or a test's copy of it), whose fields never change."""
    return Form(tuple(FormField.of(name, info) for name, info in model.model_fields.items()))


_MESSAGES = {
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be greater than {gt}",
    "less_than_equal": "must be at most {le}",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "finite_number": "must be a finite number",
    "bool_parsing": "must be on or off",
    "enum": "must be one of {expected}",
    "string_too_long": "is too long",
    "literal_error": "must be one of {expected}",
}


def field_errors(refused: ValidationError, message: Callable[[ErrorDetails], str]) -> FieldErrors:
    """A plain message per bad field: the `message` of the first error pydantic finds in it."""
    errors: FieldErrors = {}
    for error in refused.errors():
        errors.setdefault(str(error["loc"][0]), message(error))
    return errors


def _message(error: ErrorDetails) -> str:
    template = _MESSAGES.get(error["type"])
    context = {k: _number(v) for k, v in error.get("ctx", {}).items()}
    return error["msg"] if template is None else template.format(**context)


def _number(value: object) -> object:
    """1000000 -> '1,000,000' and 0.0 -> '0' in messages; anything else as it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,.0f}" if float(value).is_integer() else f"{value:,}"
    return value


def query_of(pairs: Iterable[tuple[str, str]], model: type[BaseModel] = QuoteParams) -> dict[str, str | list[str]]:
    """A query string's pairs as `parse_params` reads them: every value of a list input (the tenancies
    ticked), the last of any other."""
    lists = _list_inputs(model)
    query: dict[str, str | list[str]] = {}
    listed: dict[str, list[str]] = {}
    for name, value in pairs:
        if name in lists:
            listed.setdefault(name, []).append(value)
        else:
            query[name] = value
    return query | listed


@cache
def _list_inputs(model: type[BaseModel]) -> frozenset[str]:
    return frozenset(name for name, info in model.model_fields.items() if get_origin(info.annotation) is list)


def parse_params(
    query: dict[str, str | list[str]], model: type[QuoteParams] = QuoteParams
) -> QuoteParams | FieldErrors:
    """Read a query string into params, or a plain message per bad field.

    A parameter left out takes its default (a short shared URL); one sent empty takes it only where
    that default is empty (`FormField.may_be_empty`).
    """
    empty = form_of(model).may_be_empty
    data = {k: v for k, v in query.items() if not (v in ("", [], [""]) and k in empty)}
    try:
        return model.model_validate(data)
    except ValidationError as e:
        return field_errors(e, _message)


def form_values(params: QuoteParams) -> dict[str, Any]:
    """Inputs as a person would type them: 500, not 500.0."""
    return {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in params.model_dump().items()}


@cache
def default_values(model: type[QuoteParams] = QuoteParams) -> dict[str, Any]:
    """What an empty form shows; worked out once per request model, not on every move of a slider."""
    return form_values(model())


def query_string(
    params: QuoteParams, leave_out: frozenset[str] = frozenset({"catalog_version"}), changed_only: bool = False
) -> str:
    """The calculator's URL for these inputs at today's prices; less the inputs `leave_out` names and
    those only a stored scenario holds (an uploaded profile, which its key stands for), and with
    `changed_only` those at their default (which a URL leaving them out means)."""
    defaults = default_values(type(params)) if changed_only else {}
    leave_out |= form_of(type(params)).stored
    pairs: list[tuple[str, Any]] = []
    for name, value in form_values(params).items():
        if name in leave_out or value is False or value is None or value == "":
            continue
        if name in defaults and defaults[name] == value:
            continue
        if isinstance(value, list):
            pairs += [(name, str(v)) for v in value]
        else:
            pairs.append((name, "on" if value is True else value))
    return urlencode(pairs)
