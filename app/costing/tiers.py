"""Prices by cumulative monthly volume: internet egress per GB, storage per GB-month.

A tier table starts at 0 GB and runs without gaps. Its last tier may end: past it the provider
publishes no price ("contact us"), and such volume is priced only at a rate the user assumes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tier:
    """USD per GB for the volume between from_gb and to_gb (None = no upper bound)."""

    from_gb: float
    to_gb: float | None
    usd_per_gb: float


def check_tiers(tiers: tuple[Tier, ...]) -> None:
    """Tiers must start at 0 and follow each other without gaps or overlaps."""
    if not tiers:
        raise ValueError("a published price needs at least one tier")
    expected_start = 0.0
    for tier in tiers:
        if tier.from_gb != expected_start:
            raise ValueError(f"tier starting at {tier.from_gb} GB should start at {expected_start} GB")
        if tier.usd_per_gb < 0:
            raise ValueError("prices cannot be negative")
        if tier.to_gb is None:
            break
        if tier.to_gb <= tier.from_gb:
            raise ValueError(f"tier {tier.from_gb}-{tier.to_gb} GB is empty")
        expected_start = tier.to_gb
    if any(t.to_gb is None for t in tiers[:-1]):
        raise ValueError("only the last tier may be open-ended")


def published_up_to(tiers: tuple[Tier, ...]) -> float:
    """The volume the tiers price: 0 where nothing is published, infinity for an open-ended table."""
    if not tiers:
        return 0.0
    last = tiers[-1].to_gb
    return float("inf") if last is None else last


def tiered_cost(volume_gb: float, tiers: tuple[Tier, ...], assumed_usd_per_gb: float | None = None) -> float | None:
    """USD for one month's volume, each GB at the rate of the tier it falls in. GB past the
    published tiers cost `assumed_usd_per_gb`; with no assumption, the cost is unknown (None)."""
    cost = 0.0
    for tier in tiers:
        if volume_gb <= tier.from_gb:
            break
        upper = volume_gb if tier.to_gb is None else min(volume_gb, tier.to_gb)
        cost += (upper - tier.from_gb) * tier.usd_per_gb
    unpublished = volume_gb - published_up_to(tiers)
    if unpublished <= 0:
        return cost
    return None if assumed_usd_per_gb is None else cost + unpublished * assumed_usd_per_gb
