"""A quote for a scenario at a catalog version: the offers that pass its filters, priced and ranked."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from app.catalog.cache import MemoEntry
from app.catalog.rates import RateRecord
from app.catalog.snapshot import Catalogs, CatalogSnapshot, OfferRecord, select_offers
from app.costing.breakeven import hours_searched
from app.costing.contenders import contenders
from app.costing.money import SYMBOLS, USD, Currency
from app.costing.quote import OfferCost, PricedOffer, Quote, break_evens, cheapest_at, price_offers
from app.costing.terms import Workload
from app.quoting.params import FieldErrors, QuoteParams
from app.quoting.sizing import Sizing, size
from app.settings import settings

CHECKPOINT_GB_MAX = 1_000_000
"""The most a checkpoint may weigh, as typed or as sized: the checkpoint field's own limit."""
ANY_GPU = "any"
"""The GPU model a sized workload may ask for instead of one: every GPU model that fits is quoted."""


@dataclass(frozen=True)
class GpuChoice:
    """One GPU model that holds a sized workload, quoted at its fit."""

    gpu: str
    gpus: int
    quote: Quote

    @property
    def cheapest(self) -> OfferCost | None:
        return self.quote.options[0] if self.quote.options else None


@dataclass(frozen=True)
class QuoteResult:
    params: QuoteParams
    catalog: CatalogSnapshot
    quote: Quote
    currency: Currency = USD
    rate: RateRecord | None = None
    """Where the display currency's rate came from; None for USD, the currency prices are in."""
    sizing: Sizing | None = None
    """The model's memory and fit, where one is given: it set the GPUs used at once and the checkpoint."""
    choices: tuple[GpuChoice, ...] = ()
    """Asked for any GPU that fits: each GPU model that does, its cheapest first; `params` and
    `quote` are the cheapest one's."""
    memo: MemoEntry | None = field(default=None, compare=False, repr=False)
    """What a move of the slider reuses for these inputs (`move_memo`): the page keeps its parts there."""

    @cached_property
    def ranked(self) -> list[tuple[GpuChoice, OfferCost]]:
        """Every GPU model's options side by side, cheapest total first (fully priced first)."""
        rows = [(choice, option) for choice in self.choices for option in choice.quote.options]
        return sorted(rows, key=lambda row: (not row[1].complete, row[1].total))

    @cached_property
    def options(self) -> list[tuple[OfferCost, OfferRecord]]:
        """Each option's cost, cheapest first, beside the catalog's record of its offer."""
        return [(o, self.catalog.offers_by_id[o.offer.offer_id]) for o in self.quote.options]


MOVES_KEPT = 64
"""Inputs-but-GPU-hours whose memo each catalog version keeps, the most recently used..."""
MOVES_BYTES = settings.catalog_bytes_kept // 3
"""...in at most a third of the bytes the process keeps of the catalog (the newest version is kept
whatever its size, so its memo must be bounded on its own)."""
MOVED = {"gpu_hours"}
"""What a move of the slider changes: the one input left out of the memo's key."""


def move_key(params: QuoteParams) -> str:
    """Every input but GPU-hours, as the memo of a slider move is keyed: derived from the parsed
    inputs, so that an input added to QuoteParams is in the key without another edit."""
    return params.model_dump_json(exclude=MOVED)


def move_memo(catalog: CatalogSnapshot, params: QuoteParams) -> MemoEntry:
    """What a move of the GPU-hours slider reuses for these inputs at this version: the contenders,
    the break-evens and, filled in by the page, the chart frames and the HTML that GPU-hours leave
    alone. Kept with the version, counted in its bytes as it fills, given up with it."""
    return catalog.derived.memos("moves", MOVES_KEPT, MOVES_BYTES).entry(move_key(params))


@dataclass(frozen=True)
class Fitted:
    """One GPU model's offers priced for the inputs, all but GPU-hours: what each move reads."""

    gpu: str
    gpus: int
    fit: dict[str, Any]
    """What the model's fit sets in the inputs (the GPU, the GPUs at once, the checkpoint); {} unsized."""
    workload: Workload
    contenders: list[PricedOffer]
    """Less the offers that cannot be cheapest of their option at any H (app/costing/contenders.py)."""


@dataclass(frozen=True)
class Contenders:
    """What quoting these inputs reads at any GPU-hours: the display currency, the sizing and each
    GPU model's contenders (one unsized; with "any GPU", every model that fits)."""

    currency: Currency
    rate: RateRecord | None
    sizing: Sizing | None
    fitted: tuple[Fitted, ...]


