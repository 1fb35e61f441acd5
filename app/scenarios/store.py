"""Saving and reading scenarios: unguessable slugs, one atomic insert, growth bounded even under bursts."""

from __future__ import annotations

import json
import math
import re
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from app.platform.db import serialised
from app.platform.settings import settings
from app.quoting.params.quote import QuoteParams
from app.scenarios.tables import Scenario

SLUG_BYTES = 12
"""96 random bits, 16 URL-safe characters: not guessable, not enumerable."""


class TooManySaves(Exception):
    """The client (or everyone together) saved too much in too short a time; `retry_after_s`: until
    the oldest save counted leaves its window, and with it one place is free again."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


Kept = type[Any]
"""A table of what visitors keep, with its `created_at` and `client_key`: scenarios, uploaded profiles."""


def _recent(session: Session, table: Kept, since: datetime, client_key: str | None = None) -> tuple[int, datetime]:
    """How many rows were kept since `since`, and when the oldest of them was."""
    query = select(func.count(), func.min(table.created_at)).select_from(table).where(table.created_at >= since)
    if client_key is not None:
        query = query.where(table.client_key == client_key)
    count, oldest = session.exec(query).one()
    return count, oldest or since


def _free_again_s(oldest: datetime, window: timedelta, now: datetime) -> int:
    """Seconds until a row kept at `oldest` leaves a `window` counted back from then, at least one."""
    oldest = oldest if oldest.tzinfo else oldest.replace(tzinfo=UTC)  # SQLite gives it back naive
    return max(1, math.ceil((oldest + window - now).total_seconds()))


def refuse_beyond_limits(
    session: Session, table: Kept, client_key: str, limits: tuple[int, int], words: tuple[str, str, str]
) -> None:
    """TooManySaves where this client (or everyone together) has kept too many rows of `table` lately:
    `limits` a client's in 10 minutes and everyone's in an hour; `words` what the rows are, what keeping
    them is called, and its -ing ("scenarios", "saved", "Saving")."""
    per_client_per_10_min, per_hour = limits
    what, done, doing = words
    now = datetime.now(UTC)
    ten_minutes, hour = timedelta(minutes=10), timedelta(hours=1)
    count, oldest = _recent(session, table, now - ten_minutes, client_key)
    if count >= per_client_per_10_min:
        raise TooManySaves(
            f"You have {done} many {what} in the last few minutes; try again in ten minutes.",
            _free_again_s(oldest, ten_minutes, now),
        )
    count, oldest = _recent(session, table, now - hour)
    if count >= per_hour:
        raise TooManySaves(
            f"{doing} is paused for a while: too many {what} were {done} in the last hour.",
            _free_again_s(oldest, hour, now),
        )


def refuse_beyond_save_limits(session: Session, client_key: str) -> None:
    """TooManySaves where this client has saved SAVES_PER_CLIENT_PER_10_MIN scenarios in 10 minutes, or
    everyone SAVES_PER_HOUR in an hour."""
    limits = settings.saves_per_client_per_10_min, settings.saves_per_hour
    refuse_beyond_limits(session, Scenario, client_key, limits, ("scenarios", "saved", "Saving"))


def save_scenario(
    session: Session,
    params: QuoteParams,
    catalog_version: int,
    name: str,
    note: str,
    client_key: str,
    totals: str = "[]",
    with_it: Callable[[Session], None] | None = None,
) -> Scenario:
    """Insert one scenario under a fresh slug, within the limits, in one transaction (all of it or
    nothing) with what `with_it` adds (its uploaded hours). The limits are counted and the row inserted
    under one lock, so saves sent at once count each other: per client first, then for all, which keeps
    a client's burst from queueing ahead of everyone else's saves on PostgreSQL (one of its saves waits
    on the common lock at a time)."""
    inputs = params.model_dump_json(exclude={"catalog_version"})
    for _ in range(3):
        scenario = Scenario(
            slug=secrets.token_urlsafe(SLUG_BYTES),
            name=name,
            note=note,
            params=inputs,
            catalog_version=catalog_version,
            client_key=client_key,
            totals=totals,
        )
        try:
            with serialised(session, f"scenario saves by {client_key}", "scenario saves"):
                refuse_beyond_save_limits(session, client_key)
                session.add(scenario)
                if with_it is not None:
                    with_it(session)
                session.flush()
                session.refresh(scenario)  # as stored, and kept loaded: reading it needs no connection after the commit
                session.expunge(scenario)
        except IntegrityError:  # a slug, or hours, kept by another save in the same instant
            continue
        return scenario
    raise RuntimeError("could not find a free slug")


SLUG = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def scenario_at(session: Session, slug: str) -> Scenario | None:
    """The scenario a link names; None for a slug no save could have made."""
    return session.exec(select(Scenario).where(Scenario.slug == slug)).first() if SLUG.match(slug) else None


def scenario_params(scenario: Scenario) -> QuoteParams:
    """The saved inputs, pinned to the saved catalog version."""
    return QuoteParams.model_validate(json.loads(scenario.params) | {"catalog_version": scenario.catalog_version})
