from collections import Counter
from decimal import Decimal

import pytest

from app.catalog.seed import rows_of
from app.catalog.selection import select_offers
from app.catalog.updates import SHIPPED_UPDATES
from app.costing.terms import RENTED, Tenancy
from app.costing.tiers import check_tiers, tiered_cost
from tests.databases import BACKENDS
from tests.factories import shipped_catalogs


@pytest.fixture(scope="module", params=BACKENDS)
def catalogs(request):
    """The shipped catalog and its updates as each backend gives them back (none of these checks writes)."""
    return shipped_catalogs(request.param)


@pytest.fixture(scope="module")
def shipped(catalogs):
    return catalogs.current()


def egress_usd(catalog, slug, gb):
    return tiered_cost(gb, catalog.providers[slug].egress_table)


def storage_usd(catalog, slug, gb):
    return tiered_cost(gb, catalog.providers[slug].storage_table)


def test_shipped_catalog_holds_offers_of_all_three_tenancies(shipped):
    counts = Counter(o.priced.tenancy for o in shipped.offers)
    assert set(counts) == set(RENTED) and min(counts.values()) > 0


def test_every_shipped_price_names_a_source_link(shipped):
    assert all(o.row.source_url.startswith("https://") for o in shipped.offers)


def test_every_shipped_egress_table_is_contiguous_from_zero(shipped):
    for provider in shipped.providers.values():
        if provider.egress_tiers:
            check_tiers(provider.egress_table)
        if provider.storage:
            check_tiers(provider.storage_table)


def test_each_shipped_update_is_a_catalog_version_of_its_own(catalogs, shipped):
    assert shipped.version == 1 + len(SHIPPED_UPDATES)


def test_ibm_egress_tiers_are_terabytes_60_000_gb_out_cost_5_224(shipped):
    """IBM COS: 0-50 TB 0.09, next 100 TB 0.07: 51,200 x 0.09 = 4,608 + 8,800 x 0.07 = 616 = 5,224.00 USD;
    past 500 TB IBM says "contact us": no price."""
    assert egress_usd(shipped, "ibm", 60_000) == pytest.approx(5_224.00)
    assert egress_usd(shipped, "ibm", 600_000) is None


def test_digitalocean_egress_is_a_cent_per_gib_on_every_gb_as_an_upper_bound(shipped):
    """0.01 USD/GiB = 0.00931323 USD/GB; the GPU Droplet's allowance is not published, not deducted:
    1,000 GB = 9.31 USD."""
    assert egress_usd(shipped, "do", 1_000) == pytest.approx(9.31323)


def test_oci_first_10_tb_a_month_are_free_then_0_0085(shipped):
    """10,240 GB free; 11,240 GB: 1,000 x 0.0085 = 8.50 USD."""
    assert egress_usd(shipped, "oci", 10_240) == 0
    assert egress_usd(shipped, "oci", 11_240) == pytest.approx(8.50)


def test_checkpoint_storage_names_its_kind_and_product_and_prices_published_tiers(shipped):
    """Modal: 1 TiB (1,099.51 GB) free, then 0.09/GiB = 0.08381903/GB: 1,500 GB = 400.488 x 0.08381903
    = 33.57 USD. RunPod network volume: 1,024 x 0.07 + 976 x 0.05 = 120.48 USD for 2,000 GB.
    OCI Balanced block volume: 0.0255 + 0.017 = 0.0425: 500 GB = 21.25 USD."""
    modal, runpod, oci = (shipped.providers[s].storage for s in ("modal", "runpod", "oci"))
    assert (modal.kind, runpod.kind, oci.kind) == ("shared_filesystem", "shared_filesystem", "block_volume")
    assert storage_usd(shipped, "modal", 1_500) == pytest.approx(33.5685, abs=1e-4)
    assert storage_usd(shipped, "runpod", 2_000) == pytest.approx(120.48)
    assert storage_usd(shipped, "oci", 500) == pytest.approx(21.25)
    assert "Balanced" in oci.product


