"""Data updates shipped with the code after the first catalog (seed.py), each applied once to each
database as a catalog version of its own: saved scenarios keep the facts they were quoted with.

An update is a file in seed_data/ and the function that applies it; ShippedUpdate records which
ones a database has. Workers starting together take turns (`bring_up_to_date`); should a process
load without the turn, ShippedUpdate's primary key still stops it applying an update twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.catalog.changes import new_version
from app.catalog.dated_offers import dated_offers_2026_12
from app.catalog.eu_dedicated import offers_eu_dedicated_2026_12, offers_of_rows
from app.catalog.fabric import FABRIC_CHECKS, OfferFabricVersion
from app.catalog.rates import exchange_rate
from app.catalog.rows import gpu_name, memory_gib
from app.catalog.seed import rows_of, seed_if_empty
from app.catalog.server_rows import SERVER_CHECKS, power_refused, server_key
from app.catalog.server_tables import OwnedServerVersion
from app.catalog.shipped_facts import provenance, replace_provider_facts
from app.catalog.shipped_history import price_history_2026_12
from app.catalog.tables import (
    ExchangeRate,
    GpuModel,
    ModelPresetVersion,
    Provider,
    ShippedUpdate,
)
from app.catalog.throughput_rows import (
    BANDWIDTH_CHECKS,
    BENCHMARK_CHECKS,
    PEAK_CHECKS,
    SCALING_CHECKS,
    conditions_refused,
)
from app.catalog.throughput_tables import (
    GpuBandwidthVersion,
    GpuPeakVersion,
    ThroughputVersion,
    TrainingScalingVersion,
)
from app.platform.db import make_engine, migration_lock, upgrade_schema


def provider_facts_2026_11(session: Session, version: int) -> None:
    """Published egress tiers, checkpoint storage and headquarters (egress_storage_hq.csv, read into
    provider_facts_2026_11.csv; see seed_data/README.md), in USD."""
    replace_provider_facts(session, version, rows_of("provider_facts_2026_11.csv"), amount="usd")


def _presets(session: Session, version: int, file: str) -> None:
    """A file's model presets, each unless one of its key is current (an admin may have added it)."""
    current = set(session.exec(select(ModelPresetVersion.key).where(col(ModelPresetVersion.valid_to).is_(None))))
    for row in rows_of(file):
        if row["key"] in current:
            continue
        session.add(
            ModelPresetVersion(
                key=row["key"], name=row["name"], parameters=int(row["parameters"]),
                active_parameters=int(row["active_parameters"]) if row["active_parameters"] else None,
                parameters_source=row["parameters_source"], layers=int(row["layers"]),
                hidden_size=int(row["hidden_size"]), attention_heads=int(row["attention_heads"]),
                kv_heads=int(row["kv_heads"]), head_dim=int(row["head_dim"]),
                kv_latent=int(row["kv_latent"]) if row.get("kv_latent") else None,
                default_context=int(row["default_context"]), valid_from=version, **provenance(row),
            )
        )  # fmt: skip


def model_presets_2026_11(session: Session, version: int) -> None:
    """Published architectures of common open models (model_presets_2026_11.csv, read from their
    config files and model cards; see seed_data/README.md)."""
    _presets(session, version, "model_presets_2026_11.csv")


def _on_gpus(
    session: Session,
    file: str,
    checks: dict[str, Callable[[str], object]],
    refused: Callable[[dict[str, Any]], dict[str, str]] = lambda _: {},
) -> Iterator[tuple[dict[str, str], dict[str, Any]]]:
    """Each row of a shipped file with its fields read through the checks an admin's edit passes (and
    refused by its key where `refused` finds fault with them), its GPU model named by id."""
    gpus = {g.name: g.id for g in session.exec(select(GpuModel)) if g.id is not None}
    for row in rows_of(file):
        fields: dict[str, Any] = {name: check(row[name]) for name, check in checks.items()}
        if why := refused(fields):
            raise ValueError(f"{row['key']}: {why}")
        fields["gpu_model_id"] = gpus[fields.pop("gpu")]
        yield row, fields


