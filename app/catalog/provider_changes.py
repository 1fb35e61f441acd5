"""Changes to a provider's versioned facts: headquarters, egress tiers, checkpoint storage. Each is a new
catalog version, refused if the fact changed since the admin's form was opened."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlmodel import Session

from app.catalog.changes import StaleRecord, commit_change, new_version, replace_current
from app.catalog.tables import (
    EgressTierVersion,
    Provenance,
    Provider,
    ProviderHeadquarters,
    ProviderTable,
    StoragePrice,
)
from app.catalog.tier_rows import TierRow


def change_headquarters(
    session: Session,
    provider_id: int,
    country: str | None,
    provenance: Provenance,
    note: str,
    who: str = "system",
    based_on: int | None = None,
) -> int:
    """Record where a provider is headquartered from a new version on. Returns the version."""
    version, closed = _replace(session, ProviderHeadquarters, provider_id, "headquarters", note, who, based_on)
    if closed > 1:
        session.rollback()
        raise StaleRecord(f"provider {provider_id} had more than one current headquarters")
    session.add(
        ProviderHeadquarters(provider_id=provider_id, country=country, valid_from=version, **provenance.model_dump())
    )
    commit_change(session)
    return version


def _replace(
    session: Session, table: ProviderTable, provider_id: int, fact: str, note: str, who: str, based_on: int | None
) -> tuple[int, int]:
    """Open a new version for one of a provider's facts and close its current rows."""
    return replace_current(session, table, "provider_id", provider_id, f"provider {provider_id} {fact}", note, who,
                           based_on)  # fmt: skip


def replace_egress_tiers(
    session: Session,
    provider_id: int,
    tiers: list[TierRow],
    currency: str,
    provenance: Provenance,
    note: str,
    who: str,
    based_on: int | None = None,
) -> int:
    """A provider's whole egress table anew, from a new version on; tiers were checked by the caller."""
    rows = (
        {"from_gb": from_gb, "to_gb": to_gb, "per_gb": price, "currency": currency} for from_gb, to_gb, price in tiers
    )
    return _replace_tiers(session, EgressTierVersion, provider_id, "egress", rows, provenance, note, who, based_on)


def replace_storage(
    session: Session,
    provider_id: int,
    kind: str,
    product: str,
    tiers: list[TierRow],
    currency: str,
    provenance: Provenance,
    note: str,
    who: str,
    based_on: int | None = None,
) -> int:
    """A provider's checkpoint storage from a new version on; no tiers means no published price."""
    product_of = {"kind": kind, "product": product, "currency": currency}
    rows = ({"from_gb": from_gb, "to_gb": to_gb, "per_gb_month": price} | product_of for from_gb, to_gb, price in tiers)
    return _replace_tiers(session, StoragePrice, provider_id, "storage", rows, provenance, note, who, based_on)


def _replace_tiers(
    session: Session, table: type[EgressTierVersion] | type[StoragePrice], provider_id: int, fact: str,
    rows: Iterable[dict[str, Any]], provenance: Provenance, note: str, who: str, based_on: int | None,
) -> int:  # fmt: skip
    """A provider's tiered price anew: a new version, closing the current tiers and adding a row of
    `table` for each of `rows` (its columns besides the provider, version and provenance)."""
    version, _ = _replace(session, table, provider_id, fact, note, who, based_on)
    for row in rows:
        session.add(table(provider_id=provider_id, valid_from=version, **row, **provenance.model_dump()))
    commit_change(session)
    return version


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
