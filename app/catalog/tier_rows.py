"""Tiers as the catalog stores them and as an admin types them: from GB, to GB, USD per GB (or
per GB-month), checked to be contiguous before they are stored."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from app.catalog.rows import PRICE_MAX, number
from app.costing import tiers as tiered

TierRow = tuple[Decimal, Decimal | None, Decimal]
"""A tier as stored and typed: from GB, to GB (None: no end), USD per GB (or per GB-month)."""
GB_MAX = Decimal(10) ** 10
"""A tier's bound fits its column (20 digits, 9 of them decimals); ten exabytes is past any price list."""


def _kept(amount: Decimal, places: int, most: Decimal) -> bool:
    """Whether the database keeps `amount` as typed: PostgreSQL refuses more digits (a 500) and
    rounds more decimals, which SQLite keeps."""
    return abs(amount) <= most and amount == amount.quantize(Decimal(1).scaleb(-places), rounding="ROUND_DOWN")


def priced_tiers(tiers: list[TierRow]) -> tuple[tiered.Tier, ...]:
    """Stored tiers as the cost model reads them."""
    return tuple(tiered.Tier(float(f), None if t is None else float(t), float(u)) for f, t, u in tiers)


def parse_tiers(value: str) -> list[TierRow]:
    """Lines of `from_gb,to_gb,price_per_gb` (to_gb empty on the last line), checked to be contiguous."""
    tiers = []
    for line_no, line in enumerate((line for line in value.strip().splitlines() if line.strip()), start=1):
        parts = [part.strip() for part in line.split(",")]
        if len(parts) != 3:
            raise ValueError(f"line {line_no}: write from_gb,to_gb,price_per_gb")
        try:
            from_gb, usd = number(parts[0]), number(parts[2])
            to_gb = number(parts[1]) if parts[1] else None
        except InvalidOperation:
            raise ValueError(f"line {line_no}: not a number") from None
        if not all(v.is_finite() for v in (from_gb, usd, to_gb or Decimal(0))):
            raise ValueError(f"line {line_no}: not a number")
        if not all(_kept(gb, 9, GB_MAX) for gb in (from_gb, to_gb or Decimal(0))):
            raise ValueError(f"line {line_no}: GB must be at most {GB_MAX:,}, with 9 decimal places at most")
        if not _kept(usd, 8, PRICE_MAX):
            raise ValueError(f"line {line_no}: the price must be at most {PRICE_MAX:,}, with 8 decimal places at most")
        tiers.append((from_gb, to_gb, usd))
    tiered.check_tiers(priced_tiers(tiers))
    return tiers