def test_every_researched_fact_ships_with_its_source_quote_and_publisher(shipped):
    """Each egress, storage and headquarters row of the research ships as read: same source, as-of,
    publisher kind and quote; a priced row always names a web source and who published it."""
    newest = {(r["provider"], r["fact"]): r for r in rows_of("provider_facts_2026_12.csv")}
    earlier = [r for r in rows_of("provider_facts_2026_11.csv") if (r["provider"], r["fact"]) not in newest]
    for row in [*earlier, *rows_of("provider_facts_2026_12.csv")]:
        p = shipped.providers[row["provider"]]
        if row["fact"] == "headquarters":
            facts = [p.headquarters]
            assert p.hq_country == (row["country"] or None)
        else:
            facts = p.egress_tiers if row["fact"] == "egress" else p.storage.tiers
        assert any((f.source or "", f.quote, f.source_kind) == (row["source"], row["quote"], row["source_kind"])
                   for f in facts), row  # fmt: skip
        if row.get("usd", row.get("price")):
            assert row["source"].startswith("https://") and row["source_kind"] in (
                "official",
                "transcription",
                "third_party",
            )


def test_every_shipped_fact_is_a_row_of_the_research_with_its_quote_date_and_publisher():
    """The shipped file is read from egress_storage_hq.csv: each of its rows has a research row of the
    same provider and kind with the same quote, whose as-of starts with the shipped date, and whose
    publisher column agrees (OCI's storage, a sum with a transcribed part, ships as a transcription)."""
    research = list(rows_of("egress_storage_hq.csv"))
    kinds = {"egress": "egress", "storage": "storage", "headquarters": "hq"}
    for row in rows_of("provider_facts_2026_11.csv"):
        found = [r for r in research if (r["provider"], r["kind"], r["quote"]) == (row["provider"], kinds[row["fact"]],
                                                                                   row["quote"])]  # fmt: skip
        assert found, row
        assert any(r["as_of"].startswith(row["as_of"]) for r in found), row
        publishers = {PUBLISHER[r["official"].split(" ")[0]] for r in found}
        if (row["provider"], row["fact"]) != ("oci", "storage"):  # a sum with a transcribed part
            assert row["source_kind"] in publishers, (row, publishers)


PUBLISHER = {"yes": "official", "transcription": "transcription", "third-party": "third_party", "": ""}
"""The research's `official` column, by its first word, as the catalog names who published a fact."""


def test_headquarters_the_research_did_not_find_are_unknown_not_assumed(catalogs, shipped):
    """Modal's country was filled in from memory in the first catalog; the research found no source."""
    assert catalogs.at(1).providers["modal"].hq_country == "US"
    assert shipped.providers["modal"].hq_country is None
    assert shipped.providers["nebius"].hq_country == "NL"


def test_the_first_catalog_keeps_the_facts_it_was_shipped_with(catalogs):
    """Saved scenarios quoted at version 1 keep their numbers: RunPod storage 0.07 flat, no IBM egress."""
    first = catalogs.at(1)
    assert storage_usd(first, "runpod", 2_000) == pytest.approx(140.00)
    assert first.providers["ibm"].egress_tiers == ()


def test_annual_bare_metal_price_ships_as_published(shipped):
    """Qubrid lists the 8x H100 server at 133,414.80 USD a year; we keep the year, not a derived month,
    and bill at least the year it is sold for."""
    qubrid = [o for o in select_offers(shipped, "H100", frozenset({Tenancy.BARE_METAL})) if o.provider.slug == "qubrid"]
    assert [(o.priced.price_usd, o.priced.period, o.priced.gpus_per_unit) for o in qubrid] == [(133_414.80, "year", 8)]
    assert qubrid[0].priced.min_commitment_months == 12
    assert qubrid[0].priced.usd_per_unit_month == pytest.approx(11_117.90)


def test_gcp_egress_published_per_gib_is_priced_per_gb(shipped):
    """0.12 USD per GiB = 0.12 / 1.073741824 = 0.1117587 USD per GB (stored to 8 places)."""
    tiers = shipped.providers["gcp"].egress_table
    assert tiers[1].usd_per_gb == pytest.approx(0.11175871)
    assert tiers[1].to_gb == pytest.approx(1099.511627776, abs=1e-9)


def test_eu_filter_keeps_only_data_centres_in_member_states(shipped):
    eu = select_offers(shipped, "H100", eu_only=True)
    assert eu and {o.row.region_country for o in eu} <= {"FI", "FR", "DE", "NL", "IE", "PL", "SE", "SI", "BG"}


