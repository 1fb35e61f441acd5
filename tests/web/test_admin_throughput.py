"""Admins add and change throughput benchmarks, GPU models' dense peaks and memory bandwidths as new
catalog versions; a bad value is refused under its field, a stale form with the change that came first."""

from dataclasses import replace

import pytest

from app.catalog.snapshot import catalogs_for
from tests.web.helpers import csrf, html, versions

KEY = "llama-3.1-8b/h100x1/fp8/trt-llm-1.0/offline/1000-1000"
BENCHMARK = {"key": KEY, "kind": "inference", "model": "Llama 3.1 8B Instruct", "preset": "llama-3.1-8b",
             "parameters_b": "8", "gpu": "H100", "gpus": "1", "precision": "fp8", "precision_published": "FP8",
             "engine": "TensorRT-LLM v1.0 trtllm-bench", "scenario": "offline", "input_tokens": "1000",
             "output_tokens": "1000", "sequence_length": "", "ttft_ms": "", "tbt_ms": "", "latency_published": "none",
             "tokens_per_s": "15220", "source": "https://example.test/perf-overview.md", "as_of": "2026-11-20",
             "source_kind": "official", "quote": "| 1000/1000 | 17,744 | 15,220 |", "notes": "H100 SXM",
             "note": "TensorRT-LLM's table"}  # fmt: skip
"""TensorRT-LLM v1.0's Llama 3.1 8B row on one H100, filled in well (its csrf_token and based_on aside)."""
PEAK = {"gpu": "H100", "precision": "bf16", "dense_tflops": "989.4", "source": "https://example.test/h100",
        "as_of": "2026-11-20", "source_kind": "transcription", "quote": "BF16 | 133.8 | 989.4 | 1978.9",
        "note": "datasheet"}  # fmt: skip
BANDWIDTH = {"gpu": "H100", "tb_per_s": "3.35", "source": "https://example.test/h100", "as_of": "2026-11-20",
             "source_kind": "transcription", "quote": "GPU Memory Bandwidth | 3.35TB/s | 2TB/s", "notes": "H100 SXM",
             "note": "datasheet"}  # fmt: skip
"""The H100 datasheet's SXM column, filled in well (its csrf_token and based_on aside)."""


@pytest.fixture
def admin(signed_in_with_presets):
    return signed_in_with_presets


def post(client, page="/admin/throughput", action="/admin/throughput", fields=BENCHMARK, **changes):
    """The form at `action` of `page` as opened, filled in with `fields` and `changes`."""
    form = html(client.get(page)).select_one(f"form[action='{action}']")
    data = fields | {name: form.select_one(f"input[name={name}]")["value"] for name in ("csrf_token", "based_on")}
    return client.post(action, data=data | changes, follow_redirects=False)


def post_peak(client, page="/admin/throughput", **changes):
    return post(client, page, "/admin/throughput/peaks", PEAK, **changes)


def post_bandwidth(client, page="/admin/throughput", **changes):
    return post(client, page, "/admin/throughput/bandwidths", BANDWIDTH, **changes)


def current(session):
    return catalogs_for(session.get_bind()).current()


def test_a_benchmark_added_then_changed_is_a_version_each_and_the_first_stays(admin, session):
    """15,220 output tokens/s, then re-measured at 15,300: the version of the first save keeps 15,220."""
    added = post(admin)
    assert (added.status_code, added.headers["location"]) == (303, f"/admin/throughput?key={KEY.replace('/', '%2F')}")
    first = current(session).version
    assert post(admin, added.headers["location"], tokens_per_s="15300", note="re-run").status_code == 303
    (now,) = current(session).throughput
    assert (now.key, now.gpu, now.parameters, now.tokens_per_s, now.notes) == (
        KEY,
        "H100",
        8_000_000_000,
        15300,
        "H100 SXM",
    )
    assert [t.tokens_per_s for t in catalogs_for(session.get_bind()).at(first).throughput] == [15220]
    row = html(admin.get("/admin/throughput")).select_one(f"tr[data-key='{KEY}']")
    assert "15,300" in row.get_text() and row.select_one("a[href='https://example.test/perf-overview.md']")


