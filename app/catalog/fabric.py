"""Each offer's network as a catalog version holds it: the fabric inside a node and between nodes, with
its source. A run across nodes needs a fabric between them that a source states; an offer whose source
states none is never assumed to have one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from sqlalchemy import Column, Numeric
from sqlmodel import Field, Session, select

from app.catalog.records import Sourced
from app.catalog.rows import count, number, one_of, text
from app.catalog.tables import Provenance, Provider, Versioned, valid_at


class Between(StrEnum):
    """How a product's nodes reach each other, as its source names it."""

    INFINIBAND = "infiniband"
    ROCE = "roce"
    """RDMA over converged Ethernet."""
    EFA = "efa"
    """AWS's Elastic Fabric Adapter."""
    TCPX = "tcpx"
    """Google's GPUDirect-TCPX."""


def _gbps(typed: str) -> Decimal | None:
    """Gb/s a node, or None where no source states it."""
    if not typed:
        return None
    try:
        amount = number(typed)
    except InvalidOperation:
        raise ValueError("must be a number of Gb/s, e.g. 3200, or empty if not stated") from None
    if not 0 < amount <= 1_000_000:
        raise ValueError("must be above 0 and at most 1,000,000 Gb/s")
    return amount


FABRIC_CHECKS: dict[str, Callable[[str], object]] = {
    "product": lambda v: text(v, 200),
    "gpus_per_node": lambda v: count(v, 1, 1_000),
    "intra_node": lambda v: text(v, 300, required=False),
    "inter_node": lambda v: text(v, 300, required=False),
    "inter_node_kind": lambda v: one_of(v, Between) if v else "",
    "inter_node_gbps": _gbps,
    "min_cluster_gpus": lambda v: count(v, 1, 10_000_000) if v else None,
    "max_cluster_gpus": lambda v: count(v, 1, 10_000_000) if v else None,
}
"""How each field of a product's fabric, typed as text, is checked."""


def fabric_refused(fabric: Mapping[str, Any]) -> dict[str, str]:
    """The checks of a fabric's fields together, each passed on its own: by field, why not. A fabric between
    nodes is stated with its kind and its source's words, or not at all; its Gb/s only with it."""
    refused = {}
    if fabric["inter_node_kind"] and not fabric["inter_node"]:
        refused["inter_node"] = "describe the fabric between nodes as its source states it, or leave the kind empty"
    if fabric["inter_node"] and not fabric["inter_node_kind"]:
        refused["inter_node_kind"] = "choose the kind of the fabric between nodes described, or leave both empty"
    if fabric["inter_node_gbps"] is not None and not fabric["inter_node_kind"]:
        refused["inter_node_gbps"] = "leave it empty unless a fabric between nodes is stated"
    fewest, most = fabric["min_cluster_gpus"], fabric["max_cluster_gpus"]
    if fewest is not None and most is not None and fewest > most:
        refused["min_cluster_gpus"] = f"must be at most the most GPUs of a cluster, {most:,}"
    return refused


BETWEEN_SAID: dict[str, str] = {
    Between.INFINIBAND: "InfiniBand",
    Between.ROCE: "RoCE",
    Between.EFA: "EFA",
    Between.TCPX: "GPUDirect-TCPX",
}
RDMA = frozenset({Between.INFINIBAND, Between.ROCE, Between.EFA})
"""The fabrics between nodes that carry remote direct memory access; GPUDirect-TCPX goes over TCP."""


# The fabric of one provider's product (an instance type or a node), in one range of catalog versions.
class OfferFabricVersion(Provenance, Versioned, table=True):
    __tablename__ = "offerfabric"

    id: int | None = Field(default=None, primary_key=True)
    provider_id: int = Field(foreign_key="provider.id", index=True)
    product: str = Field(index=True)
    """As the provider's offers name it: every offer of the product, whatever its region or billing."""
    gpus_per_node: int
    intra_node: str = ""
    """Inside a node, in plain words: "NVLink 4 with NVSwitch, 450 GB/s per GPU each way"."""
    inter_node: str = ""
    """Between nodes, in plain words; empty where no source states one."""
    inter_node_kind: str = ""
    """A `Between` value, or empty with `inter_node`."""
    inter_node_gbps: Decimal | None = Field(default=None, sa_column=Column(Numeric(12, 1, asdecimal=True)))
    """Gb/s a node, where a source states it."""
    min_cluster_gpus: int | None = None
    """The fewest GPUs a cluster of it is rented with, where a source states it (a cluster product)."""
    max_cluster_gpus: int | None = None
    """The most GPUs one cluster of it holds, where a source states it."""


@dataclass(frozen=True, kw_only=True)
class FabricRecord(Sourced):
    provider: str
    """The provider's slug."""
    product: str
    gpus_per_node: int
    intra_node: str
    inter_node: str
    inter_node_kind: str
    inter_node_gbps: float | None
    min_cluster_gpus: int | None
    max_cluster_gpus: int | None

    @property
    def kind_said(self) -> str:
        return BETWEEN_SAID.get(self.inter_node_kind, "")

    @property
    def rdma(self) -> bool:
        """Its nodes reach each other's GPU memory directly (remote direct memory access): what the collective
        communication of a run across nodes needs, and what virtualization taxes hardest without it."""
        return self.inter_node_kind in RDMA


def fabrics_at(session: Session, version: int) -> dict[tuple[str, str], FabricRecord]:
    """The fabrics at `version`, by provider slug and product."""
    slugs = {p.id: p.slug for p in session.exec(select(Provider))}
    fabrics = {}
    for row in session.exec(select(OfferFabricVersion).where(valid_at(OfferFabricVersion, version))):
        fields = row.model_dump(exclude={"id", "valid_from", "valid_to", "provider_id"})
        gbps = fields.pop("inter_node_gbps")
        record = FabricRecord(
            provider=slugs[row.provider_id], inter_node_gbps=None if gbps is None else float(gbps), **fields
        )
        fabrics[record.provider, record.product] = record
    return dict(sorted(fabrics.items()))
