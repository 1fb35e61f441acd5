"""A refresh run from the command line: one source or every source, each fetched, planned and
applied as its own catalog version, a source that fails changing nothing and the others going on.
What each said is returned for the caller to print, and an applying run records each source's
success or failure for the admin's refresh page."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from app.catalog.changes import Change, StaleRecord
from app.catalog.imports import apply_import
from app.catalog.rate_changes import change_rate
from app.catalog.tables import CatalogVersion, Provenance
from app.platform.db import session_factory
from app.platform.settings import settings
from app.refresh.ecb import read_ecb
from app.refresh.fetch import Fetcher, RefreshFailed
from app.refresh.sources import SOURCES, plan_refresh
from app.refresh.status import record

ECB = "ecb"
EVERY_SOURCE = [*SOURCES, ECB]
"""What `refresh --all` runs, in this order: the prices, then the euro's rate."""


@dataclass
class Outcome:
    """What one source's refresh said (`said` on standard output, `refused` on standard error) and
    whether it succeeded: read whole, and applied or nothing to apply."""

    source: str
    ok: bool = True
    said: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    def failed(self, why: str) -> Outcome:
        self.ok = False
        self.refused.append(f"Nothing was changed: {why}.")
        return self

    @property
    def note(self) -> str:
        """One line for the refresh page: the last thing it said, or why it failed."""
        return (self.refused or self.said or [""])[-1]


def run_source(engine: Engine, client: httpx.Client, source: str, apply: bool) -> Outcome:
    """Refresh `source` now; with `apply`, apply it and record its success or failure. Any failure
    of one source, whatever it is, becomes its outcome, so that a run of every source goes on."""
    try:
        outcome = _rate(engine, client, apply) if source == ECB else _prices(engine, client, source, apply)
    except Exception as e:  # one source's fault, whatever it is, must not stop the run of every other
        outcome = Outcome(source).failed(f"{type(e).__name__}: {e}")
    if apply:
        with Session(engine) as session:
            record(session, source, outcome.ok, outcome.note)
    return outcome


def run_every_source(engine: Engine, client: httpx.Client, apply: bool) -> list[Outcome]:
    return [run_source(engine, client, source, apply) for source in EVERY_SOURCE]


def _prices(engine: Engine, client: httpx.Client, source: str, apply: bool) -> Outcome:
    outcome, title = Outcome(source), SOURCES[source].title
    try:
        plan = plan_refresh(session_factory(engine), _newest_version(engine), source, client)
    except RefreshFailed as e:
        return outcome.failed(str(e))
    outcome.said.append(
        f"{title}: {plan.rows} prices read, {len(plan.add)} new, {len(plan.change)} changed, "
        f"{plan.unchanged} unchanged, {len(plan.problems)} with a problem."
    )
    outcome.said += [f"  {line}" for line in plan.left_out]
    outcome.refused += [f"  {where}: {reason}" for where, reason in plan.problems]
    if plan.problems:
        return outcome.failed("the source has rows with a problem")
    if not apply or not (plan.add or plan.change):
        outcome.said.append("Nothing applied." if apply else "Preview only: add --apply to apply it.")
        return outcome
    try:
        with Session(engine) as session:
            applied = apply_import(session, plan, f"refresh from {title}", "command line")
    except (ValueError, StaleRecord) as e:
        return outcome.failed(str(e))
    outcome.said.append(f"Applied as catalog version {applied}.")
    return outcome


def _newest_version(engine: Engine) -> int:
    """Read afresh, never from the cache of versions: the source before may have just added one."""
    with Session(engine) as session:
        newest = session.exec(select(func.max(CatalogVersion.id))).one()
    if newest is None:
        raise RefreshFailed("the database has no catalog yet")
    return newest


def _rate(engine: Engine, client: httpx.Client, apply: bool) -> Outcome:
    outcome = Outcome(ECB)
    try:
        found = read_ecb(Fetcher(client), settings.ecb_rates_url)
    except RefreshFailed as e:
        return outcome.failed(str(e))
    outcome.said.append(f"ECB reference rate of {found.as_of}: 1 EUR = {found.usd_per_eur} USD.")
    if not apply:
        outcome.said.append("Preview only: add --apply to apply it.")
        return outcome
    provenance = Provenance(source=found.url, as_of=found.as_of, source_kind="official", quote=found.quote)
    change = Change(f"ECB euro reference rate of {found.as_of}", "command line")
    with Session(engine) as session:
        version = change_rate(session, "EUR", found.usd_per_eur, provenance, change)
    outcome.said.append(f"Applied as catalog version {version}.")
    return outcome
