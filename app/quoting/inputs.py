"""The input types of the calculator's fields: what JSON, a form and a URL may each send for them.

Lax validation, which a URL's strings need ("1e3", "on"), would also read JSON's false as 0 and
its 0 as false; these types refuse that, by name.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError


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
