"""Saving a scenario after quoting it, reading one back at its own prices, and sharing it."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlmodel import Session

from app.catalog.snapshot import Catalogs
from app.catalog.text_rules import CONTROL_CHARACTERS, plain_text
from app.costing.money import cents
from app.platform.settings import settings
from app.quoting.build import QuoteResult, build_quote
from app.quoting.moves import heavy
from app.quoting.out.offers import option_name
from app.quoting.out.quote import QuoteOut, quote_out
from app.quoting.params.demand import read_hourly
from app.quoting.params.inputs import MaybeWhole
from app.quoting.params.quote import VERSION_MAX, QuoteParams
from app.scenarios.profiles import add_profile, profile_key
from app.scenarios.store import SLUG, refuse_beyond_save_limits, save_scenario, scenario_params
from app.scenarios.tables import NAME_MAX, NOTE_MAX, Scenario
from app.scenarios.today import ThenAndNow, then_and_now


def form_text(value: str, longest: int) -> str:
    """A scenario's name or note as the page's form checks it: what ScenarioIn checks, in the form's words."""
    if len(value) > longest:
        raise ValueError(f"must be at most {longest:,} characters")
    return plain_text(value)


PLAIN_TEXT_SCHEMA = {"pattern": f"^[^{CONTROL_CHARACTERS}]*$"}
PlainText = Annotated[str, AfterValidator(plain_text), Field(json_schema_extra=PLAIN_TEXT_SCHEMA)]
"""Text read back the same from both backends: the schema states the pattern, the check words the refusal."""


class ScenarioIn(BaseModel):
    """A scenario to save; a JSON export of one is accepted as it is (its other fields are ignored)."""

    model_config = ConfigDict(extra="ignore")

    name: PlainText = Field("", max_length=NAME_MAX)
    note: PlainText = Field("", max_length=NOTE_MAX)
    params: QuoteParams
    catalog_version: MaybeWhole = Field(
        None, ge=1, le=VERSION_MAX, description="default: the one in params, else the newest"
    )


class ScenarioOut(BaseModel):
    slug: str
    url: str
    name: str
    note: str
    created_at: datetime
    catalog_version: int
    params: QuoteParams
    quote: QuoteOut