def test_a_latency_bound_benchmark_states_its_latencies(admin, session):
    """Online at 16 requests a second: mean TTFT 30 ms, 11 ms between tokens, 3,765 output tokens/s."""
    online = {"key": "llama-3.1-8b/h100x1/bf16/trt-llm-0.14/latency_bound/467-256/qps-16", "scenario": "latency_bound",
              "input_tokens": "467", "output_tokens": "256", "ttft_ms": "30", "tbt_ms": "11", "tokens_per_s": "3765",
              "latency_published": "mean TTFT 30 ms, mean ITL 11 ms"}  # fmt: skip
    assert post(admin, **online).status_code == 303
    (now,) = current(session).throughput
    assert (now.scenario, now.ttft_ms, now.tbt_ms, now.tokens_per_s) == ("latency_bound", 30, 11, 3765)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("key", "Llama 8B", "lower-case letters, digits, dots, dashes, underscores and slashes"),
        ("gpu", "GB200", "choose a GPU model of the catalog"),
        ("preset", "llama-2-70b", "choose a model preset of the catalog"),
        ("precision", "fp16", "must be one of fp32, bf16, fp8, int4, fp4"),
        ("tokens_per_s", "0", "must be above 0"),
        ("tokens_per_s", "2909.0001", "3 decimal places at most"),
        ("gpus", "0", "must be a whole number from 1 to 100,000"),
        ("scenario", "pretraining", "inference benchmarks run offline or latency_bound"),
        ("ttft_ms", "30", "leave it empty unless scenario is latency_bound"),
        ("sequence_length", "8192", "leave it empty unless kind is training"),
        ("output_tokens", "0", "must be a whole number from 1 to 10,000,000"),
        ("source_kind", "", "say who published it"),
    ],
)
def test_a_bad_benchmark_is_refused_under_its_field_and_saves_nothing(admin, session, field, value, message):
    before = versions(session)
    response = post(admin, **{field: value})
    assert response.status_code == 422 and message in html(response).select_one(f"#{field}-error").get_text()
    assert html(response).select_one("#model")["value"] == "Llama 3.1 8B Instruct"
    assert versions(session) == before


def test_a_stale_benchmark_edit_is_refused_naming_the_change_that_came_first(admin, session):
    """Two admins open the same benchmark; the first saves 15,300, the second's 15,400 gets a 409."""
    post(admin)
    page = f"/admin/throughput?key={KEY}"
    stale = html(admin.get(page)).select_one("form[action='/admin/throughput'] input[name=based_on]")["value"]
    assert post(admin, page, tokens_per_s="15300", note="re-run by alice").status_code == 303
    refused = post(admin, page, tokens_per_s="15400", based_on=stale)
    assert refused.status_code == 409
    problem = html(refused).select_one(".problem").get_text()
    assert "Someone changed this benchmark" in problem and "by alice" in problem and "re-run by alice" in problem
    assert html(refused).select_one("#tokens_per_s")["value"] == "15400"
    assert current(session).throughput[0].tokens_per_s == 15300


def test_a_peak_added_then_changed_is_one_gpu_model_at_one_precision(admin, session):
    """H100 BF16 989.4, FP8 1978.9, then BF16 changed to 990: the FP8 peak stays."""
    assert post_peak(admin).status_code == 303
    assert post_peak(admin, precision="fp8", dense_tflops="1978.9").status_code == 303
    changed = post_peak(admin, "/admin/throughput?gpu=H100&precision=bf16", dense_tflops="990", note="typo")
    assert (changed.status_code, changed.headers["location"]) == (303, "/admin/throughput?gpu=H100&precision=bf16")
    assert {k: p.dense_tflops for k, p in current(session).peaks.items()} == {("H100", "bf16"): 990,
                                                                                ("H100", "fp8"): 1978.9}  # fmt: skip
    row = html(admin.get("/admin/throughput")).select_one("tr[data-peak='H100 fp8']")
    assert "1,978.9" in row.get_text() and "transcription" in row.get_text()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("gpu", "GB200", "choose a GPU model of the catalog"),
        ("precision", "tf32", "must be one of"),
        ("dense_tflops", "-989.4", "must be above 0"),
        ("dense_tflops", "1,979", "must be a number, e.g. 989.4"),
        ("as_of", "2999-01-01", "cannot be in the future"),
    ],
)
def test_a_bad_peak_is_refused_under_its_field_and_saves_nothing(admin, session, field, value, message):
    before = versions(session)
    response = post_peak(admin, **{field: value})
    assert response.status_code == 422 and message in html(response).select_one(f"#peak_{field}-error").get_text()
    assert versions(session) == before


def test_a_stale_peak_edit_is_refused_naming_the_change_that_came_first(admin, session):
    page = "/admin/throughput?gpu=H100&precision=bf16"
    post_peak(admin)
    stale = html(admin.get(page)).select_one("form[action='/admin/throughput/peaks'] input[name=based_on]")["value"]
    assert post_peak(admin, page, dense_tflops="990", note="rounded by alice").status_code == 303
    refused = post_peak(admin, page, dense_tflops="312", based_on=stale)
    assert refused.status_code == 409 and "rounded by alice" in html(refused).select_one(".problem").get_text()
    assert current(session).peaks["H100", "bf16"].dense_tflops == 990


