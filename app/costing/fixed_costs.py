"""What an offer's month holds beside its compute: egress through the provider's tiers and storage per
GB-month, the same at every GPU-hours; a price nobody published stays unknown unless assumed."""

from __future__ import annotations

from dataclasses import dataclass

from app.costing.terms import Assumptions, Offer, Workload
from app.costing.tiers import published_up_to, tiered_cost


@dataclass(frozen=True)
class FixedCosts:
    """USD of egress and of storage a month, None where the provider publishes no price and the
    user assumes none; `assumed` names those priced at least in part at the user's assumption."""

    egress: float | None
    storage: float | None
    assumed: tuple[str, ...] = ()

    @property
    def usd(self) -> float:
        return (self.egress or 0.0) + (self.storage or 0.0)

    @property
    def complete(self) -> bool:
        return self.egress is not None and self.storage is not None


def fixed_costs(offer: Offer, workload: Workload, assumptions: Assumptions) -> FixedCosts:
    egress_gb, stored_gb = workload.egress_volume_gb, workload.stored_gb
    assumed = tuple(
        name
        for name, volume, tiers, rate in [
            ("egress", egress_gb, offer.egress_tiers, assumptions.assumed_egress_usd_per_gb),
            ("storage", stored_gb, offer.storage_tiers, assumptions.assumed_storage_usd_per_gb_month),
        ]
        if rate is not None and volume > published_up_to(tiers)
    )
    return FixedCosts(
        egress=tiered_cost(egress_gb, offer.egress_tiers, assumptions.assumed_egress_usd_per_gb),
        storage=tiered_cost(stored_gb, offer.storage_tiers, assumptions.assumed_storage_usd_per_gb_month),
        assumed=assumed,
    )