def _fitted(catalog: CatalogSnapshot, params: QuoteParams, gpus: int, fit: dict[str, Any]) -> Fitted:
    at_fit = params.model_copy(update=fit)
    offers = select_offers(
        catalog,
        at_fit.gpu,
        tenancies=frozenset(at_fit.tenancy),
        region=at_fit.region or None,
        eu_only=at_fit.eu_only,
        exclude_us_hq=at_fit.exclude_us_hq,
        hide_spot=at_fit.hide_spot,
        min_gpus_per_unit=at_fit.peak_gpus if at_fit.sized else 1,
        key=at_fit.offer,
    )
    workload = at_fit.workload()
    priced = price_offers([o.priced for o in offers], workload, at_fit.assumptions())
    return Fitted(at_fit.gpu, gpus, fit, workload, contenders(priced))


def _contenders(catalogs: Catalogs, catalog: CatalogSnapshot, params: QuoteParams) -> Contenders | FieldErrors:
    """The inputs checked against the catalog, and each GPU model's offers priced for them."""
    if params.gpu == ANY_GPU and not params.sized:
        return {"gpu": "any GPU that fits needs a model: choose a preset or give a parameter count"}
    if params.gpu != ANY_GPU and params.gpu not in catalog.gpus:
        return {"gpu": "is not a GPU model in the catalog"}
    pinned = catalog.offers_by_key.get(params.offer) if params.offer else None
    if params.offer and pinned is None:
        return {"offer": f"is not an offer of catalog version {catalog.version}: it may have been retired"}
    if pinned and params.gpu not in (pinned.row.gpu, ANY_GPU):
        return {"gpu": f"the offer you are pricing is of {pinned.row.gpu}: choose it, or price every offer"}
    rate = catalog.rates.get(params.currency)
    if params.currency != USD.code and rate is None:
        return {"currency": f"has no exchange rate in catalog version {catalog.version} yet (an admin adds the ECB's)"}
    currency = USD if rate is None else Currency(rate.currency, SYMBOLS[rate.currency], float(rate.usd_per_unit))
    if not params.sized:
        return Contenders(currency, rate, None, (_fitted(catalog, params, params.peak_gpus, {}),))
    sizing = size(catalogs, params)
    if isinstance(sizing, dict):
        return sizing
    checkpoint_gb = round(sizing.need.checkpoint_bytes / 1e9, 3)
    if checkpoint_gb > CHECKPOINT_GB_MAX:
        return {"parameters_b": f"makes a checkpoint of {checkpoint_gb:,.0f} GB, more than {CHECKPOINT_GB_MAX:,} GB"}
    wanted = [f for f in sizing.fits if f.fits_a_unit and params.gpu in (f.gpu, ANY_GPU)]
    if not wanted:
        where = "any GPU model in the catalog" if params.gpu == ANY_GPU else f"the catalog's {params.gpu}"
        return {"gpu": f"no offered instance or node of {where} holds this model: choose another GPU or model"}
    fits = [(f.quoted, {"gpu": f.gpu, "peak_gpus": f.quoted, "checkpoint_gb": checkpoint_gb}) for f in wanted]
    return Contenders(currency, rate, sizing, tuple(_fitted(catalog, params, gpus, fit) for gpus, fit in fits))


def _quote_at(memo: MemoEntry, fitted: Fitted, gpu_hours: float) -> Quote:
    """The quote at this move's GPU-hours; the break-evens, which depend on the offers chosen and the
    band searched alone, are worked out once per memo for each."""
    options, cheaper_looking = cheapest_at(fitted.contenders, replace(fitted.workload, gpu_hours=gpu_hours))
    band = hours_searched(gpu_hours)
    chosen = tuple(o.offer.offer_id for o in options)
    pairs = memo.part(("break-evens", band, chosen), lambda: break_evens(options, band))
    return Quote(options, list(pairs), band, cheaper_looking)


def build_quote(catalogs: Catalogs, params: QuoteParams) -> QuoteResult | FieldErrors:
    catalog = catalogs.at(params.catalog_version)
    if catalog is None:
        return {"catalog_version": f"there is no catalog version {params.catalog_version}"}
    memo = move_memo(catalog, params)
    found = memo.part("contenders", lambda: _contenders(catalogs, catalog, params))
    if isinstance(found, dict):
        return found
    currency, rate, sizing = found.currency, found.rate, found.sizing
    if sizing is None:
        quote = _quote_at(memo, found.fitted[0], params.gpu_hours)
        return QuoteResult(params, catalog, quote, currency, rate, memo=memo)
    choices = [(f, GpuChoice(f.gpu, f.gpus, _quote_at(memo, f, params.gpu_hours))) for f in found.fitted]
    best_fit, best = min(choices, key=lambda choice: _rank(choice[1]))
    listed = tuple(sorted((choice for _, choice in choices), key=_rank)) if params.gpu == ANY_GPU else ()
    best_params = params.model_copy(update=best_fit.fit)
    return QuoteResult(best_params, catalog, best.quote, currency, rate, sizing, listed, memo=memo)


def _rank(choice: GpuChoice) -> tuple[bool, bool, float]:
    """Cheapest first; a GPU with no offer passing the filters, or none fully priced, after."""
    cheapest = choice.cheapest
    if cheapest is None:
        return True, True, math.inf
    return False, not cheapest.complete, cheapest.total
