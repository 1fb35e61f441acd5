"""Plain functions that put catalog rows in a test database."""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal
from functools import cache

from sqlalchemy import Engine
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, SQLModel, create_engine, select

from app.catalog.changes import Change
from app.catalog.rows import offer_key
from app.catalog.snapshot import Catalogs, catalogs_for
from app.catalog.tables import (
    CatalogVersion,
    EgressTierVersion,
    GpuModel,
    OfferVersion,
    Provenance,
    Provider,
    ProviderHeadquarters,
    StoragePrice,
)
from app.catalog.throughput_changes import save_throughput
from app.catalog.updates import load_shipped_catalog
from app.platform.db import make_engine
from app.quoting.params.split import SPLIT_GPUS_MAX
from tests.databases import postgres


def make_version(session: Session, note: str = "test catalog") -> int:
    version = session.exec(select(CatalogVersion).order_by(CatalogVersion.id.desc())).first()  # type: ignore[union-attr]
    if version is None:
        version = CatalogVersion(note=note)
        session.add(version)
        session.flush()
    assert version.id is not None
    return version.id


def make_gpu(session: Session, name: str = "H100", memory_gib: int = 80) -> GpuModel:
    gpu = session.exec(select(GpuModel).where(GpuModel.name == name)).first()
    if gpu is None:
        gpu = GpuModel(name=name, memory_gib=memory_gib)
        session.add(gpu)
        session.flush()
    return gpu


def make_provider(
    session: Session,
    slug: str = "acme",
    hq_country: str | None = "US",
    tiers: list[tuple[float, float | None, str]] | None = None,
    storage: str | None = None,
    currency: str = "USD",
) -> Provider:
    """tiers: (from_gb, to_gb, per_gb) rows; storage: per GB-month; both in `currency`."""
    version = make_version(session)
    provider = Provider(slug=slug, name=slug.title())
    session.add(provider)
    session.flush()
    session.add(ProviderHeadquarters(provider_id=provider.id, country=hq_country, valid_from=version))
    for from_gb, to_gb, price in tiers or []:
        session.add(
            EgressTierVersion(
                provider_id=provider.id,
                from_gb=Decimal(str(from_gb)),
                to_gb=None if to_gb is None else Decimal(str(to_gb)),
                per_gb=Decimal(price),
                currency=currency,
                source="https://example.test/egress",
                valid_from=version,
            )
        )
    if storage is not None:
        session.add(
            StoragePrice(
                provider_id=provider.id,
                per_gb_month=Decimal(storage),
                currency=currency,
                source="https://example.test/s",
                valid_from=version,
            )
        )
    session.flush()
    return provider


def make_offer(
    session: Session,
    provider: Provider,
    price: str,
    tenancy: str = "virtualized",
    billing: str = "on_demand",
    period: str = "hour",
    gpus_per_unit: int = 1,
    gpu: str = "H100",
    region: str = "us-east-1",
    region_country: str | None = "US",
    min_commitment_months: int | None = None,
    setup_fee: str | None = None,
    source_url: str = "https://example.test/price",
    product: str | None = None,
    currency: str = "USD",
) -> OfferVersion:
    version = make_version(session)
    product = product or f"{tenancy} {billing} {price}"
    offer = OfferVersion(
        key=offer_key(provider.slug, product, gpu, region, billing, currency),
        provider_id=provider.id,
        gpu_model_id=make_gpu(session, gpu).id,
        product=product,
        tenancy=tenancy,
        billing=billing,
        gpus_per_unit=gpus_per_unit,
        price=Decimal(price),
        currency=currency,
        price_period=period,
        min_commitment_months=min_commitment_months,
        setup_fee=None if setup_fee is None else Decimal(setup_fee),
        region=region,
        region_country=region_country,
        source_url=source_url,
        as_of=date(2026, 11, 1),
        valid_from=version,
    )
    session.add(offer)
    session.commit()
    session.refresh(offer)
    return offer


LLAMA_8B_ON_H100 = {"kind": "inference", "model": "Llama 3.1 8B Instruct", "preset": "llama-3.1-8b",
                    "parameters": 8_000_000_000, "gpu": "H100", "gpus": 1, "precision": "fp8",
                    "precision_published": "FP8", "engine": "TensorRT-LLM v1.0 trtllm-bench", "scenario": "offline",
                    "input_tokens": 1000, "output_tokens": 1000, "sequence_length": None, "ttft_ms": None,
                    "tbt_ms": None, "latency_published": "none", "tokens_per_s": Decimal("15220")}  # fmt: skip
