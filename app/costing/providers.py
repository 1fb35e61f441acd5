"""Each provider's cheapest offer for a workload: its bill, egress and storage included.

The options show the cheapest offer of each way of renting, often at a provider that charges
nothing for egress; what egress adds at another provider is read from that provider's own
cheapest offer, ranked as the options are ranked (`cheapest_by`: priced in full first, then total).
"""

from __future__ import annotations

from app.costing.contenders import contenders
from app.costing.quote import OfferCost, PricedOffer, breakdown
from app.costing.ranking import cheapest_by
from app.costing.terms import Workload


def by_provider(p: PricedOffer) -> str:
    return p.offer.provider


def provider_contenders(priced: list[PricedOffer]) -> list[PricedOffer]:
    """`priced` less the offers that cannot be their provider's cheapest at any GPU-hours."""
    return contenders(priced, by_provider)


def cheapest_per_provider(priced: list[PricedOffer], workload: Workload) -> list[OfferCost]:
    """Each provider's cheapest offer at the workload's GPU-hours, cheapest first."""
    ranked, _ = cheapest_by(priced, workload.gpu_hours, by_provider)
    return [breakdown(p, workload) for _, p in ranked]
