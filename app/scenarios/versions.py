"""A saved scenario at each catalog version since it was saved: the same inputs quoted at each price
list, as the saved page quotes them at today's, so a buyer sees when and by how much its answer moved."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from app.catalog.cache import Memo
from app.catalog.snapshot import Catalogs
from app.costing.money import USD, Currency
from app.costing.quote import OfferCost
from app.platform.settings import settings
from app.quoting.build import build_quote
from app.quoting.params.quote import QuoteParams
from app.quoting.split import Answer
from app.scenarios.tables import Scenario

VERSIONS_MOST = 12
"""Price lists quoted after the saved one, the newest kept: each is a whole quote at a catalog read
whole, so a catalog edited daily would make the page slow; the page says how many it leaves out."""


@dataclass(frozen=True)
class AtVersion:
    """The scenario's answer at one price list: the cheapest option, or for a split the split."""

    version: int
    listed: datetime
    currency: Currency
    best: OfferCost | None = None
    split: Answer | None = None
    problem: str = ""
    """Why this price list cannot quote the inputs (an offer pinned was retired, say)."""

    @property
    def month(self) -> Decimal | None:
        """A month of the answer, to the cent, in the display currency at this version's rate."""
        usd = self.split.split.total if self.split else self.best.total if self.best else None
        return None if usd is None else self.currency.cents(usd)

    @property
    def figure(self) -> tuple[object, ...]:
        """What the row shows: a version giving the same is no change."""
        offers = (self.split.base, self.split.burst) if self.split else (self.best,)
        return self.month, self.problem, tuple(o.offer.offer_id if o else None for o in offers)

    def change(self, saved: AtVersion) -> Decimal | None:
        if self.month is None or saved.month is None or self.currency.code != saved.currency.code:
            return None
        return self.month - saved.month


@dataclass(frozen=True)
class CostByVersion:
    rows: tuple[AtVersion, ...]
    """The saved price list's, then each later one that changed the answer, oldest first."""
    quoted: int
    """Later price lists quoted: the newest, up to VERSIONS_MOST."""
    left_out: int
    """Later price lists older than those, not quoted."""
    newest: AtVersion
    most: int
    """How many later price lists the page quotes at most."""


VERSIONS_KEPT = 64
"""Scenarios whose answers by version the newest version keeps, the most recently asked: each row is a
whole quote, so a page or feed asked again before the next price list is this one..."""
VERSIONS_BYTES = settings.catalog_bytes_kept // 12
"""...in at most a twelfth of the bytes the process keeps of the catalog; given up with the version."""


def _worked_out(catalogs: Catalogs) -> Memo[tuple[str, int, int]]:
    return catalogs.current().derived.memos("cost by version", VERSIONS_KEPT, VERSIONS_BYTES)


def _key(scenario: Scenario) -> tuple[str, int, int]:
    return scenario.params, scenario.catalog_version, VERSIONS_MOST


def cost_by_version(catalogs: Catalogs, scenario: Scenario) -> CostByVersion:
    key = _key(scenario)
    return _worked_out(catalogs).entry(key).part("rows", lambda: _quoted_since(catalogs, *key))


def heavy_by_version(catalogs: Catalogs, scenario: Scenario) -> bool:
    """Whether the answers by version are heavy work, to run in its lane (app/platform/heavy_work.py):
    unless they were worked out since the newest price list, each of up to VERSIONS_MOST + 1 versions is
    a whole quote at a catalog read whole (with 12 later versions of the shipped catalog, 1.4 s for an
    hour quote, 7-15 s for a year's split, any GPU or a stated job)."""
    return not _worked_out(catalogs).holds(_key(scenario), "rows")


def _quoted_since(catalogs: Catalogs, params: str, saved: int, most: int) -> CostByVersion:
    inputs = QuoteParams.model_validate(json.loads(params))
    since = range(saved + 1, catalogs.current().version + 1)
    quoted = since[-most:]
    rows = [_at(catalogs, inputs, saved)]
    newest_row = rows[0]
    for version in quoted:
        newest_row = _at(catalogs, inputs, version)
        if newest_row.figure != rows[-1].figure:
            rows.append(newest_row)
    return CostByVersion(tuple(rows), len(quoted), len(since) - len(quoted), newest_row, most)


def _at(catalogs: Catalogs, inputs: QuoteParams, version: int) -> AtVersion:
    result = build_quote(catalogs, inputs.model_copy(update={"catalog_version": version}))
    if isinstance(result, dict):
        catalog = catalogs.at(version)
        assert catalog is not None, "a version between the saved one and the newest exists"
        problems = "; ".join(f"{field} {message}" for field, message in result.items())
        return AtVersion(version, catalog.created_at, USD, problem=problems)
    options = result.quote.options
    return AtVersion(
        version, result.catalog.created_at, result.currency, options[0] if options else None,
        result.split.answer if result.split else None,
    )  # fmt: skip
