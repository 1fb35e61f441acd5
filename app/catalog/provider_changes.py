"""Changes to a provider's versioned facts: headquarters, egress tiers, checkpoint storage. Each is a new
catalog version, refused if the fact changed since the admin's form was opened. Shipped updates
(shipped_facts.py) write the same facts, named and laid out in columns here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlmodel import Session

from app.catalog.changes import Change, StaleRecord, commit_change, new_version, replace_current, replace_record
from app.catalog.tables import (
    EgressTierVersion,
    Provenance,
    Provider,
    ProviderHeadquarters,
    ProviderTable,
    StoragePrice,
)
from app.catalog.tier_rows import TierRow

FACT_TABLES: dict[str, ProviderTable] = {
    "headquarters": ProviderHeadquarters,
    "egress": EgressTierVersion,
    "storage": StoragePrice,
}
"""A provider's versioned facts by the name its changes' records and the shipped files give them."""


def egress_columns(tier: TierRow, currency: str) -> dict[str, Any]:
    """An egress tier's columns besides the provider, version and provenance: per GB, in `currency`."""
    from_gb, to_gb, price = tier
    return {"from_gb": from_gb, "to_gb": to_gb, "per_gb": price, "currency": currency}


def storage_columns(tier: TierRow, currency: str, kind: str, product: str) -> dict[str, Any]:
    """A checkpoint storage tier's columns besides the provider, version and provenance: per GB-month of
    the `product` of `kind`, in `currency`."""
    from_gb, to_gb, price = tier
    return {"from_gb": from_gb, "to_gb": to_gb, "per_gb_month": price, "currency": currency, "kind": kind,
            "product": product}  # fmt: skip


def change_headquarters(
    session: Session, provider_id: int, country: str | None, provenance: Provenance, change: Change
) -> int:
    """Record where a provider is headquartered from a new version on. Returns the version."""
    record = _record(provider_id, "headquarters")
    version, closed = replace_current(session, ProviderHeadquarters, "provider_id", provider_id, record, change)
    if closed > 1:
        session.rollback()
        raise StaleRecord(f"provider {provider_id} had more than one current headquarters")
    session.add(
        ProviderHeadquarters(provider_id=provider_id, country=country, valid_from=version, **provenance.model_dump())
    )
    commit_change(session)
    return version


def _record(provider_id: int, fact: str) -> str:
    """The record a change of one of a provider's facts locks and names in the audit log."""
    return f"provider {provider_id} {fact}"


def replace_egress_tiers(
    session: Session, provider_id: int, tiers: list[TierRow], currency: str, provenance: Provenance, change: Change
) -> int:
    """A provider's whole egress table anew, from a new version on; tiers were checked by the caller."""
    rows = (egress_columns(tier, currency) for tier in tiers)
    return _replace_tiers(session, provider_id, "egress", rows, provenance, change)


def replace_storage(
    session: Session, provider_id: int, kind: str, product: str, tiers: list[TierRow], currency: str,
    provenance: Provenance, change: Change,
) -> int:  # fmt: skip
    """A provider's checkpoint storage from a new version on; no tiers means no published price."""
    rows = (storage_columns(tier, currency, kind, product) for tier in tiers)
    return _replace_tiers(session, provider_id, "storage", rows, provenance, change)


def _replace_tiers(
    session: Session, provider_id: int, fact: str, rows: Iterable[dict[str, Any]], provenance: Provenance,
    change: Change,
) -> int:  # fmt: skip
    """A provider's tiered price anew: a new version, closing the current tiers and adding a row of
    the fact's table for each of `rows` (its columns besides the provider, version and provenance)."""
    record = _record(provider_id, fact)
    return replace_record(session, FACT_TABLES[fact], "provider_id", provider_id, record, change, provenance, rows)


def add_provider(
    session: Session, slug: str, name: str, hq_country: str | None, source: str | None, who: str
) -> Provider:
    version = new_version(session, f"new provider {name}", who, f"provider {slug}")
    provider = Provider(slug=slug, name=name)
    session.add(provider)
    session.flush()
    assert provider.id is not None
    session.add(ProviderHeadquarters(provider_id=provider.id, country=hq_country, source=source, valid_from=version))
    commit_change(session)
    session.refresh(provider)
    return provider