class Unquotable(Exception):
    """The inputs cannot be quoted: the message per field, as the calculator would show them."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors


def _pinned(scenario: ScenarioIn) -> tuple[QuoteParams, tuple[int, ...] | str | None]:
    """The inputs as saved: at the version asked for (none: the newest), "dated within N days" counted
    back from today, uploaded hours named by their key; and those hours as read."""
    version = scenario.catalog_version or scenario.params.catalog_version
    hours = read_hourly(scenario.params.hourly) if scenario.params.hourly.strip() else None
    profile = {"hourly_key": profile_key(hours)} if isinstance(hours, tuple) else {}
    return scenario.params.model_copy(update={"catalog_version": version} | scenario.params.dated_kept | profile), hours


def heavy_to_save(db: Callable[[], Session], catalogs: Catalogs, scenario: ScenarioIn, client_key: str) -> bool:
    """Whether quoting `scenario` to save it is heavy work, to run in its lane (app/quoting/moves.py
    decides); but first TooManySaves where the client, or everyone, has saved up to a limit, so that a
    save refused costs no quote and no turn in the lane. Only a first count: saves sent at once all pass
    it together, and `save_scenario` counts again as it inserts, which keeps the limits exact."""
    with db() as session:
        refuse_beyond_save_limits(session, client_key)
    return heavy(catalogs, _pinned(scenario)[0])


def quote_and_save(db: Callable[[], Session], catalogs: Catalogs, scenario: ScenarioIn, client_key: str) -> Scenario:
    """Quote first (the same checks as the page), then save pinned to the version quoted at, in a
    session of its own. Uploaded hours are kept as a profile too, in the same transaction, under the
    key the saved inputs name, so that the page opened from the scenario, which carries the key
    alone, finds them; a save answered as failed has stored nothing."""
    pinned, hours = _pinned(scenario)
    result = build_quote(catalogs, pinned)
    if isinstance(result, dict):
        raise Unquotable(result)
    totals = json.dumps(totals_of(result))
    name, note = scenario.name.strip(), scenario.note.strip()
    kept = hours if isinstance(hours, tuple) else None
    with db() as session:
        return save_scenario(
            session, pinned, result.catalog.version, name, note, client_key, totals,
            with_it=None if kept is None else lambda session: add_profile(session, kept, client_key),
        )  # fmt: skip


def totals_of(result: QuoteResult) -> list[dict[str, Any]]:
    """What the link promises: each option's offer and total in USD (whatever the display currency),
    to the cent."""
    return [
        {"option": option_name(o.option), "offer_id": o.offer.offer_id, "total": f"{cents(o.total):.2f}"}
        for o in result.quote.options
    ]


def saved_quote(catalogs: Catalogs, scenario: Scenario) -> QuoteResult:
    result = build_quote(catalogs, scenario_params(scenario))
    assert not isinstance(result, dict), "a saved scenario was quotable at its own version"
    return result


def heavy_to_quote(catalogs: Catalogs, scenario: Scenario, and_today: bool = False) -> bool:
    """Whether quoting the saved inputs at their version (and, for the saved page, at today's prices
    too) is heavy work, to run in its lane: app/quoting/moves.py decides for each quote."""
    if heavy(catalogs, scenario_params(scenario)):
        return True
    return and_today and catalogs.newest() != scenario.catalog_version and heavy(catalogs, _today(scenario))


def _today(scenario: Scenario) -> QuoteParams:
    """The saved inputs at the newest version, their price ages counted back from today."""
    return scenario_params(scenario).model_copy(update={"catalog_version": None, "dated_on": None})


def share_link(base_url: str, slug: str) -> str:
    """The link to a scenario, on PUBLIC_URL where it is set, else on the address it was asked at."""
    return f"{(settings.public_url or base_url).rstrip('/')}/s/{slug}"


def slug_in(link: str) -> str | None:
    """The slug a scenario's link names, as pasted: `https://host/s/SLUG`, without its address, or
    the slug alone; None for text that is no such link."""
    *before, last = urlsplit(link.strip()).path.rstrip("/").split("/")
    return last if (not before or before[-1] == "s") and SLUG.match(last) else None


def scenario_out(catalogs: Catalogs, scenario: Scenario, base_url: str) -> ScenarioOut:
    result = saved_quote(catalogs, scenario)
    return ScenarioOut(
        slug=scenario.slug,
        url=share_link(base_url, scenario.slug),
        name=scenario.name,
        note=scenario.note,
        created_at=scenario.created_at,
        catalog_version=scenario.catalog_version,
        params=scenario_params(scenario).model_copy(update={"catalog_version": None}),
        quote=quote_out(result),
    )


def as_saved_and_today(catalogs: Catalogs, scenario: Scenario, result: QuoteResult) -> dict[str, Any]:
    """What the saved page says beside its numbers: if recomputing them gave others (the arithmetic
    changed), and what the same inputs cost at today's prices when those differ."""
    found: dict[str, Any] = {}
    as_saved = json.loads(scenario.totals)
    if as_saved and as_saved != totals_of(result):  # [] for saves before totals were kept
        found["arithmetic_changed"] = as_saved
    if catalogs.newest() == scenario.catalog_version:
        return found
    now = build_quote(catalogs, _today(scenario))
    if isinstance(now, dict):
        problems = "; ".join(f"{field} {message}" for field, message in now.items())
        return found | {"today_problem": f"Today's catalog cannot quote these inputs: {problems}"}
    saved = result.quote
    rows = then_and_now(saved, now.quote)
    if all(_same(row, result, now) for row in rows):
        return found | {"same_today": now.catalog.version}
    both = saved.options and now.quote.options
    return found | {
        "today_rows": rows,
        "cheapest": ThenAndNow(saved.options[0].option, saved.options[0], now.quote.options[0]) if both else None,
        "today_version": now.catalog.version,
        "today_listed": now.catalog.price_list,
        "today_currency": now.currency,
        "today_rate": now.rate,
    }


def _same(row: ThenAndNow, saved: QuoteResult, today: QuoteResult) -> bool:
    """The same offer at the same figure: a new version that changed other records (or only the
    rate of another currency) changes nothing this scenario shows."""
    if row.saved is None or row.today is None or row.saved.offer.offer_id != row.today.offer.offer_id:
        return False
    return row.difference(saved.currency, today.currency) == 0
