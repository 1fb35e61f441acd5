"""A provider's facts at one catalog version: headquarters, egress tiers and checkpoint storage,
each with where it came from."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cached_property
from typing import Any

from sqlmodel import Session, col, select

from app.catalog.rates import RateRecord, usd_per_unit
from app.catalog.records import Sourced
from app.catalog.tables import EgressTierVersion, Provenance, Provider, ProviderHeadquarters, StoragePrice, valid_at
from app.catalog.tier_rows import priced_tiers
from app.costing import tiers


@dataclass(frozen=True)
class TierRecord(Sourced):
    """A tier with where it came from: egress per GB, or storage per GB-month."""

    tier: tiers.Tier
    """In USD, at the version's rate: what the cost model adds."""
    currency: str
    """The currency the tier was published in."""
    published: Decimal
    """Per GB or GB-month, as published."""


@dataclass(frozen=True)
class StorageRecord:
    """The storage a provider's GPU users keep checkpoints on: one product of one kind, in tiers."""

    kind: str
    product: str
    tiers: tuple[TierRecord, ...]


@dataclass(frozen=True)
class HeadquartersRecord:
    country: str | None
    source: str | None
    as_of: date | None
    source_kind: str
    quote: str
    notes: str


@dataclass(frozen=True)
class ProviderRecord:
    slug: str
    name: str
    notes: str
    headquarters: HeadquartersRecord | None
    egress_tiers: tuple[TierRecord, ...]
    storage: StorageRecord | None

    @property
    def hq_country(self) -> str | None:
        return None if self.headquarters is None else self.headquarters.country

    @cached_property
    def egress_table(self) -> tuple[tiers.Tier, ...]:
        """The tiers as the cost model reads them; none where no egress price is published."""
        return tuple(t.tier for t in self.egress_tiers)

    @cached_property
    def storage_table(self) -> tuple[tiers.Tier, ...]:
        return () if self.storage is None else tuple(t.tier for t in self.storage.tiers)


def _tier(row: EgressTierVersion | StoragePrice, amount: Decimal, usd: float) -> TierRecord:
    tier = priced_tiers([(row.from_gb, row.to_gb, amount)])[0]
    tier = tiers.Tier(tier.from_gb, tier.to_gb, tier.usd_per_gb * usd)
    return TierRecord(tier, row.currency, amount, **row.model_dump(include=set(Provenance.model_fields)))


def _table(rows: list[Any], amount: str, rates: Mapping[str, RateRecord]) -> tuple[TierRecord, ...]:
    """A provider's tiers in USD; none, as where no price is published, if a tier above 0 states no
    currency or one without a rate at the version (0 is 0 in any): a table is priced whole or not at all."""
    found = []
    for r in rows:
        price, usd = getattr(r, amount), usd_per_unit(r.currency, rates)
        if usd is None and price:
            return ()
        found.append(_tier(r, price, usd or 0.0))
    return tuple(found)


def providers_at(session: Session, version: int, rates: Mapping[str, RateRecord]) -> dict[int, ProviderRecord]:
    egress_rows = defaultdict(list)
    for e in session.exec(
        select(EgressTierVersion).where(valid_at(EgressTierVersion, version)).order_by(col(EgressTierVersion.from_gb))
    ):
        egress_rows[e.provider_id].append(e)
    storage_rows = defaultdict(list)
    for s in session.exec(
        select(StoragePrice).where(valid_at(StoragePrice, version)).order_by(col(StoragePrice.from_gb))
    ):
        storage_rows[s.provider_id].append(s)
    hq = {
        h.provider_id: HeadquartersRecord(h.country, h.source, h.as_of, h.source_kind, h.quote, h.notes)
        for h in session.exec(select(ProviderHeadquarters).where(valid_at(ProviderHeadquarters, version)))
    }
    providers: dict[int, ProviderRecord] = {}
    for p in session.exec(select(Provider)):
        assert p.id is not None
        rows = storage_rows[p.id]
        stored = _table(rows, "per_gb_month", rates)
        storage = StorageRecord(rows[0].kind, rows[0].product, stored) if stored else None
        egress = _table(egress_rows[p.id], "per_gb", rates)
        providers[p.id] = ProviderRecord(p.slug, p.name, p.notes, hq.get(p.id), egress, storage)
    return providers
