"""Which offers of a catalog version a quote or a list takes: by GPU model and the buyer's filters."""

from __future__ import annotations

from datetime import date

from app.catalog.ages import dated_from
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
    across_nodes: int = 0,
    at_once: int = 0,
    dated_since: date | None = None,
) -> list[OfferRecord]:
    """Offers of one GPU model that meet the filters. Unknown facts never pass a filter that needs them.
    `min_gpus_per_unit`: a model sized to n GPUs needs them in one instance or node. `key`: only that offer.
    `across_nodes`: a run of that many GPUs on whole nodes of one offer that spans nodes. `at_once`: the
    GPUs used at once, fewer or more than a cluster product is rented with leave it out. `dated_since`: only
    prices dated that day or later, never an undated one."""
    return [
        o
        for o in catalog.offers_by_gpu.get(gpu, [])
        if (not key or o.row.key == key)
        and _priced_as(o, tenancies, hide_spot, dated_since)
        and o.priced.gpus_per_unit >= min_gpus_per_unit
        and (not across_nodes or (spans_nodes(catalog, o, across_nodes) and across_nodes % o.priced.gpus_per_unit == 0))
        and _located(o, region, eu_only, exclude_us_hq)
        and (not at_once or _rented_with(catalog, o, at_once))
    ]


def _priced_as(
    o: OfferRecord, tenancies: frozenset[terms.Tenancy] | None, hide_spot: bool, dated_since: date | None
) -> bool:
    """Whether the offer passes the filters of how it is rented and how recent its price is: an undated
    price passes no date filter."""
    return (
        (not tenancies or o.priced.tenancy in tenancies)
        and (not hide_spot or o.priced.billing is not terms.Billing.SPOT)
        and dated_from(o.row.as_of, dated_since)
    )


def _rented_with(catalog: CatalogSnapshot, o: OfferRecord, gpus: int) -> bool:
    """Whether the offer is rented with `gpus` at once: a cluster product only within the GPUs a source
    bounds it to, any other offer with any."""
    fabric = catalog.fabric_of(o)
    if fabric is None:
        return True
    return (fabric.min_cluster_gpus or 1) <= gpus <= (fabric.max_cluster_gpus or gpus)


def spans_nodes(catalog: CatalogSnapshot, o: OfferRecord, gpus: int) -> bool:
    return across_nodes_refused(catalog, o, gpus) is None


NO_FABRIC = "no source states a fabric between its nodes"
NOT_RDMA = "virtualized, and the fabric its source states between nodes is not RDMA"
CLUSTER_SMALLER = "a source bounds its clusters below the GPUs to join"
CLUSTER_LARGER = "a source states its clusters are rented with more GPUs than those to join"


def across_nodes_refused(catalog: CatalogSnapshot, o: OfferRecord, gpus: int) -> str | None:
    """Why the offer's nodes may not run `gpus` together (one of the four reasons above); None where they
    may: a source states a fabric between them (none stated is none assumed), RDMA unless the nodes are
    bare metal, and, where a source bounds its clusters, they hold that many and are rented with no more."""
    fabric = catalog.fabric_of(o)
    if fabric is None or not fabric.inter_node_kind or o.priced.tenancy is terms.Tenancy.SERVERLESS:
        return NO_FABRIC
    if not fabric.rdma and o.priced.tenancy is not terms.Tenancy.BARE_METAL:
        return NOT_RDMA
    if fabric.max_cluster_gpus is not None and fabric.max_cluster_gpus < gpus:
        return CLUSTER_SMALLER
    if fabric.min_cluster_gpus is not None and fabric.min_cluster_gpus > gpus:
        return CLUSTER_LARGER
    return None


def _located(o: OfferRecord, region: str | None, eu_only: bool, exclude_us_hq: bool) -> bool:
    """Whether the offer passes the filters of where it runs and whose it is: a country or headquarters
    not known passes none of those that ask for one."""
    return (
        (not region or o.row.region == region)
        and (not eu_only or o.row.region_country in EU_COUNTRIES)
        and (not exclude_us_hq or (o.provider.hq_country is not None and o.provider.hq_country != "US"))
    )