def throughput_2026_12(session: Session, version: int) -> None:
    """Throughput benchmarks and GPUs' dense peaks (throughput_2026_12.csv and gpu_peaks_2026_12.csv,
    read from the team's throughput.csv; see seed_data/README.md), the first of either."""
    for row, benchmark in _on_gpus(session, "throughput_2026_12.csv", BENCHMARK_CHECKS, conditions_refused):
        session.add(ThroughputVersion(key=row["key"], parameters=int(row["parameters"]), valid_from=version,
                                      **benchmark, **provenance(row)))  # fmt: skip
    for row, peak in _on_gpus(session, "gpu_peaks_2026_12.csv", PEAK_CHECKS):
        session.add(GpuPeakVersion(valid_from=version, **peak, **provenance(row)))


def throughput_more_2026_12(session: Session, version: int) -> None:
    """The benchmarks of MLPerf Inference, TensorRT-LLM, AMD and NeMo, the GPU models and presets they
    need, and every GPU model's bandwidth and peaks a source states: what the estimate of a job without a
    benchmark rests on (throughput_more_2026_12.csv and beside it; see seed_data/README.md). What an
    admin made current already (a GPU model, a preset, a benchmark's key, a peak) stays."""
    known_gpus = set(session.exec(select(GpuModel.name)))
    for row in rows_of("benchmark_gpus_2026_12.csv"):
        if row["gpu"] not in known_gpus:
            session.add(GpuModel(name=gpu_name(row["gpu"]), memory_gib=memory_gib(row["memory_gib"])))
    session.flush()
    _presets(session, version, "model_presets_2026_12.csv")
    current = set(session.exec(select(ThroughputVersion.key).where(col(ThroughputVersion.valid_to).is_(None))))
    for row, benchmark in _on_gpus(session, "throughput_more_2026_12.csv", BENCHMARK_CHECKS, conditions_refused):
        if row["key"] not in current:
            session.add(
                ThroughputVersion(
                    key=row["key"], parameters=int(row["parameters"]), virtualized=row["virtualized"] == "yes",
                    valid_from=version, **benchmark, **provenance(row),
                )
            )  # fmt: skip
    peaks = {
        (p.gpu_model_id, p.precision)
        for p in session.exec(select(GpuPeakVersion).where(col(GpuPeakVersion.valid_to).is_(None)))
    }
    for row, peak in _on_gpus(session, "gpu_peaks_more_2026_12.csv", PEAK_CHECKS):
        if (peak["gpu_model_id"], peak["precision"]) not in peaks:
            session.add(GpuPeakVersion(valid_from=version, **peak, **provenance(row)))
    for row, bandwidth in _on_gpus(session, "gpu_bandwidth_2026_12.csv", BANDWIDTH_CHECKS):
        session.add(GpuBandwidthVersion(valid_from=version, **bandwidth, **provenance(row)))


def runs_across_nodes_2026_12(session: Session, version: int) -> None:
    """MLPerf Training v5.1's runs of Llama 3.1 405B at several cluster sizes, with their rates per GPU
    worked out from the logs (training_scaling_2026_12.csv): what a run across nodes keeps per doubling of
    its GPUs; and each product's fabric inside and between nodes where a source states it
    (offer_fabric_2026_12.csv; see seed_data/README.md). A column the file lacks (min_cluster_gpus, added
    after it shipped) reads as not stated."""
    for row, run in _on_gpus(session, "training_scaling_2026_12.csv", SCALING_CHECKS):
        session.add(TrainingScalingVersion(valid_from=version, **run, **provenance(row)))
    providers = {p.name: p.id for p in session.exec(select(Provider)) if p.id is not None}
    for row in rows_of("offer_fabric_2026_12.csv"):
        fabric: dict[str, Any] = {name: check(row.get(name, "")) for name, check in FABRIC_CHECKS.items()}
        session.add(OfferFabricVersion(provider_id=providers[row["provider"]], valid_from=version, **fabric,
                                       **provenance(row)))  # fmt: skip


