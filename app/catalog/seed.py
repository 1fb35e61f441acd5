"""Load the shipped public price data (seed_data/, see its README) as catalog version 1."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from app.catalog.rows import OfferRow, offer_key
from app.catalog.seed_mapping import EXTRA_GPU_MEMORY_GIB, SERVERLESS_GPUS, serverless_row_shipped, source_url
from app.catalog.tables import (
    CatalogVersion,
    EgressTierVersion,
    GpuModel,
    OfferVersion,
    Provider,
    ProviderHeadquarters,
    StorageKind,
    StoragePrice,
)
from app.catalog.tier_rows import priced_tiers
from app.costing.terms import Billing, PricePeriod, Tenancy
from app.costing.tiers import check_tiers

SEED_DIR = Path(__file__).parent / "seed_data"


def rows_of(name: str) -> Iterator[dict[str, str]]:
    with open(SEED_DIR / name, newline="") as f:
        yield from csv.DictReader(f)


def shipped_day(text: str) -> date | None:
    return date.fromisoformat(text) if text and text != "unknown" else None


def load_seed(session: Session) -> CatalogVersion:
    """Write the whole shipped catalog in one transaction as the first version."""
    version = CatalogVersion(note="Shipped catalog from public price data (see app/catalog/seed_data/README.md)")
    session.add(version)
    session.flush()
    assert version.id is not None
    providers = _load_providers(session, version.id)
    gpus = _load_gpu_models(session)
    _load_egress(session, providers, version.id)
    _load_storage(session, providers, version.id)
    rows = [*_cloud_offers(), *_committed_offers(set(gpus)), *_serverless_offers()]
    session.add_all(OfferVersion.of_row(r, providers[r.provider], gpus[r.gpu], version.id) for r in rows)
    return version


def _load_providers(session: Session, version: int) -> dict[str, int]:
    """providers.csv: names and headquarters. Returns the ids by slug."""
    providers = {}
    for row in rows_of("providers.csv"):
        provider = Provider(slug=row["provider"], name=row["display_name"], notes=row["notes"])
        session.add(provider)
        session.flush()
        assert provider.id is not None
        providers[provider.slug] = provider.id
        hq = ProviderHeadquarters(
            provider_id=provider.id, country=row["hq_country"] or None, source=row["source_url"] or None,
            valid_from=version,
        )  # fmt: skip
        session.add(hq)
    return providers


def _load_gpu_models(session: Session) -> dict[str, int]:
    """The GPUs of gpu_offers.csv with the memory their first row states (a few later rows state
    another: L40S 45 for 48, H200 140 for 141), and those only other files name. Ids by name."""
    memory: dict[str, int] = {}
    for row in rows_of("gpu_offers.csv"):
        memory.setdefault(row["gpu_model"], int(row["gpu_memory_gib"]))
    gpus = [GpuModel(name=name, memory_gib=gib) for name, gib in (memory | EXTRA_GPU_MEMORY_GIB).items()]
    session.add_all(gpus)
    session.flush()
    return {g.name: g.id for g in gpus if g.id is not None}


def _load_egress(session: Session, providers: dict[str, int], version: int) -> None:
    """egress.csv: each provider's tier table, checked to be contiguous before it is stored."""
    tables: dict[str, list[dict[str, str]]] = {}
    for row in rows_of("egress.csv"):
        tables.setdefault(row["provider"], []).append(row)
    for provider, lines in tables.items():
        tiers = [
            (Decimal(r["from_gb"]), Decimal(r["to_gb"]) if r["to_gb"] else None, Decimal(r["usd_per_gb"]))
            for r in lines
        ]
        check_tiers(priced_tiers(tiers))
        for (from_gb, to_gb, per_gb), r in zip(tiers, lines, strict=True):
            session.add(
                EgressTierVersion(provider_id=providers[provider], from_gb=from_gb, to_gb=to_gb, per_gb=per_gb,
                                  source=r["source"], as_of=shipped_day(r["as_of"]), notes=r["notes"],
                                  valid_from=version)
            )  # fmt: skip


