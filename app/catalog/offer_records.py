"""An offer of a catalog version as the cost model reads it: its price in USD at the version's rate,
beside the offer as the catalog states it, in the currency it was published in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.catalog.provider_facts import ProviderRecord
from app.catalog.rates import RateRecord, usd_per_unit
from app.catalog.rows import OfferRow
from app.catalog.tables import OfferVersion
from app.costing import terms


@dataclass(frozen=True)
class OfferRecord:
    """A priced offer for the cost model, with its provider and the offer as the catalog states it."""

    priced: terms.Offer
    provider: ProviderRecord
    row: OfferRow

    @property
    def offer_id(self) -> int:
        return self.priced.offer_id


@dataclass(frozen=True)
class UnpricedRecord:
    """An offer the explorer lists as published but no quote can use: its source states no currency,
    or the version holds no rate for the one it states."""

    offer_id: int
    provider: ProviderRecord
    row: OfferRow
    priced: None = None

    @property
    def why(self) -> str:
        """Why no quote uses it, in the page's words."""
        currency = self.row.currency
        return f"this catalog version holds no {currency} rate" if currency else "its source states no currency"


def offer_record(
    o: OfferVersion, provider: ProviderRecord, gpu: str, rates: Mapping[str, RateRecord]
) -> OfferRecord | UnpricedRecord:
    """Offers of one provider share its tier table; price and setup fee are converted to USD at the
    version's rate, once, so that every offer is ranked against the others at that one rate."""
    assert o.id is not None
    row = o.as_row(provider.slug, gpu)
    usd = usd_per_unit(o.currency, rates)
    if usd is None:
        return UnpricedRecord(o.id, provider, row)
    priced = terms.Offer(
        offer_id=o.id, provider=provider.name, tenancy=terms.Tenancy(o.tenancy), billing=terms.Billing(o.billing),
        gpus_per_unit=o.gpus_per_unit, price_usd=float(o.price) * usd, period=terms.PricePeriod(o.price_period),
        min_commitment_months=o.min_commitment_months, setup_fee_usd=float(o.setup_fee or 0) * usd,
        egress_tiers=provider.egress_table, storage_tiers=provider.storage_table,
    )  # fmt: skip
    return OfferRecord(priced, provider, row)