def cluster_products_2026_12(session: Session, version: int) -> None:
    """Lambda's 1-Click Clusters of 16, 64 and 256 H100 or B200 GPUs, priced as a third party copied them
    (cluster_offers_2026_12.csv), each with its InfiniBand fabric and the one size it is priced at
    (offer_fabric_clusters_2026_12.csv; see seed_data/README.md)."""
    offers_of_rows(session, version, rows_of("cluster_offers_2026_12.csv"))
    providers = {p.name: p.id for p in session.exec(select(Provider)) if p.id is not None}
    for row in rows_of("offer_fabric_clusters_2026_12.csv"):
        fabric: dict[str, Any] = {name: check(row[name]) for name, check in FABRIC_CHECKS.items()}
        session.add(OfferFabricVersion(provider_id=providers[row["provider"]], valid_from=version, **fabric,
                                       **provenance(row)))  # fmt: skip


def owned_servers_2026_12(session: Session, version: int) -> None:
    """Servers a buyer may own, with their dated purchase prices (owned_servers_2026_12.csv, read from the
    team's tco_inputs.csv; see seed_data/README.md): reseller list, archived and quoted prices, none a
    transaction price, each in the currency it was published in, with power only where a source states it."""
    for row, server in _on_gpus(session, "owned_servers_2026_12.csv", SERVER_CHECKS, power_refused):
        session.add(OwnedServerVersion(key=server_key(row["key"]), valid_from=version, **server, **provenance(row)))


def ecb_rate_2026_04(session: Session, version: int) -> None:
    """The ECB's euro reference rate of 2026-04-13 (exchange_rates_2026_04.csv, read from the team's
    eur_usd_ecb.csv; see seed_data/README.md), so that EUR works on a fresh install. A rate an admin
    saved that is as new or newer stays current: a shipped rate never takes a later one back."""
    for row in rows_of("exchange_rates_2026_04.csv"):
        shipped = provenance(row)
        current = session.exec(
            select(ExchangeRate).where(ExchangeRate.currency == row["currency"], col(ExchangeRate.valid_to).is_(None))
        ).first()
        if current is not None and current.as_of is not None and current.as_of >= shipped["as_of"]:
            continue
        if current is not None:
            current.valid_to = version
            session.add(current)
        usd = exchange_rate(row["usd_per_unit"])
        session.add(ExchangeRate(currency=row["currency"], usd_per_unit=usd, valid_from=version, **shipped))