def test_a_gpu_model_ships_with_the_memory_its_first_row_states(shipped):
    """gpu_offers.csv says L40S 48 GiB in 76 rows and 45 in 4, H200 141 before 140: the first holds."""
    assert (shipped.gpus["L40S"], shipped.gpus["H200"], shipped.gpus["H100"]) == (48, 141, 80)


def test_undated_shipped_prices_stay_undated(shipped):
    """SkyPilot's catalog files carry no date: 689 of the first 853 prices said "as of unknown"; the
    dated copies (dated-offers-2026-12) date 168 of them, so 521 still do; of the 159 offers of
    offers-eu-dedicated-2026-12, 24 are undated copies (545). 60 of those state no currency: listed,
    not quoted. Lambda's 6 1-Click Clusters (cluster-products-2026-12) are dated."""
    assert (len(shipped.offers), len(shipped.unpriced), shipped.undated) == (958, 60, 545)
    listed = [*shipped.offers, *shipped.unpriced]
    assert shipped.undated == sum(o.row.as_of is None for o in listed)


def test_model_presets_ship_with_their_config_source(shipped):
    """Llama 3.1 70B: 80 layers, 8 KV heads of 128; Qwen3-235B-A22B holds 235B parameters, 22B active;
    DeepSeek-R1 caches a latent of 512 + 64 values per token and layer."""
    llama, qwen, deepseek = (shipped.presets[k] for k in ("llama-3.1-70b", "qwen3-235b-a22b", "deepseek-r1"))
    assert (llama.layers, llama.kv_heads, llama.head_dim, llama.parameters) == (80, 8, 128, 70_000_000_000)
    assert (qwen.parameters, qwen.active_parameters, qwen.kv_heads) == (235_000_000_000, 22_000_000_000, 4)
    assert (deepseek.parameters, deepseek.active_parameters, deepseek.kv_latent) == (671e9, 37e9, 576)
    config_hosts = ("https://huggingface.co/", "https://github.com/")
    assert all(p.source.startswith(config_hosts) for p in shipped.presets.values())
    assert len(shipped.presets) == 13


def test_throughput_ships_with_its_benchmark_conditions_and_source(shipped):
    """TensorRT-LLM v1.0's table: Llama 3.3 70B (the 3.1 70B architecture) on one H200 at FP8, 1,000
    tokens in and out, offline: 2,909 output tokens per second. H100 SXM's dense BF16 peak: 989.4 TFLOPS."""
    (h200,) = [t for t in shipped.throughput if t.key == "llama-3.1-70b/h200x1/fp8/trt-llm-1.0/offline/1000-1000"]
    assert (h200.model, h200.preset, h200.gpu, h200.gpus, h200.precision) == (
        "Llama 3.3 70B Instruct", "llama-3.1-70b", "H200", 1, "fp8",
    )  # fmt: skip
    assert (h200.input_tokens, h200.output_tokens, h200.ttft_ms, h200.tokens_per_s) == (1000, 1000, None, 2909)
    assert h200.source.startswith("https://github.com/NVIDIA/TensorRT-LLM/blob/00f37686")
    assert "2,909" in h200.quote and h200.as_of is None and "date not checked" in h200.notes
    peak = shipped.peaks["H100", "bf16"]
    assert (peak.dense_tflops, peak.source) == (989.4, "https://glennklockwood.com/garden/processors/h100")
    assert "989.4" in peak.quote


def test_a_latency_bound_run_keeps_its_latencies_and_training_its_per_gpu_rate(shipped):
    """Llama 3.1 8B on one H100 at BF16, 16 requests a second: mean TTFT 30 ms, 11 ms between tokens,
    3,765 output tokens per second. Llama 3 70B pre-training on 64 H100s: 1,602 tokens/s per GPU."""
    by_key = {t.key: t for t in shipped.throughput}
    online = by_key["llama-3.1-8b/h100x1/bf16/trt-llm-0.14-triton/latency_bound/467-256/qps-16"]
    assert (online.ttft_ms, online.tbt_ms, online.tokens_per_s) == (30, 11, 3765)
    assert online.latency_published == "mean TTFT 30 ms, mean ITL 11 ms"
    training = by_key["llama-3.1-70b/h100x64/fp8/nemo-25.11/pretraining/8192"]
    assert (training.kind, training.gpus, training.sequence_length, training.tokens_per_s) == (
        "training",
        64,
        8192,
        1602,
    )


