"""A run across nodes in the results: the offers of its GPU model whose nodes may not run it together,
counted by why, so the page can say which were left out and why a run across nodes needs a fabric."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from app.catalog.offer_records import OfferRecord
from app.catalog.selection import across_nodes_refused
from app.costing.terms import Tenancy
from app.quoting.build import QuoteResult


@dataclass(frozen=True)
class LeftOut:
    why: str
    offers: int
    providers: tuple[str, ...]


def left_out(result: QuoteResult) -> tuple[LeftOut, ...]:
    """Where a run or a replica spans nodes: the offers of its GPU model its nodes may not run together, by why."""
    job = result.job
    if job is None or job.across is None:
        return ()
    refused: dict[str, list[OfferRecord]] = defaultdict(list)
    for o in result.catalog.offers_by_gpu.get(job.gpu, []):
        if o.priced.tenancy is Tenancy.SERVERLESS:
            continue  # no node to join
        why = across_nodes_refused(result.catalog, o, job.unit_gpus)
        if why is not None:
            refused[why].append(o)
    return tuple(
        LeftOut(why, len(offers), tuple(sorted({o.provider.name for o in offers}))) for why, offers in refused.items()
    )