SHIPPED_UPDATES: list[tuple[str, str, Callable[[Session, int], None]]] = [
    (
        "provider-facts-2026-11",
        "Published egress, checkpoint storage and headquarters with quotes and sources "
        "(seed_data/provider_facts_2026_11.csv): IBM tiers in TB, DigitalOcean 0.01 USD/GiB, OCI 10 TB free",
        provider_facts_2026_11,
    ),
    (
        "model-presets-2026-11",
        "Model presets: published architectures of Llama 3.1 8B/70B/405B, Mistral 7B, Mixtral 8x7B, Qwen2.5 72B "
        "and Qwen3-235B-A22B (seed_data/model_presets_2026_11.csv)",
        model_presets_2026_11,
    ),
    (
        "throughput-2026-12",
        "Throughput benchmarks of Llama 3.1 8B/70B/405B (TensorRT-LLM, vLLM on ROCm, NeMo pre-training) and dense "
        "peak TFLOPS of H100, H200, B200, A100 and MI300X (seed_data/throughput_2026_12.csv, gpu_peaks_2026_12.csv)",
        throughput_2026_12,
    ),
    (
        "ecb-rate-2026-04",
        "Exchange rate: the ECB's euro reference rate of 2026-04-13, 1 EUR = 1.1684 USD "
        "(seed_data/exchange_rates_2026_04.csv)",
        ecb_rate_2026_04,
    ),
    (
        "dated-offers-2026-12",
        "Dated copies of 171 on-demand offers shipped undated or older: 109 confirm their price, 62 reprice it "
        "(GCP, OCI, AWS, Azure, Lambda, Nebius, Hyperstack, Jarvislabs, Paperspace, RunPod; "
        "seed_data/dated_offers_2026_12.csv)",
        dated_offers_2026_12,
    ),
    (
        "offers-eu-dedicated-2026-12",
        "The dedicated and EU side of the market: 159 offers in the currency they are published in (Scaleway, "
        "OVHcloud, Hetzner with setup fees, Gcore, Leafcloud, evroc, Seeweb, Lyceum, Latitude, Voltage Park, "
        "CoreWeave, Verda and others), 10 providers, their egress, storage and headquarters "
        "(seed_data/offers_2026_12.csv and beside it)",
        offers_eu_dedicated_2026_12,
    ),
    (
        "owned-servers-2026-12",
        "Servers to own: 8 dated purchase prices of 8-GPU H100, H200 and MI300X configurations (DGX H100 from "
        "SemiAnalysis's estimate, Delta Computer in EUR and Viperatech, with 10.2 kW; Supermicro from Dihuni; HGX "
        "H100 and H200 whose host is not stated; an MI300X board; Thinkmate's quote) "
        "(seed_data/owned_servers_2026_12.csv)",
        owned_servers_2026_12,
    ),
    (
        "price-history-2026-12",
        "Price history: 736 dated points per GPU-hour of H100, A100, A100-80GB and H200 from before the catalog "
        "kept prices (AWS p5 12.29 -> 6.88 on 2025-06-05, GCP monthly since 2022-02, RunPod, Lambda, Nebius, "
        "Prime Intellect's minima apart) with their sources and quotes (seed_data/price_history_2026_12.csv)",
        price_history_2026_12,
    ),
    (
        "throughput-more-2026-12",
        "286 more serving benchmarks (MLPerf Inference v4.1, v5.1 and v6.0, TensorRT-LLM, AMD, Oracle) and 19 "
        "training ones (NeMo 25.11) on 14 GPU models; 6 GPU models they ran on, 6 presets (Llama 2 70B, "
        "DeepSeek-R1, gpt-oss-120b and 20b, Qwen3-30B-A3B, Llama 4 Maverick); memory bandwidth of 27 GPU models "
        "and 33 more dense peaks (seed_data/throughput_more_2026_12.csv and beside it)",
        throughput_more_2026_12,
    ),
    (
        "runs-across-nodes-2026-12",
        "Runs across nodes: MLPerf Training v5.1's 8 runs of Llama 3.1 405B on GB200, GB300, H200 and B200 at 256 to "
        "5,120 GPUs, each with its rate per GPU worked out from its log (seed_data/training_scaling_2026_12.csv)",
        runs_across_nodes_2026_12,
    ),
    (
        "cluster-products-2026-12",
        "Cluster products: Lambda's 1-Click Clusters of 16, 64 and 256 H100 (6.16, 5.85, 5.54 USD per GPU-hour) "
        "and B200 (9.86, 9.36, 8.87), as a third party copied them on 2026-05-25, with their InfiniBand fabric "
        "(seed_data/cluster_offers_2026_12.csv, offer_fabric_clusters_2026_12.csv)",
        cluster_products_2026_12,
    ),
]
"""In the order they were shipped; never edit one that has shipped: add another."""


def apply_shipped_updates(session: Session) -> None:
    done = set(session.exec(select(ShippedUpdate.name)))
    for name, note, apply in SHIPPED_UPDATES:
        if name in done:
            continue
        version = new_version(session, note, record=f"shipped update {name}")
        session.add(ShippedUpdate(name=name, catalog_version=version))
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
            return
        apply(session, version)
        session.commit()


def load_shipped_catalog(session: Session) -> None:
    """The shipped catalog and every update since, on a new database or one that lags behind."""
    seed_if_empty(session)
    apply_shipped_updates(session)


def bring_up_to_date(url: str, remake_lost: bool = False) -> None:
    """The schema at head and the shipped catalog loaded: what every start of the app and `python -m
    app.admin migrate` do, one process at a time, so that the first does it and the others find it done.
    A SQLite file made before and lost is DatabaseMissing, unless `remake_lost` (the migrate command)."""
    with migration_lock(url, remake_lost):
        upgrade_schema(url)
        engine = make_engine(url)
        try:
            with Session(engine) as session:
                load_shipped_catalog(session)
        finally:
            engine.dispose()
