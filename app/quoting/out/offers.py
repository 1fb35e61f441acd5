"""The catalog's offers as JSON and CSV: each as the catalog states it, with what the API adds."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, Field
from sqlmodel.main import SQLModelConfig

from app.catalog.ages import age_days, dated_since
from app.catalog.fabric import FabricRecord
from app.catalog.rows import OFFER_COLUMNS, OfferRow
from app.catalog.selection import select_offers
from app.catalog.snapshot import CatalogSnapshot, OfferRecord
from app.catalog.wording import plain_words
from app.costing.money import rate
from app.costing.quote import OptionKey
from app.costing.terms import Billing, Tenancy
from app.quoting.params.quote import VERSION_MAX


class FabricOut(BaseModel):
    """A product's network inside and between nodes, as a source states it."""

    intra_node: str = Field(description="inside a node, in plain words; empty where not stated")
    inter_node: str = Field(description="between nodes, in plain words; empty where no source states one")
    inter_node_kind: str = Field(description="infiniband, roce, efa or tcpx; empty where none is stated")
    rdma: bool = Field(description="the fabric between nodes carries remote direct memory access")
    inter_node_gbps: float | None = Field(description="Gb/s a node between nodes, where a source states it")
    min_cluster_gpus: int | None = Field(
        description="the fewest GPUs a cluster is rented with, where a source states it (a cluster product)"
    )
    max_cluster_gpus: int | None = Field(description="the most GPUs one cluster holds, where a source states it")
    source: str
    as_of: date | None
    source_kind: str
    quote: str
    notes: str

    @classmethod
    def of(cls, f: FabricRecord) -> FabricOut:
        return cls(
            intra_node=f.intra_node, inter_node=f.inter_node, inter_node_kind=f.inter_node_kind, rdma=f.rdma,
            inter_node_gbps=f.inter_node_gbps, min_cluster_gpus=f.min_cluster_gpus, max_cluster_gpus=f.max_cluster_gpus,
            source=f.source, as_of=f.as_of, source_kind=f.source_kind, quote=f.quote, notes=plain_words(f.notes),
        )  # fmt: skip


class OfferOut(OfferRow):
    """An offer as the catalog states it, its notes in plain words, with its id at this version and its
    price per GPU-hour."""

    model_config = SQLModelConfig(json_schema_serialization_defaults_required=True)  # every field is always sent

    offer_id: int
    provider_name: str
    tenancy: Tenancy
    billing: Billing
    price: float = Field(description="per unit and price_period, in `currency`, as published")  # type: ignore[assignment]
    ram_gib: float | None  # type: ignore[assignment]
    setup_fee: float | None = Field(description="charged once, in `currency`; null: none stated")  # type: ignore[assignment]
    usd_per_gpu_hour: float = Field(description="in USD at this catalog version's rate, whatever `currency` is")
    age_days: int | None = Field(description="days from `as_of` to today; null where the source states no date")
    fabric: FabricOut | None = Field(
        description="the product's network inside and between nodes, where a source states it; a run across "
        "nodes is quoted only where it states RDMA between them (or any fabric, for bare metal)"
    )

    @classmethod
    def of(cls, r: OfferRecord, catalog: CatalogSnapshot) -> OfferOut:
        fabric = catalog.fabric_of(r)
        return cls.model_validate(
            r.row.model_dump()
            | {
                "offer_id": r.priced.offer_id,
                "provider_name": r.provider.name,
                "usd_per_gpu_hour": float(rate(r.priced.usd_per_gpu_hour)),
                "age_days": age_days(r.row.as_of),
                "fabric": None if fabric is None else FabricOut.of(fabric),
                "notes": plain_words(r.row.notes),
            }
        )

    @classmethod
    def at(cls, catalog: CatalogSnapshot, offer_id: int) -> OfferOut:
        """An offer of a catalog version as the API states it, worked out once per version (each quote
        names a few offers, and a version's offers never change), its age counted again each time."""
        kept = catalog.derived.memo(("offer out", offer_id), lambda: cls.of(catalog.offers_by_id[offer_id], catalog))
        return kept.model_copy(update={"age_days": age_days(kept.as_of)})


def option_name(option: OptionKey) -> str:
    """An option as the API names it: `tenancy/billing`."""
    return f"{option[0]}/{option[1]}"


_BESIDE = {
    "key": ("offer_id", "key"),
    "provider": ("provider", "provider_name"),
    "price_period": ("price_period", "usd_per_gpu_hour"),
}
OFFER_OUT_COLUMNS = tuple(name for column in OFFER_COLUMNS for name in _BESIDE.get(column, (column,)))
"""The offers CSV's columns: an offer's own, in file order, with what the API adds beside each."""


class OfferFilters(BaseModel):
    gpu: str | None = None
    tenancy: list[Tenancy] = []
    billing: list[Billing] = []
    provider: str | None = None
    region: str | None = None
    eu_only: bool = False
    exclude_us_hq: bool = False
    dated_within: int | None = Field(
        None, ge=0, le=36_500, description="only prices dated this many days before today or since (never undated)"
    )
    catalog_version: int | None = Field(None, ge=1, le=VERSION_MAX)


def offers_matching(catalog: CatalogSnapshot, f: OfferFilters) -> list[OfferOut]:
    gpus = [f.gpu] if f.gpu else list(catalog.gpus)
    since = dated_since(f.dated_within)
    records = [
        r
        for gpu in gpus
        for r in select_offers(
            catalog, gpu, frozenset(f.tenancy), f.region, f.eu_only, f.exclude_us_hq, dated_since=since
        )
        if (not f.billing or r.priced.billing in f.billing) and (not f.provider or r.provider.slug == f.provider)
    ]
    return [OfferOut.of(r, catalog) for r in sorted(records, key=lambda r: r.priced.offer_id)]
