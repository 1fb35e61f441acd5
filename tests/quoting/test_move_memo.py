"""The memo of a slider move (app/quoting/build.py): keyed by every input but GPU-hours, derived from
the parsed inputs, and counted in its catalog version's bytes as it fills."""

import pytest
from pydantic import Field

from app.catalog.snapshot import Catalogs
from app.quoting.build import build_quote
from app.quoting.moves import MOVES_BYTES, MOVES_KEPT, move_key
from app.quoting.params.quote import QuoteParams
from app.web.calculator.result_charts import options_drawn
from tests.factories import hand_checked_catalog


class WithTokens(QuoteParams):
    """The request model with an input the next issues add, as a new field would be declared."""

    tokens_per_month: float = Field(0, ge=0, le=1e12, description="tokens served a month")


def a_different_value(schema: dict, field: dict, default: object) -> object:
    """A valid value other than `default`, read off the field's JSON schema alone, so that an input
    added to QuoteParams is covered without being named here."""
    if "$ref" in field:
        field = schema["$defs"][field["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in field:
        field = next(choice for choice in field["anyOf"] if choice.get("type") != "null")
    if "examples" in field:
        return field["examples"][0]
    if "enum" in field:
        return next(value for value in field["enum"] if value != default)
    kind = field["type"]
    if field.get("format") == "date":
        return "2026-11-30" if default != "2026-11-30" else "2026-12-01"
    if kind == "array":
        return [a_different_value(schema, field["items"], None)]
    if kind == "boolean":
        return not default
    if kind == "string":
        return "x" if default != "x" else "y"
    top = field.get("maximum", (default or 0) + 1)
    return top if top != default else field.get("minimum", 0)


@pytest.mark.parametrize("model", [QuoteParams, WithTokens])
def test_changing_any_input_but_gpu_hours_changes_the_memos_key(model):
    """Every field of the request model, each given another valid value in turn, a field added to a
    copy of it too: each changes the key; GPU-hours do not, within a band (400 -> 450, both searched
    up to 1,000 h) or across one (to 3,000)."""
    schema, base = model.model_json_schema(), model()
    changed = {}
    for name in model.model_fields:
        value = a_different_value(schema, schema["properties"][name], base.model_dump(mode="json")[name])
        other = model.model_validate(base.model_dump() | {name: value})
        assert getattr(other, name) != getattr(base, name), name
        changed[name] = move_key(other) != move_key(base)
    assert changed == {name: name != "gpu_hours" for name in model.model_fields}
    assert move_key(model(gpu_hours=400)) == move_key(model(gpu_hours=450)) == move_key(model(gpu_hours=3000))


def test_the_memo_is_counted_in_its_versions_bytes_as_it_fills(session):
    """The quote puts an entry (its contenders and break-evens) and the page's chart drawings grow it after: both
    show in the bytes the process keeps for the version, and an entry given up gives all of them back."""
    hand_checked_catalog(session)
    catalogs = Catalogs(session.get_bind())
    catalog = catalogs.current()
    moves = catalog.derived.memos("moves", MOVES_KEPT, MOVES_BYTES)
    kept = catalogs._snapshots
    before = kept.bytes
    result = build_quote(catalogs, QuoteParams(gpu_hours=400))
    quoted = kept.bytes
    assert quoted - before == moves._bytes[move_key(result.params)] > 0
    paths = [series.path for chart in options_drawn(result.memo, result) for series in chart.series]
    assert kept.bytes - quoted >= sum(len(path) for path in paths) > 0, "the charts put in the entry after it was made"
    assert kept.bytes - before == moves._bytes[move_key(result.params)]
    for n in range(MOVES_KEPT):
        build_quote(catalogs, QuoteParams(gpu_hours=400, egress_gb=n + 1))
    assert move_key(result.params) not in moves._bytes
    assert kept.bytes == before + sum(moves._bytes.values())
