"""The calculator's inputs: what JSON, a form and a URL may each send for a field (its type), and how
the form shows it, the messages name it and the API describes it (its `Input`, declared on the field).

Lax validation, which a URL's strings need ("1e3", "on"), would also read JSON's false as 0 and
its 0 as false; these types refuse that, by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BeforeValidator, Field
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError, PydanticUndefined


def _not_a_boolean(value: object) -> object:
    """JSON's true and false are no numbers."""
    if isinstance(value, bool):
        raise PydanticCustomError("number_not_boolean", "must be a number, not true or false")
    return value


Number = Annotated[float, BeforeValidator(_not_a_boolean)]
"""A number input: from JSON or a form ("1e3" is 1,000), never a boolean."""
Whole = Annotated[int, BeforeValidator(_not_a_boolean)]
MaybeNumber = Annotated[float | None, BeforeValidator(_not_a_boolean)]
"""An optional one: `Number | None` would leave its bounds out of the JSON schema (as "ge", "le")."""
MaybeWhole = Annotated[int | None, BeforeValidator(_not_a_boolean)]


def _not_a_number(value: object) -> object:
    """JSON's 0 and 1 are no booleans either; a form's "on" and a URL's "true" are."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise PydanticCustomError("boolean_not_number", "must be true or false, not a number")
    return value


Flag = Annotated[bool, BeforeValidator(_not_a_number)]


def _a_day_written_as_one(value: object) -> object:
    """A day is written as one, 2026-11-30: lax validation would read a number, or a number's text, as
    seconds since 1970."""
    if value is None or isinstance(value, date) or (isinstance(value, str) and _DAY.fullmatch(value)):
        return value
    raise PydanticCustomError("date_as_written", "must be a date written as 2026-11-30")


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
MaybeDay = Annotated[date | None, BeforeValidator(_a_day_written_as_one)]


class Fieldset(StrEnum):
    """The calculator form's fieldsets, in the order its template lays them out: the workload, then the
    answer, then the others, each folded under a summary (app/quoting/folds.py); each shows its inputs
    in the order the model declares them."""

    WORKLOAD = "workload"
    JOB = "job"
    DATA = "data"
    MODEL = "model"
    OWNING = "owning"
    FILTERS = "filters"
    ASSUMPTIONS = "assumptions"


class Widget(StrEnum):
    """How the form shows an input; GPU, PRESET, SERVER and REGION list the page's catalog."""

    NUMBER = "number"
    """A number to type, beside a slider where the input has one."""
    CHOICE = "choice"
    """A select of the input's `options`."""
    GPU = "gpu"
    """A select of the catalog's GPU models, after its placeholder (default: "any GPU that fits the model")."""
    PRESET = "preset"
    """A select of the catalog's model presets, after none."""
    REGION = "region"
    """A select of the catalog's regions, grouped by country."""
    SERVER = "server"
    """A select of the catalog's servers to own, after none and before a server of the buyer's own figures."""
    TENANCY = "tenancy"
    """A checkbox per tenancy."""
    FLAG = "flag"
    """One checkbox: on or off."""
    HIDDEN = "hidden"
    """Carried by the form while set, never shown: the catalog version of a saved link, a pinned offer."""
    STORED = "stored"
    """Never in the form nor a URL, too long for either: an uploaded profile, which the page carries by
    its key and a saved scenario or the API holds whole."""
    TEXT = "text"
    """A text area: a grid of numbers typed or pasted."""


@dataclass(frozen=True)
class Input:
    """How one field of a request model is shown, named and described, declared once on the field
    (`Input(...).field(default, ge=..., le=...)`): the form, the error messages, the comparison of
    saved scenarios and the OpenAPI schema all read it there."""

    label: str
    """What the form labels it, and what the messages and the comparison name it by."""
    fieldset: Fieldset | None
    """None for a hidden input."""
    unit: str = ""
    """Beside the label, small: what the number counts; for a flag, in brackets, what it means."""
    help: str = ""
    """What the API's documentation says beyond the label and unit."""
    widget: Widget = Widget.NUMBER
    options: tuple[tuple[str, str], ...] = ()
    """A CHOICE's values, each with what the form shows for it."""
    slider: int | None = None
    """Where the slider beside a number ends; the number itself takes anything up to the field's limit.
    Sliders move in whole units: GB, hours, millions of tokens."""
    slider_each: str = ""
    """The field `slider` is per, if any: GPU-hours end at 730 for each GPU used at once."""
    beyond: str = ""
    """What the number box says past the slider's end where that end is a real limit: {each} is the
    field it is per, with its unit, and {end} the end (the page's script fills them in as they are typed)."""
    placeholder: str = ""
    """What the input means left empty: shown in an empty number, or as a select's empty choice."""
    folded: bool = False
    """Shown in its fieldset's details, folded away."""
    job: str = ""
    """The way of stating the job it belongs to (a `Job` value), where it means nothing for the others:
    the page shows it for that job alone."""
    demand: str = ""
    """Likewise the way of stating the split's demand it belongs to (simple, weekly, hourly, serving);
    a serving job's input marked `serving` also states a split's demand from a serving job."""
    sized: bool = False
    """A model, where one is chosen, sets it from its memory need: the page says so beside it."""

    def __post_init__(self) -> None:
        if (self.fieldset is None) != (self.widget in (Widget.HIDDEN, Widget.STORED)):
            raise ValueError(f"{self.label}: a hidden input belongs to no fieldset, and every other to one")

    @property
    def description(self) -> str:
        unit = f" ({self.unit})" if self.unit else ""
        return f"{self.label}{unit}; {self.help}" if self.help else f"{self.label}{unit}"

    def field(self, default: Any = PydanticUndefined, **limits: Any) -> Any:
        """The model's field: its default and limits as pydantic's `Field` takes them, described
        for the API by this declaration, which it carries for `FormField.of`."""
        info: FieldInfo = Field(default, description=self.description, **limits)
        info.metadata.append(self)
        return info
