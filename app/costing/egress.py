"""Internet egress priced through a provider's cumulative monthly tiers."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EgressTier:
    """USD per GB for the volume between from_gb and to_gb (None = no upper bound) in a month."""

    from_gb: float
    to_gb: float | None
    usd_per_gb: float


def check_tiers(tiers: tuple[EgressTier, ...]) -> None:
    """Tiers must start at 0, follow each other without gaps or overlaps and end open."""
    if not tiers:
        raise ValueError("a provider with known egress needs at least one tier")
    expected_start = 0.0
    for tier in tiers:
        if tier.from_gb != expected_start:
            raise ValueError(f"tier starting at {tier.from_gb} GB should start at {expected_start} GB")
        if tier.usd_per_gb < 0:
            raise ValueError("egress prices cannot be negative")
        if tier.to_gb is None:
            break
        if tier.to_gb <= tier.from_gb:
            raise ValueError(f"tier {tier.from_gb}-{tier.to_gb} GB is empty")
        expected_start = tier.to_gb
    if tiers[-1].to_gb is not None:
        raise ValueError("the last egress tier must be open-ended")
    if any(t.to_gb is None for t in tiers[:-1]):
        raise ValueError("only the last egress tier may be open-ended")


def egress_cost(volume_gb: float, tiers: tuple[EgressTier, ...]) -> float:
    """USD for one month's egress volume: each GB is billed at the rate of the tier it falls in."""
    cost = 0.0
    for tier in tiers:
        if volume_gb <= tier.from_gb:
            break
        upper = volume_gb if tier.to_gb is None else min(volume_gb, tier.to_gb)
        cost += (upper - tier.from_gb) * tier.usd_per_gb
    return cost
