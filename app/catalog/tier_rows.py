"""Tiers as the catalog stores them and as an admin types them: from GB, to GB, USD per GB (or
per GB-month), checked to be contiguous before they are stored."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from app.catalog.rows import number
from app.costing import tiers as tiered

Tier = tuple[Decimal, Decimal | None, Decimal]
"""An egress tier as stored: from GB, to GB (None: no end), USD per GB."""


def priced_tiers(tiers: list[Tier]) -> tuple[tiered.Tier, ...]:
    """Stored tiers as the cost model reads them."""
    return tuple(tiered.Tier(float(f), None if t is None else float(t), float(u)) for f, t, u in tiers)


def parse_tiers(value: str) -> list[Tier]:
    """Lines of `from_gb,to_gb,usd_per_gb` (to_gb empty on the last line), checked to be contiguous."""
    tiers = []
    for line_no, line in enumerate((line for line in value.strip().splitlines() if line.strip()), start=1):
        parts = [part.strip() for part in line.split(",")]
        if len(parts) != 3:
            raise ValueError(f"line {line_no}: write from_gb,to_gb,usd_per_gb")
        try:
            from_gb, usd = number(parts[0]), number(parts[2])
            to_gb = number(parts[1]) if parts[1] else None
        except InvalidOperation:
            raise ValueError(f"line {line_no}: not a number") from None
        if not all(v.is_finite() for v in (from_gb, usd, to_gb or Decimal(0))):
            raise ValueError(f"line {line_no}: not a number")
        tiers.append((from_gb, to_gb, usd))
    tiered.check_tiers(priced_tiers(tiers))
    return tiers
