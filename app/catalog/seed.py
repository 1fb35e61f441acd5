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

from app.catalog.rows import OfferRow, offer_key, priced_tiers
from app.catalog.tables import (
    CatalogVersion,
    EgressTierVersion,
    GpuModel,
    OfferVersion,
    Provider,
    ProviderHeadquarters,
    StoragePrice,
)
from app.costing.egress import check_tiers
from app.costing.terms import Billing, PricePeriod, Tenancy

SEED_DIR = Path(__file__).parent / "seed_data"

SKYPILOT_COMMITS = {
    "006059e": "006059e0f18acb1341e22a27751e9f80df6ba92f",
    "098741e": "098741e70562f65d7af1cceb81e33b284f742604",
    "0f40703": "0f4070387edc953d7004cff197940e1918a1d6aa",
    "01acdfd": "01acdfd419ce5afae1289ff14825b893ced0c196",
    "0588751": "0588751183820cf2dab5c8a89447e8aac9f73fd5",
    "0082b04": "0082b0435f3912ae4c566856b272455cc78f4f61",
    "113567a": "113567a74b2f208af08e0c9236e26cc354a2bf65",
    "01b8cdd": "01b8cdda287814b30ff0acb49746cca19fbd4355",
    "000c1d0": "000c1d0bf24621f4ac37cfa585f0897c1aa1d9cf",
    "fdc9d90": "fdc9d908ab0b2af9f468f139fb3f662c8c6b3257",
    "57d6578": "57d65781a544958d7d07014f062f7d1cad8415a7",
    "002363d": "002363dac75913b446b2d3d564ae795678849dfd",
    "d9a304e": "d9a304ea01e96cd4a043159c60d9326d8de4cf0f",
    "002403b": "002403bca05e2ab5110637448f3b1654c983d5d5",
    "e520054": "e520054145d1bce6748bcf18c9a25ddd6ea9a348",
    "1fbe733": "1fbe7331dd1f13d70ac4f249bb7ee7a659fc6b6a",
}
"""Full commits of the SkyPilot catalog files read (seed_data/SOURCES.md), for permanent links."""

EXTRA_GPU_MEMORY_GIB = {"B300": 288, "L40": 48, "RTX-PRO-6000": 96, "A6000": 48, "A4000": 16}
"""GPUs outside gpu_offers.csv, memory as the source rows state it (Qubrid product name, fal and RunPod rows)."""

SERVERLESS_GPUS = {
    "A4000, A4500, RTX 4000": ["A4000"],
    "L4, A5000, 3090": ["L4"],
    "L40, L40S, 6000 Ada PRO": ["L40", "L40S"],
    "A6000, A40": ["A6000"],
    "H100 PRO": ["H100"],
    "A100": ["A100-80GB"],
    "H200 PRO": ["H200"],
    "B200": ["B200"],
    "T4": ["T4"],
    "L4": ["L4"],
    "A10": ["A10"],
    "A100 40GB": ["A100"],
    "A100 80GB": ["A100-80GB"],
    "H100": ["H100"],
    "H200": ["H200"],
    "L40S": ["L40S"],
    "B300": ["B300"],
    "RTX PRO 6000": ["RTX-PRO-6000"],
}
"""Serverless GPU names as published -> our GPU models (RunPod prices a group of GPUs at one rate)."""


def _serverless_row_shipped(row: dict[str, str]) -> bool:
    """One price per provider and GPU: the per-second list rates, not discounts or always-on tiers."""
    rules = {
        "runpod": row["tier"] == "flex",
        "modal": row["source_type"] == "third_party_transcription_unverified",
        "replicate": row["source_type"] == "third_party_transcription_unverified",
        "fal": row["tier"] == "list",
        "runware": True,
    }
    return rules.get(row["provider"], False) and row["gpu"] in SERVERLESS_GPUS


def _rows(name: str) -> Iterator[dict[str, str]]:
    with open(SEED_DIR / name, newline="") as f:
        yield from csv.DictReader(f)


def _date(text: str) -> date | None:
    return date.fromisoformat(text) if text and text != "unknown" else None


def _source_url(source: str) -> str:
    """A permanent link to the file version a SkyPilot-derived row was read from."""
    repo_path, _, short = source.partition("@")
    repo, _, path = repo_path.partition(":")
    if repo == "skypilot-org/skypilot-catalog":
        return f"https://github.com/{repo}/blob/{SKYPILOT_COMMITS[short]}/{path}"
    short = short.split()[0]
    return f"https://github.com/{repo}/blob/{short}/{path}"


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
    for row in _rows("providers.csv"):
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
    """The GPUs of gpu_offers.csv with their memory, and those only other files name. Ids by name."""
    memory = {row["gpu_model"]: int(row["gpu_memory_gib"]) for row in _rows("gpu_offers.csv")}
    gpus = [GpuModel(name=name, memory_gib=gib) for name, gib in (memory | EXTRA_GPU_MEMORY_GIB).items()]
    session.add_all(gpus)
    session.flush()
    return {g.name: g.id for g in gpus}  # type: ignore[misc]