def test_every_shipped_benchmark_is_of_a_catalog_preset_and_gpu_with_a_source_and_quote(shipped):
    """24 benchmarks (20 inference, 4 training) and 7 peaks, then 286 inference and 19 training more, 33
    more peaks and 27 bandwidths; fork copies of the publisher's files are transcriptions."""
    kinds = Counter(t.kind for t in shipped.throughput)
    assert (kinds["inference"], kinds["training"], len(shipped.peaks)) == (306, 23, 40)
    assert len(shipped.bandwidths) == 27
    for t in shipped.throughput:
        assert t.gpu in shipped.gpus and t.parameters == shipped.presets[t.preset].parameters, t.key
        assert t.source.startswith("https://") and t.quote and t.source_kind in ("official", "transcription"), t.key
    facts = [*shipped.peaks.values(), *shipped.bandwidths.values()]
    assert all(f.source.startswith("https://") and f.quote for f in facts)
    assert shipped.peaks["B200", "bf16"].source_kind == "third_party"
    assert shipped.peaks["A100", "bf16"].dense_tflops == shipped.peaks["A100-80GB", "bf16"].dense_tflops == 312


def test_mlperf_runs_ship_their_dataset_lengths_and_the_per_gpu_rows_their_deployment(shipped):
    """An MLPerf run states the output its accuracy pass averaged (274.0 a request) and no input length,
    which MLPerf does not publish; TensorRT-LLM's newest document gives tokens/s per GPU: 1,416 on each of
    4 RTX PRO 6000 is 5,664 for the deployment."""
    by_key = {t.key: t for t in shipped.throughput}
    mlperf = by_key["llama-2-70b/b200x1/bf16/mlperf-4.1-nvidia-offline/offline"]
    assert (mlperf.input_tokens, mlperf.output_tokens, mlperf.tokens_per_s) == (None, 274, 11264.4)
    assert mlperf.as_of.isoformat() == "2024-08-28" and "whose mean input length is not published" in mlperf.notes
    per_gpu = by_key["qwen3-30b-a3b/rtx-pro-6000x4/fp4/trt-llm-doc-03e27c7/offline/8192-1024"]
    assert (per_gpu.gpus, per_gpu.tokens_per_s, per_gpu.as_of) == (4, 5664, None)
    virtualized = [t for t in shipped.throughput if t.virtualized]
    assert {(t.gpu, t.preset) for t in virtualized} == {("H200", "llama-2-70b"), ("H200", "llama-3.1-405b")}
    assert shipped.bandwidths["H100"].tb_per_s == 3.35 and shipped.gpus["MI355X"] == 288


def test_the_catalog_before_the_second_benchmark_update_holds_the_first_only(catalogs):
    before = catalogs.at(version_before("throughput-more-2026-12"))
    assert (len(before.throughput), len(before.peaks), before.bandwidths) == (24, 7, {})


def version_before(update):
    """The catalog version just before a shipped update's (version 1 is the seed, then one per update)."""
    return 1 + [name for name, _, _ in SHIPPED_UPDATES].index(update)


def test_earlier_catalog_versions_hold_no_benchmarks(catalogs):
    before = catalogs.at(version_before("throughput-2026-12"))
    assert before.throughput == () and before.peaks == {}


def test_the_ecb_euro_rate_ships_with_its_source_date_and_quote(shipped):
    """The ECB's reference rate of 2026-04-13: 1 EUR = 1.1684 USD, read from a stored copy of its file."""
    rate = shipped.rates["EUR"]
    assert (rate.usd_per_unit, rate.as_of.isoformat(), rate.source_kind) == (
        Decimal("1.1684"),
        "2026-04-13",
        "transcription",
    )
    assert rate.source == "https://www.ecb.europa.eu/stats/eurofxref/eurofxref.zip"
    assert rate.quote == "Date, USD, JPY, CZK, ... | 13 April 2026, 1.1684, 186.75, 24.378, ..."


def test_catalog_versions_before_the_rate_hold_none(catalogs):
    assert catalogs.at(version_before("ecb-rate-2026-04")).rates == {}
