"""A quote for a scenario at a catalog version: the offers that pass its filters, priced and ranked."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from app.catalog.rates import RateRecord
from app.catalog.snapshot import Catalogs, CatalogSnapshot, OfferRecord, select_offers
from app.costing.breakeven import hours_searched
from app.costing.contenders import contenders
from app.costing.money import SYMBOLS, USD, Currency
from app.costing.quote import OfferCost, PricedOffer, Quote, price_offers, quote_priced
from app.lru import Lru
from app.quoting.params import FieldErrors, QuoteParams
from app.quoting.sizing import Sizing, size

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

    @cached_property
    def ranked(self) -> list[tuple[GpuChoice, OfferCost]]:
        """Every GPU model's options side by side, cheapest total first (fully priced first)."""
        rows = [(choice, option) for choice in self.choices for option in choice.quote.options]
        return sorted(rows, key=lambda row: (not row[1].complete, row[1].total))

    @cached_property
    def options(self) -> list[tuple[OfferCost, OfferRecord]]:
        """Each option's cost, cheapest first, beside the catalog's record of its offer."""
        return [(o, self.catalog.offers_by_id[o.offer.offer_id]) for o in self.quote.options]


PRICED_KEPT = 64
"""Inputs-but-GPU-hours whose priced offers each catalog version keeps, the most recently used."""


def _priced_offers(catalog: CatalogSnapshot, params: QuoteParams) -> list[PricedOffer]:
    """The slider's shortcut: offers priced for everything but GPU-hours, by inputs, kept with the
    catalog version they were priced at (and given up with it).

    Moving the GPU-hours slider changes only H, so the curves are remembered, less the offers that
    cannot be cheapest of their option at any H, and each move reads those left at the new H.
    """
    kept: Lru[str, list[PricedOffer]] = catalog.derived.lru("priced", PRICED_KEPT)
    key = params.model_dump_json(exclude={"gpu_hours", "catalog_version", "currency"})
    hit = kept.get(key)
    if hit is not None:
        return hit
    offers = select_offers(
        catalog,
        params.gpu,
        tenancies=frozenset(params.tenancy),
        region=params.region or None,
        eu_only=params.eu_only,
        exclude_us_hq=params.exclude_us_hq,
        hide_spot=params.hide_spot,
        min_gpus_per_unit=params.peak_gpus if params.sized else 1,
        key=params.offer,
    )
    priced = price_offers([o.priced for o in offers], params.workload(), params.assumptions())
    return kept.put(key, contenders(priced))


def build_quote(catalogs: Catalogs, params: QuoteParams) -> QuoteResult | FieldErrors:
    catalog = catalogs.at(params.catalog_version)
    if catalog is None:
        return {"catalog_version": f"there is no catalog version {params.catalog_version}"}
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
        quote = quote_priced(_priced_offers(catalog, params), params.workload(), hours_searched(params.gpu_hours))
        return QuoteResult(params, catalog, quote, currency, rate)
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
    choices = []
    for f in wanted:
        at_fit = params.model_copy(update={"gpu": f.gpu, "peak_gpus": f.quoted, "checkpoint_gb": checkpoint_gb})
        quote = quote_priced(_priced_offers(catalog, at_fit), at_fit.workload(), hours_searched(at_fit.gpu_hours))
        choices.append((at_fit, GpuChoice(f.gpu, f.quoted, quote)))
    best_params, best = min(choices, key=lambda choice: _rank(choice[1]))
    listed = tuple(sorted((choice for _, choice in choices), key=_rank)) if params.gpu == ANY_GPU else ()
    return QuoteResult(best_params, catalog, best.quote, currency, rate, sizing, listed)


def _rank(choice: GpuChoice) -> tuple[bool, bool, float]:
    """Cheapest first; a GPU with no offer passing the filters, or none fully priced, after."""
    cheapest = choice.cheapest
    if cheapest is None:
        return True, True, math.inf
    return False, not cheapest.complete, cheapest.total
