"""Which offers of a catalog version a quote or a list takes: by GPU model and the buyer's filters."""

from __future__ import annotations

from app.catalog.offer_records import OfferRecord
from app.catalog.snapshot import CatalogSnapshot
from app.costing import terms

EU_COUNTRIES = frozenset("AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE".split())
"""The 27 member states of the European Union (ISO 3166 codes)."""


def select_offers(
    catalog: CatalogSnapshot,
    gpu: str,
    tenancies: frozenset[terms.Tenancy] | None = None,
    region: str | None = None,
    eu_only: bool = False,
    exclude_us_hq: bool = False,
    hide_spot: bool = False,
    min_gpus_per_unit: int = 1,
    key: str = "",
) -> list[OfferRecord]:
    """Offers of one GPU model that meet the filters. Unknown facts never pass a filter that needs them.
    `min_gpus_per_unit`: a model sized to n GPUs needs them in one instance or node. `key`: only that offer."""
    return [
        o
        for o in catalog.offers_by_gpu.get(gpu, [])
        if (not key or o.row.key == key)
        and (not tenancies or o.priced.tenancy in tenancies)
        and (not hide_spot or o.priced.billing is not terms.Billing.SPOT)
        and o.priced.gpus_per_unit >= min_gpus_per_unit
        and _located(o, region, eu_only, exclude_us_hq)
    ]


def _located(o: OfferRecord, region: str | None, eu_only: bool, exclude_us_hq: bool) -> bool:
    """Whether the offer passes the filters of where it runs and whose it is: a country or headquarters
    not known passes none of those that ask for one."""
    return (
        (not region or o.row.region == region)
        and (not eu_only or o.row.region_country in EU_COUNTRIES)
        and (not exclude_us_hq or (o.provider.hq_country is not None and o.provider.hq_country != "US"))
    )