def _load_egress(session: Session, providers: dict[str, int], version: int) -> None:
    """egress.csv: each provider's tier table, checked to be contiguous before it is stored."""
    tables: dict[str, list[dict[str, str]]] = {}
    for row in _rows("egress.csv"):
        tables.setdefault(row["provider"], []).append(row)
    for provider, lines in tables.items():
        tiers = [
            (Decimal(r["from_gb"]), Decimal(r["to_gb"]) if r["to_gb"] else None, Decimal(r["usd_per_gb"]))
            for r in lines
        ]
        check_tiers(priced_tiers(tiers))
        for (from_gb, to_gb, usd_per_gb), r in zip(tiers, lines, strict=True):
            session.add(
                EgressTierVersion(provider_id=providers[provider], from_gb=from_gb, to_gb=to_gb, usd_per_gb=usd_per_gb,
                                  source=r["source"], as_of=_date(r["as_of"]), notes=r["notes"], valid_from=version)
            )  # fmt: skip


def _load_storage(session: Session, providers: dict[str, int], version: int) -> None:
    """The one storage price the research holds (seed_data/README.md)."""
    session.add(
        StoragePrice(
            provider_id=providers["runpod"],
            usd_per_gb_month=Decimal("0.07"),
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
    countries = {(r["provider"], r["region"]): r["country"] for r in _rows("region_countries.csv")}
    for row in _rows("gpu_offers.csv"):
        bare_metal = row["provider"] == "oci" and row["instance_type"].startswith("BM.")
        common = dict(
            tenancy=Tenancy.BARE_METAL if bare_metal else Tenancy.VIRTUALIZED,
            gpus_per_unit=int(row["gpu_count"]),
            price_period=PricePeriod.HOUR,
            region_country=countries[row["provider"], row["region"]],
            source_url=_source_url(row["source"]),
            as_of=_date(row["as_of"]),
        )
        for billing, price in [
            (Billing.ON_DEMAND, row["price_per_hour_usd"]),
            (Billing.SPOT, row["spot_price_per_hour_usd"]),
        ]:
            if price:
                yield _offer(row["provider"], row["gpu_model"], row["instance_type"], row["region"], billing,
                             price_usd=Decimal(price), **common)  # fmt: skip


def _committed_offers(known_gpus: set[str]) -> Iterator[OfferRow]:
    """committed_offers.csv: reserved and dedicated prices; a yearly price is billed monthly."""
    for row in _rows("committed_offers.csv"):
        if row["gpu_model"] not in known_gpus or not row["gpu_count"]:
            continue  # Paperspace rows: GPU memory or GPUs per price not stated (see README)
        per_year = row["price_period"] == "year"
        months = int(row["min_commitment_months"]) if row["min_commitment_months"] else 12 if per_year else None
        yield _offer(
            row["provider"], row["gpu_model"], row["product"], "not stated",
            Billing.MONTHLY if per_year else Billing.COMMITTED,
            tenancy=row["tenancy"],
            gpus_per_unit=int(row["gpu_count"]),
            price_usd=Decimal(row["price_usd"]),
            price_period=row["price_period"],
            min_commitment_months=months,
            source_url=row["source_url"],
            as_of=_date(row["read_on"]),
            notes=("Published per year: billed here as 1/12 a month for at least 12 months. " if per_year else "")
            + row["notes"],
        )  # fmt: skip


def _serverless_offers() -> Iterator[OfferRow]:
    """serverless_gpu_prices.csv: one per-second list rate per provider and GPU."""
    for row in _rows("serverless_gpu_prices.csv"):
        if not _serverless_row_shipped(row):
            continue
        per_second = bool(row["usd_per_second"])
        for gpu in SERVERLESS_GPUS[row["gpu"]]:
            yield _offer(
                row["provider"], gpu, f"{row['product']} ({row['gpu']})", "platform-scheduled", Billing.PER_SECOND,
                tenancy=Tenancy.SERVERLESS,
                gpus_per_unit=1,
                price_usd=Decimal(row["usd_per_second"] or row["usd_per_hour"]),
                price_period=PricePeriod.SECOND if per_second else PricePeriod.HOUR,
                source_url=row["source_url"],
                as_of=_date(row["as_of"]),
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
