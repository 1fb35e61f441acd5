"""The catalog out in bulk: the current offers as CSV, and everything a quote reads as JSON."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlmodel import Session, col, select

from app.catalog.files import as_text, csv_text
from app.catalog.rows import OFFER_COLUMNS, OfferRow
from app.catalog.tables import (
    EgressTierVersion,
    ExchangeRate,
    GpuModel,
    OfferVersion,
    Provider,
    ProviderHeadquarters,
    StoragePrice,
    valid_at,
)


def current_offers(session: Session, version: int) -> list[tuple[OfferVersion, OfferRow]]:
    """Each offer at `version`: its stored row, and the row as files carry it."""
    query = (
        select(OfferVersion, Provider.slug, GpuModel.name)
        .join(Provider, col(OfferVersion.provider_id) == Provider.id)
        .join(GpuModel, col(OfferVersion.gpu_model_id) == GpuModel.id)
        .where(valid_at(OfferVersion, version))
        .order_by(col(OfferVersion.id))
    )
    return [(offer, offer.as_row(provider, gpu)) for offer, provider, gpu in session.exec(query)]


def row_as_json(row: OfferRow) -> dict[str, Any]:
    return {name: as_text(getattr(row, name)) for name in OFFER_COLUMNS}


def export_offers_csv(session: Session, version: int) -> str:
    rows = current_offers(session, version)
    return csv_text(OFFER_COLUMNS, ([getattr(row, name) for name in OFFER_COLUMNS] for _, row in rows))


def export_catalog(session: Session, version: int) -> dict[str, Any]:
    """Everything a quote reads at one version: providers (headquarters, egress, storage), GPUs, the
    exchange rates its prices in other currencies are converted at, offers."""

    def rows(table: Any, provider_id: int) -> list[dict[str, Any]]:
        found = session.exec(select(table).where(table.provider_id == provider_id, valid_at(table, version)))
        skip = {"id", "provider_id", "valid_from", "valid_to"}
        return [{k: as_text(v) for k, v in r.model_dump().items() if k not in skip} for r in found]

    providers: list[dict[str, Any]] = []
    for p in session.exec(select(Provider).order_by(Provider.slug)):
        assert p.id is not None
        providers.append(
            {"slug": p.slug, "name": p.name, "notes": p.notes, "headquarters": rows(ProviderHeadquarters, p.id),
             "egress_tiers": sorted(rows(EgressTierVersion, p.id), key=lambda t: Decimal(t["from_gb"])),
             "storage": rows(StoragePrice, p.id)}
        )  # fmt: skip
    return {
        "catalog_version": version,
        "providers": providers,
        "gpu_models": [{"name": g.name, "memory_gib": g.memory_gib} for g in session.exec(select(GpuModel))],
        "exchange_rates": [
            {k: as_text(v) for k, v in r.model_dump().items() if k not in ("id", "valid_from", "valid_to")}
            for r in session.exec(select(ExchangeRate).where(valid_at(ExchangeRate, version)))
        ],
        "offers": [row_as_json(row) for _, row in current_offers(session, version)],
    }