def _load_storage(session: Session, providers: dict[str, int], version: int) -> None:
    """The one storage price the research holds (seed_data/README.md)."""
    session.add(
        StoragePrice(
            provider_id=providers["runpod"],
            kind=StorageKind.SHARED_FILESYSTEM,
            product="Network volume",
            per_gb_month=Decimal("0.07"),
            source="https://docs.runpod.io/serverless/pricing",
            notes="Network volume under 1 TB; 0.05 USD/GB-month above 1 TB is not modelled.",
            valid_from=version,
        )
    )


def _offer(provider: str, gpu: str, product: str, region: str, billing: Billing, **fields: Any) -> OfferRow:
    key = offer_key(provider, product, gpu, region, billing)
    return OfferRow(key=key, provider=provider, gpu=gpu, product=product, region=region, billing=billing, **fields)


def _cloud_offers() -> Iterator[OfferRow]:
    """gpu_offers.csv (SkyPilot's catalogs): on-demand and spot prices per instance and region."""
    countries = {(r["provider"], r["region"]): r["country"] for r in rows_of("region_countries.csv")}
    for row in rows_of("gpu_offers.csv"):
        bare_metal = row["provider"] == "oci" and row["instance_type"].startswith("BM.")
        common = dict(
            tenancy=Tenancy.BARE_METAL if bare_metal else Tenancy.VIRTUALIZED,
            gpus_per_unit=int(row["gpu_count"]),
            price_period=PricePeriod.HOUR,
            region_country=countries[row["provider"], row["region"]],
            source_url=source_url(row["source"]),
            as_of=shipped_day(row["as_of"]),
            vcpus=int(row["vcpus"]),
            ram_gib=Decimal(row["memory_gib"]),
        )
        for billing, price in [
            (Billing.ON_DEMAND, row["price_per_hour_usd"]),
            (Billing.SPOT, row["spot_price_per_hour_usd"]),
        ]:
            if price:
                yield _offer(row["provider"], row["gpu_model"], row["instance_type"], row["region"], billing,
                             price=Decimal(price), **common)  # fmt: skip


def _committed_offers(known_gpus: set[str]) -> Iterator[OfferRow]:
    """committed_offers.csv: reserved and dedicated prices; a yearly price is billed monthly."""
    for row in rows_of("committed_offers.csv"):
        if row["gpu_model"] not in known_gpus or not row["gpu_count"]:
            continue  # Paperspace rows: GPU memory or GPUs per price not stated (see README)
        per_year = row["price_period"] == "year"
        months = int(row["min_commitment_months"]) if row["min_commitment_months"] else 12 if per_year else None
        yield _offer(
            row["provider"], row["gpu_model"], row["product"], "not stated",
            Billing.MONTHLY if per_year else Billing.COMMITTED,
            tenancy=row["tenancy"],
            gpus_per_unit=int(row["gpu_count"]),
            price=Decimal(row["price_usd"]),
            price_period=row["price_period"],
            min_commitment_months=months,
            source_url=row["source_url"],
            as_of=shipped_day(row["read_on"]),
            notes=("Published per year: billed here as 1/12 a month for at least 12 months. " if per_year else "")
            + row["notes"],
        )  # fmt: skip


def _serverless_offers() -> Iterator[OfferRow]:
    """serverless_gpu_prices.csv: one per-second list rate per provider and GPU."""
    for row in rows_of("serverless_gpu_prices.csv"):
        if not serverless_row_shipped(row):
            continue
        per_second = bool(row["usd_per_second"])
        for gpu in SERVERLESS_GPUS[row["gpu"]]:
            yield _offer(
                row["provider"], gpu, f"{row['product']} ({row['gpu']})", "platform-scheduled", Billing.PER_SECOND,
                tenancy=Tenancy.SERVERLESS,
                gpus_per_unit=1,
                price=Decimal(row["usd_per_second"] or row["usd_per_hour"]),
                price_period=PricePeriod.SECOND if per_second else PricePeriod.HOUR,
                source_url=row["source_url"],
                as_of=shipped_day(row["as_of"]),
                notes=f"{row['source_type']}; {row['billing_note']}".strip("; "),
            )  # fmt: skip


def seed_if_empty(session: Session) -> None:
    """Load the shipped catalog into an empty database; a second worker starting at once loses the
    race on the unique provider names and finds the catalog there."""
    if session.exec(select(CatalogVersion.id).limit(1)).first() is not None:
        return
    try:
        load_seed(session)
        session.commit()
    except IntegrityError:
        session.rollback()
