"""A quote for a scenario at a catalog version: the offers that pass its filters, priced and ranked."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from app.catalog.rates import RateRecord
from app.catalog.snapshot import Catalogs, CatalogSnapshot, OfferRecord, select_offers
from app.costing.breakeven import hours_searched
from app.costing.money import SYMBOLS, USD, Currency
from app.costing.quote import OfferCost, PricedOffer, Quote, price_offers, quote_priced
from app.lru import Lru
from app.quoting.params import FieldErrors, QuoteParams
from app.quoting.sizing import Sizing, size


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

    @cached_property
    def options(self) -> list[tuple[OfferCost, OfferRecord]]:
        """Each option's cost, cheapest first, beside the catalog's record of its offer."""
        return [(o, self.catalog.offers_by_id[o.offer.offer_id]) for o in self.quote.options]


_priced: Lru[tuple[int, str], tuple[CatalogSnapshot, list[PricedOffer]]] = Lru()
"""Offers priced by catalog version and every input but GPU-hours, the last 256: a version never
changes, so no entry goes stale; the oldest are dropped."""


def _priced_offers(catalog: CatalogSnapshot, params: QuoteParams) -> list[PricedOffer]:
    """The slider's shortcut: offers priced for everything but GPU-hours, by catalog and inputs.

    Moving the GPU-hours slider changes only H, so the curves are remembered and each move only
    reads them at the new H. The snapshot itself must match: another database may have a version
    of the same number.
    """
    key = catalog.version, params.model_dump_json(exclude={"gpu_hours", "catalog_version", "currency"})
    hit = _priced.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1]
    offers = select_offers(
        catalog,
        params.gpu,
        tenancies=frozenset(params.tenancy),
        region=params.region or None,
        eu_only=params.eu_only,
        exclude_us_hq=params.exclude_us_hq,
        hide_spot=params.hide_spot,
    )
    priced = price_offers([o.priced for o in offers], params.workload(), params.assumptions())
    return _priced.put(key, (catalog, priced))[1]


def build_quote(catalogs: Catalogs, params: QuoteParams) -> QuoteResult | FieldErrors:
    catalog = catalogs.at(params.catalog_version)
    if catalog is None:
        return {"catalog_version": f"there is no catalog version {params.catalog_version}"}
    if params.gpu not in catalog.gpus:
        return {"gpu": "is not a GPU model in the catalog"}
    sizing = None
    if params.sized:
        sized = size(catalogs, params)
        if isinstance(sized, dict):
            return sized
        sizing = sized
        (chosen,) = [f for f in sized.fits if f.gpu == params.gpu]
        checkpoint_gb = round(sized.need.checkpoint_bytes / 1e9, 3)
        params = params.model_copy(update={"peak_gpus": chosen.gpus, "checkpoint_gb": checkpoint_gb})
    rate = catalog.rates.get(params.currency)
    if params.currency != USD.code and rate is None:
        return {"currency": f"has no exchange rate in catalog version {catalog.version} yet (an admin adds the ECB's)"}
    result = quote_priced(_priced_offers(catalog, params), params.workload(), hours_searched(params.gpu_hours))
    if rate is None:
        return QuoteResult(params, catalog, result, sizing=sizing)
    currency = Currency(rate.currency, SYMBOLS[rate.currency], float(rate.usd_per_unit))
    return QuoteResult(params, catalog, result, currency, rate, sizing)
