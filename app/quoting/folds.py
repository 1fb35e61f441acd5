"""The calculator's folded groups: every fieldset but the workload's sits closed under a summary that
names it and what in it differs from the defaults, so that a phone shows the workload and the answer
first; a group opens where one of its inputs needs fixing, and the job's where it states a job."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from app.quoting.params.form import FormField, default_values, form_of, form_values, parse_params
from app.quoting.params.inputs import Fieldset, Input
from app.quoting.params.job import Job
from app.quoting.params.quote import FieldErrors, QuoteParams

FOLDED = tuple(fieldset for fieldset in Fieldset if fieldset is not Fieldset.WORKLOAD)


@dataclass(frozen=True)
class Fold:
    """A group under its summary."""

    open: bool
    """One of its inputs is wrong, or, for the job's, a job is stated: its inputs then replace the GPU-hours."""
    open_within: bool
    """Whether the fold inside it, of its less-used inputs (`Input.folded`), is open: one of them is wrong."""
    changes: tuple[tuple[FormField, Any], ...]
    """Its inputs set otherwise than by default, each with its value as the form shows it (500, not 500.0)."""


def folds(params: QuoteParams, errors: FieldErrors) -> dict[str, Fold]:
    """Each folded group for these inputs (`settled` ones where some are wrong)."""
    values, defaults = form_values(params), default_values(type(params))
    fields = form_of(type(params)).fields
    return {
        fieldset: Fold(
            any(f.name in errors for f in fields if f.input.fieldset == fieldset)
            or (fieldset is Fieldset.JOB and params.job is not Job.HOURS),
            any(f.name in errors for f in fields if f.input.fieldset == fieldset and f.input.folded),
            tuple(
                (f, values[f.name])
                for f in fields
                if f.input.fieldset == fieldset and values[f.name] != defaults[f.name] and _stated(f.input, params)
            ),
        )
        for fieldset in FOLDED
    }


def _stated(input: Input, params: QuoteParams) -> bool:
    """Whether an input means something for the job as stated (a split's: for its demand); the page's
    stylesheet shows the same inputs."""
    if params.job is Job.SPLIT and input.demand:
        return input.demand == params.demand
    return input.job in ("", params.job)


def folded_alike(query: dict[str, Any], other: dict[str, Any], model: type[QuoteParams]) -> bool:
    """Whether two queries hold the same text for every input of the folded groups, as a move of the
    slider leaves them; then their summaries are the same, without reading either."""
    return all(query.get(name) == other.get(name) for name in _folded_inputs(model))


@cache
def _folded_inputs(model: type[QuoteParams]) -> tuple[str, ...]:
    return tuple(f.name for f in form_of(model).fields if f.input.fieldset in FOLDED)


def settled(query: dict[str, Any], parsed: QuoteParams | FieldErrors, model: type[QuoteParams]) -> QuoteParams:
    """The inputs as parsed, or, where some are wrong, the others, the wrong ones at their defaults:
    what the summaries can name while the form holds a mistake (its group open, the message under the field)."""
    if not isinstance(parsed, dict):
        return parsed
    rest = parse_params({k: v for k, v in query.items() if k not in parsed}, model)
    return model() if isinstance(rest, dict) else rest