"""TensorRT-LLM v1.0's Llama 3.1 8B row on one H100 at FP8, 1,000 tokens in and out, as save_throughput takes it."""
READ_ON = Provenance(source="https://example.test/perf-overview.md", as_of=date(2026, 11, 20), source_kind="official",
                     quote="| 1000/1000 | 17,744 | 15,220 |")  # fmt: skip


def make_benchmark(session: Session, key: str = "llama-3.1-8b/h100x1/fp8/trt-llm-1.0/offline/1000-1000",
                   based_on: int | None = None, **changes: object) -> int:  # fmt: skip
    """LLAMA_8B_ON_H100 with `changes`, saved as a catalog version of its own: returns the version."""
    change = Change("test benchmark", "test", based_on)
    return save_throughput(session, key, LLAMA_8B_ON_H100 | changes, READ_ON, change)


FREE_100_THEN_9_CENTS = [(0, 100, "0"), (100, None, "0.09")]


def empty_database() -> Engine:
    """An in-memory SQLite database with the schema of the models, for one test."""
    engine = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
    _copy(_templates()[0], engine)
    return engine


def hand_checked_catalog(session: Session) -> dict[str, int]:
    """Cloud (US, 100 GB free then 0.09/GB): on demand 2.50/GPU-h; bare-metal host (DE HQ, in
    Germany, no egress fees): one-GPU node at 1,250 a month; serverless at 0.001 USD/s.

    On SQLite made once by the factories above and copied into each test's empty database, without
    paying for the ORM in every test; on PostgreSQL written by them into the new database, whose
    sequences start at 1: the same rows and ids every time. Returns the offers' ids."""
    session.commit()
    if session.get_bind().dialect.name != "sqlite":
        assert _make_hand_checked_catalog(session) == HAND_CHECKED_IDS
        return dict(HAND_CHECKED_IDS)
    _copy(_templates()[1], session.get_bind())  # type: ignore[arg-type]
    session.expire_all()
    return dict(HAND_CHECKED_IDS)


HAND_CHECKED_IDS = {"on_demand": 1, "node": 2, "serverless": 3}


def _make_hand_checked_catalog(session: Session) -> dict[str, int]:
    cloud = make_provider(session, "cloud", "US", FREE_100_THEN_9_CENTS)
    metal = make_provider(session, "metal", "DE", [(0, None, "0")])
    fn = make_provider(session, "fn", "US", [(0, None, "0")])
    return {
        "on_demand": make_offer(session, cloud, "2.50").id,
        "node": make_offer(
            session, metal, "1250", "bare_metal", "monthly", "month", region="fra1", region_country="DE"
        ).id,
        "serverless": make_offer(
            session, fn, "0.001", "serverless", "per_second", "second", region="any", region_country=None
        ).id,
    }


@cache
def _templates() -> tuple[Engine, Engine]:
    """The empty schema and the hand-checked catalog, each built once per test run."""
    empty = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
    SQLModel.metadata.create_all(empty)
    catalog = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
    _copy(empty, catalog)
    with Session(catalog) as session:
        assert _make_hand_checked_catalog(session) == HAND_CHECKED_IDS
    return empty, catalog


def _copy(source: Engine, target: Engine) -> None:
    """The whole database, through SQLite's backup: one page copy instead of every statement again."""
    with source.raw_connection() as src, target.raw_connection() as dst:
        src.driver_connection.backup(dst.driver_connection)  # type: ignore[union-attr]


@cache
def shipped_catalogs(backend: str = "sqlite") -> Catalogs:
    """The shipped catalog and its updates, loaded once per test run and backend for the tests that only read it."""
    if backend == "sqlite":
        engine = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
        SQLModel.metadata.create_all(engine)
    else:
        engine = make_engine(postgres().url_of(postgres().schema_database()))
    with Session(engine) as session:
        load_shipped_catalog(session)
    return catalogs_for(engine)


def scattered_year(seed: int = 40) -> str:
    """The heaviest split there is: a year of hours (8,760), each a number of GPUs in use drawn between
    0 and the 1,024 a profile may reach (seeded, no one's data), so that every base up to the peak is
    priced. About a second of one process's CPU to split on the shipped catalog."""
    draw = random.Random(seed)
    return "\n".join(str(draw.randint(0, SPLIT_GPUS_MAX)) for _ in range(8_760))
