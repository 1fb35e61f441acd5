"""What the admin pages read of the catalog's history: offers' versions, providers' current rows,
the audit log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from app.catalog.changes import last_change
from app.catalog.currencies import beside_a_number
from app.catalog.rows import VERSIONED_FIELDS, decimal_text
from app.catalog.tables import (
    PROVIDER_TABLES,
    CatalogVersion,
    EgressTierVersion,
    GpuModel,
    ModelPresetVersion,
    OfferVersion,
    PendingImport,
    Provider,
    ProviderHeadquarters,
    StoragePrice,
)


@dataclass(frozen=True)
class HistoryEntry:
    """One version of an offer, the change that made it, and which versioned fields it changed."""

    row: OfferVersion
    made_by: CatalogVersion | None
    older: OfferVersion | None

    @property
    def changes(self) -> list[tuple[str, object, object]]:
        """Each versioned field this version changed: (field, old value, new value)."""
        if self.older is None:
            return []
        fields = (f for f in VERSIONED_FIELDS if getattr(self.row, f) != getattr(self.older, f))
        return [(f, getattr(self.older, f), getattr(self.row, f)) for f in fields]


def offer_history(session: Session, key: str) -> list[HistoryEntry]:
    """Every version of one offer, newest first; [] if there is no such offer."""
    rows = list(session.exec(select(OfferVersion).where(OfferVersion.key == key).order_by(col(OfferVersion.id).desc())))
    if not rows:
        return []
    made_by = {
        v.id: v
        for v in session.exec(select(CatalogVersion).where(col(CatalogVersion.id).in_({r.valid_from for r in rows})))
    }
    return [
        HistoryEntry(newer, made_by.get(newer.valid_from), older)
        for newer, older in zip(rows, [*rows[1:], None], strict=True)
    ]


def newest_version_of(session: Session, key: str) -> tuple[OfferVersion | None, CatalogVersion | None]:
    """The last row of an offer and the change that made it: what a refused edit is shown."""
    newest = session.exec(
        select(OfferVersion).where(OfferVersion.key == key).order_by(col(OfferVersion.id).desc())
    ).first()
    return newest, session.get(CatalogVersion, newest.valid_from) if newest else None


def offer_exists(session: Session, key: str) -> bool:
    """Whether an offer of this key was ever in the catalog (a retired one is restored, not re-added)."""
    return session.exec(select(OfferVersion.id).where(OfferVersion.key == key)).first() is not None


def audit_log(session: Session, by: str = "", record: str = "", limit: int = 500) -> list[CatalogVersion]:
    """Every change of the catalog, newest first, by one admin or of records naming `record`."""
    query = select(CatalogVersion).order_by(col(CatalogVersion.id).desc()).limit(limit)
    if by:
        query = query.where(CatalogVersion.created_by == by)
    if record:
        query = query.where(col(CatalogVersion.record).contains(record))
    return list(session.exec(query).all())


def provider_by_slug(session: Session, slug: str) -> Provider | None:
    return session.exec(select(Provider).where(Provider.slug == slug)).first()


def provider_ids(session: Session) -> dict[str, int | None]:
    return {p.slug: p.id for p in session.exec(select(Provider))}


def gpu_by_name(session: Session, name: str) -> GpuModel | None:
    return session.exec(select(GpuModel).where(GpuModel.name == name)).first()


def preset_by_key(session: Session, key: str) -> ModelPresetVersion | None:
    """A model preset as it is now."""
    preset = ModelPresetVersion
    return session.exec(select(preset).where(preset.key == key, col(preset.valid_to).is_(None))).first()


def gpu_models(session: Session) -> list[GpuModel]:
    return list(session.exec(select(GpuModel).order_by(GpuModel.name)).all())


def provider_now(session: Session, provider: Provider) -> dict[str, Any]:
    """A provider's current headquarters, egress tiers and storage tiers, and the version each was
    last changed at (an edit based on an older one is refused)."""

    def current(table: Any) -> list[Any]:
        return list(session.exec(select(table).where(table.provider_id == provider.id, col(table.valid_to).is_(None))))

    return {
        "hq": next(iter(current(ProviderHeadquarters)), None),
        "tiers": sorted(current(EgressTierVersion), key=lambda t: t.from_gb),
        "storage": sorted(current(StoragePrice), key=lambda s: s.from_gb),
        "since": {table.__name__: last_change(session, table, "provider_id", provider.id) for table in PROVIDER_TABLES},
    }


def pending_import(session: Session, pending_id: int) -> PendingImport | None:
    """A previewed import that nobody applied yet."""
    pending = session.get(PendingImport, pending_id)
    return None if pending is None or pending.applied else pending


def offer_prices(session: Session, row_ids: list[int]) -> dict[int, str]:
    """Each row's price as typed, per period: what an import preview shows beside the new one."""
    found = session.exec(select(OfferVersion).where(col(OfferVersion.id).in_(row_ids)))
    return {
        row.id: f"{decimal_text(row.price)} {beside_a_number(row.currency)} / {row.price_period}"
        for row in found
        if row.id is not None
    }