def test_a_bandwidth_added_then_changed_is_a_version_each_and_the_first_stays(admin, session):
    """H100 at 3.35 TB/s (the SXM column), then 2 TB/s (the PCIe card's): one current bandwidth, 2;
    the version of the first save keeps 3.35, and /api/throughput lists the new one with its source."""
    added = post_bandwidth(admin)
    assert (added.status_code, added.headers["location"]) == (303, "/admin/throughput?bandwidth=H100")
    first = current(session).version
    changed = post_bandwidth(admin, added.headers["location"], tb_per_s="2", notes="H100 PCIe", note="PCIe card")
    assert changed.status_code == 303
    assert {gpu: (b.tb_per_s, b.notes) for gpu, b in current(session).bandwidths.items()} == {"H100": (2, "H100 PCIe")}
    assert catalogs_for(session.get_bind()).at(first).bandwidths["H100"].tb_per_s == 3.35
    row = html(admin.get("/admin/throughput")).select_one("tr[data-bandwidth='H100']")
    shown = [td.get_text(" ", strip=True) for td in row.select("td")]
    assert shown == ["H100", "2", "source (transcription), as of 2026-11-20"]
    assert row.select_one("a[href='https://example.test/h100']")
    (listed,) = admin.get("/api/throughput").json()["bandwidths"]
    assert (listed["gpu"], listed["tb_per_s"], listed["source"]) == ("H100", 2, "https://example.test/h100")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("tb_per_s", "0", "must be above 0, at most 1,000"),
        ("tb_per_s", "abc", "must be a number, e.g. 3.35"),
        ("tb_per_s", "1001", "must be above 0, at most 1,000"),
        ("tb_per_s", "3.3501", "3 decimal places at most"),
        ("gpu", "GB200", "choose a GPU model of the catalog"),
        ("source", "javascript:alert(1)", "must be the http(s) address"),
        ("as_of", "2999-01-01", "cannot be in the future"),
        ("source_kind", "", "say who published it"),
    ],
)
def test_a_bad_bandwidth_is_refused_under_its_field_and_saves_nothing(admin, session, field, value, message):
    before = versions(session)
    response = post_bandwidth(admin, **{field: value})
    assert response.status_code == 422
    assert message in html(response).select_one(f"#bandwidth_{field}-error").get_text()
    assert html(response).select_one("#bandwidth_tb_per_s")["value"] == (BANDWIDTH | {field: value})["tb_per_s"]
    assert versions(session) == before and current(session).bandwidths == {}


def test_a_stale_bandwidth_edit_is_refused_naming_the_change_that_came_first(admin, session):
    """Two admins open H100's 3.35; the first saves 3.352, the second's 2 gets a 409 showing the first's."""
    page = "/admin/throughput?bandwidth=H100"
    post_bandwidth(admin)
    form = html(admin.get(page)).select_one("form[action='/admin/throughput/bandwidths']")
    stale = form.select_one("input[name=based_on]")["value"]
    assert post_bandwidth(admin, page, tb_per_s="3.352", note="re-read by alice").status_code == 303
    refused = post_bandwidth(admin, page, tb_per_s="2", based_on=stale)
    assert refused.status_code == 409
    problem = html(refused).select_one(".problem").get_text()
    assert "Someone changed this bandwidth" in problem and "re-read by alice" in problem
    assert html(refused).select_one("#bandwidth_tb_per_s")["value"] == "2"
    assert current(session).bandwidths["H100"].tb_per_s == 3.352


def test_the_throughput_forms_need_their_csrf_token_and_a_signed_in_admin(admin, client):
    assert admin.post("/admin/throughput", data=BENCHMARK).status_code == 403
    assert admin.post("/admin/throughput/peaks", data=PEAK).status_code == 403
    assert admin.post("/admin/throughput/bandwidths", data=BANDWIDTH).status_code == 403
    assert csrf(admin, "/admin/throughput")
    admin.cookies.clear()
    assert admin.get("/admin/throughput", follow_redirects=False).headers["location"].startswith("/admin/login")


def test_a_benchmark_a_peak_and_a_bandwidth_as_their_forms_show_them_save_unchanged(admin, session):
    """What the forms are filled in with reads back as the same figures: 7430.99 stays 7430.99, a
    latency of 30 ms stays 30, 3.35 TB/s stays 3.35, an empty condition stays empty; only the day read
    and the note are new."""
    online = {"scenario": "latency_bound", "ttft_ms": "30", "tbt_ms": "11.5", "tokens_per_s": "7430.99"}
    post(admin, **online)
    post_peak(admin)
    post_bandwidth(admin)
    before = current(session)
    for page, action in [(f"/admin/throughput?key={KEY}", "/admin/throughput"),
                         ("/admin/throughput?gpu=H100&precision=bf16", "/admin/throughput/peaks"),
                         ("/admin/throughput?bandwidth=H100", "/admin/throughput/bandwidths")]:  # fmt: skip
        form = html(admin.get(page)).select_one(f"form[action='{action}']")
        shown = {field["name"]: field.get("value", "") for field in form.select("input")}
        shown |= {field["name"]: field.select_one("option[selected]")["value"] for field in form.select("select")}
        saved = admin.post(action, data=shown | {"as_of": "2026-11-21", "note": "checked"}, follow_redirects=False)
        assert saved.status_code == 303, html(saved).select(".error")
    after = current(session)
    assert [replace(t, as_of=None) for t in after.throughput] == [replace(t, as_of=None) for t in before.throughput]
    assert after.peaks["H100", "bf16"] == replace(before.peaks["H100", "bf16"], as_of=after.peaks["H100", "bf16"].as_of)
    assert after.bandwidths["H100"] == replace(before.bandwidths["H100"], as_of=after.bandwidths["H100"].as_of)
