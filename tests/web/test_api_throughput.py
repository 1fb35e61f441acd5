"""GET /api/throughput: the benchmarks and dense peaks at a catalog version, each with its source."""

from decimal import Decimal

from app.catalog.changes import Change
from app.catalog.tables import Provenance
from app.catalog.throughput_changes import save_peak
from tests.factories import hand_checked_catalog, make_benchmark

DATASHEET = Provenance(source="https://example.test/h100", source_kind="transcription", quote="BF16 | 989.4")


def test_benchmarks_and_peaks_come_with_their_conditions_and_sources(client, session):
    hand_checked_catalog(session)
    make_benchmark(session)
    save_peak(session, "H100", "bf16", Decimal("989.4"), DATASHEET, Change("datasheet", "alice"))
    answer = client.get("/api/throughput").json()
    (benchmark,) = answer["benchmarks"]
    assert benchmark == {
        "key": "llama-3.1-8b/h100x1/fp8/trt-llm-1.0/offline/1000-1000", "kind": "inference",
        "model": "Llama 3.1 8B Instruct", "preset": "llama-3.1-8b", "parameters": 8_000_000_000, "gpu": "H100",
        "gpus": 1, "precision": "fp8", "precision_published": "FP8", "engine": "TensorRT-LLM v1.0 trtllm-bench",
        "scenario": "offline", "input_tokens": 1000, "output_tokens": 1000, "sequence_length": None, "ttft_ms": None,
        "tbt_ms": None, "latency_published": "none", "tokens_per_s": 15220.0,
        "source": "https://example.test/perf-overview.md", "as_of": "2026-11-20", "source_kind": "official",
        "quote": "| 1000/1000 | 17,744 | 15,220 |", "notes": "", "read_from": "", "virtualized": False,
    }  # fmt: skip
    peak = {"gpu": "H100", "precision": "bf16", "dense_tflops": 989.4, **DATASHEET.model_dump(), "read_from": ""}
    assert answer["peaks"] == [peak]
    assert (answer["bandwidths"], answer["estimate_checks"], answer["estimate_error_median"]) == ([], [], None)
    assert answer["catalog_version"] == 3


def test_an_earlier_catalog_version_answers_with_what_it_held(client, session):
    """Version 1 (the hand-checked catalog) holds no benchmark; version 2 the first."""
    hand_checked_catalog(session)
    make_benchmark(session)
    make_benchmark(session, tokens_per_s=Decimal("15300"), based_on=2)
    assert client.get("/api/throughput?catalog_version=1").json()["benchmarks"] == []
    at_2 = client.get("/api/throughput?catalog_version=2").json()["benchmarks"]
    assert [b["tokens_per_s"] for b in at_2] == [15220]
    assert [b["tokens_per_s"] for b in client.get("/api/throughput").json()["benchmarks"]] == [15300]


def test_the_throughput_route_is_documented_with_its_fields(client):
    schema = client.get("/openapi.json").json()
    assert "404" in schema["paths"]["/api/throughput"]["get"]["responses"]
    fields = schema["components"]["schemas"]["BenchmarkOut"]["properties"]
    assert "whole deployment" in fields["tokens_per_s"]["description"]
