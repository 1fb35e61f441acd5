"""A job stated as tokens to serve or a run to train, quoted on the page and in /api/quote, each
figure worked by hand from DOMAIN.md ("From a job to GPU-hours")."""

import csv
import io
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, select

from app.catalog.changes import new_version
from app.catalog.snapshot import Catalogs
from app.catalog.tables import GpuModel
from app.catalog.throughput_tables import GpuPeakVersion, ThroughputVersion
from app.catalog.updates import model_presets_2026_11
from app.quoting.build import build_quote
from app.quoting.params.quote import QuoteParams
from tests.factories import hand_checked_catalog, make_gpu, make_offer, make_provider
from tests.web.helpers import soup

SERVE_70B = "job=serve&preset=llama-3.1-70b&weights=fp8&context=8192&checkpoints_out=0&invocations=0&virt_tax=0"
TRAIN_8B = (
    "job=train&parameters_b=8.03&layers=32&hidden_size=4096&kv_heads=8&head_dim=128&context=4096"
    "&checkpoints_out=0&virt_tax=0&utilisation_pct=40&run_gpus=8&gpu=H100"
)


def _benchmark(session: Session, version: int, gpu: str, gpus: int, tokens_per_s: str, **conditions: object) -> None:
    """A benchmark of Llama 3.1 70B (the preset) at FP8, 1000/1000 tokens, offline, unless told otherwise."""
    gpu_id = session.exec(select(GpuModel.id).where(GpuModel.name == gpu)).one()
    row = {
        "key": f"test/{gpu}x{gpus}/{len(conditions)}", "kind": "inference", "model": "Llama 3.3 70B Instruct",
        "preset": "llama-3.1-70b", "parameters": 70_000_000_000, "gpu_model_id": gpu_id, "gpus": gpus,
        "precision": "fp8", "precision_published": "FP8", "engine": "TensorRT-LLM v1.0", "scenario": "offline",
        "input_tokens": 1000, "output_tokens": 1000, "tokens_per_s": Decimal(tokens_per_s),
        "source": "https://example.test/benchmark", "valid_from": version,
    } | conditions  # fmt: skip
    session.add(ThroughputVersion(**row))


@pytest.fixture
def catalog(session):
    """The hand-checked catalog (H100 on demand at 2.50 a GPU-hour, one GPU a unit; a one-GPU node at
    1,250 a month; serverless at 0.001 a second) with the presets, an 8-GPU H100 instance at 2.50 a
    GPU-hour, one-GPU H200 and B200 instances at 4.00 and 6.00, an 8-GPU L4 instance at 0.80 a
    GPU-hour, and benchmarks of Llama 3.1 70B at FP8 on H200 (2,909 tokens/s on 1), B200 (5,000 on 1)
    and L4 (1,000 on 8); H100's dense BF16 peak 989.4 TFLOPS."""
    hand_checked_catalog(session)
    cloud = make_provider(session, "gpus", "US", [(0, None, "0")])
    make_gpu(session, "H200", 141)
    make_gpu(session, "B200", 179)
    make_gpu(session, "L4", 24)
    make_offer(session, cloud, "20.00", gpu="H100", gpus_per_unit=8, product="h100x8")
    make_offer(session, cloud, "4.00", gpu="H200", product="h200x1")
    make_offer(session, cloud, "6.00", gpu="B200", product="b200x1")
    make_offer(session, cloud, "6.40", gpu="L4", gpus_per_unit=8, product="l4x8")
    version = new_version(session, "presets and benchmarks")
    model_presets_2026_11(session, version)
    _benchmark(session, version, "H200", 1, "2909")
    _benchmark(session, version, "B200", 1, "5000")
    _benchmark(session, version, "L4", 8, "1000")
    h100 = session.exec(select(GpuModel.id).where(GpuModel.name == "H100")).one()
    session.add(GpuPeakVersion(gpu_model_id=h100, precision="bf16", dense_tflops=Decimal("989.4"),
                               source="https://example.test/h100-datasheet", valid_from=version))  # fmt: skip
    session.commit()


def test_serving_a_billion_tokens_on_one_h200_costs_2_92_per_million(client, catalog):
    """1e9 / 2,909 / 3,600 = 95.49 hours of work; the service runs all 730 hours, so one replica and
    730 GPU-hours: 730 x 4.00 = 2,920.00 a month, 2,920.00 / 1,000 million tokens = 2.92 a million."""
    body = client.get(f"/api/quote?{SERVE_70B}&gpu=H200&output_tokens_m=1000").json()
    job = body["job"]
    assert (job["work_hours"], job["replicas"], job["gpus_at_once"], job["gpu_hours"]) == (95.4891, 1, 1, 730)
    cheapest = body["options"][0]
    assert (cheapest["total"], cheapest["per_million_output_tokens"]) == (2920.0, 2.92)
    assert job["benchmark"] == "test/H200x1/0"


def test_a_batch_runs_only_the_hours_of_its_work(client, catalog):
    """hours_up 0: 1e9 / 2,909 / 3,600 = 95.4891 GPU-hours x 4.00 = 381.96 a month."""
    body = client.get(f"/api/quote?{SERVE_70B}&gpu=H200&output_tokens_m=1000&hours_up=0").json()
    assert body["job"]["gpu_hours"] == 95.4891
    assert body["options"][0]["total"] == 381.96


def test_8x_l4_and_1x_b200_serve_the_same_tokens_at_their_own_gpu_hours(client, catalog):
    """As a batch (hours_up 0): L4, 1e9 / 1,000 / 3,600 = 277.78 hours of an 8-GPU replica = 2,222.22
    GPU-hours x 0.80 = 1,777.78; B200, 1e9 / 5,000 / 3,600 = 55.56 GPU-hours x 6.00 = 333.33; H200,
    95.49 x 4.00 = 381.96. Ranked by the job's cost: B200, H200, L4. H100 has no benchmark and no peak
    or bandwidth to estimate from: apart, under the weights (whose precision the peak is of)."""
    body = client.get(f"/api/quote?{SERVE_70B}&gpu=any&output_tokens_m=1000&hours_up=0").json()
    ranked = [(g["gpu"], g["gpus"], g["job"]["gpu_hours"], g["option"]["total"]) for g in body["any_gpu"]]
    assert ranked == [("B200", 1, 55.5556, 333.33), ("H200", 1, 95.4891, 381.96), ("L4", 8, 2222.2222, 1777.78)]
    assert (body["any_gpu_ranked"], body["any_gpu_not_ranked"]) == (True, None), "on equal work: the same job"
    assert [(n["gpu"], n["field"]) for n in body["no_number"]] == [("H100", "weights")]
    assert body["no_number"][0]["reason"] == (
        "no benchmark of Llama 3.1 70B on H100, and the catalog has no dense FP8 peak of H100 to estimate from"
    )
    assert {g["job"]["basis"] for g in body["any_gpu"]} == {"benchmark"}


def test_the_headline_names_the_cheapest_gpu_for_the_job(client, catalog):
    """All month (730 h): B200 730 x 6.00 = 4,380.00; H200 730 x 4.00 = 2,920.00; L4 730 x 8 x 0.80
    = 4,672.00. H200 is cheapest: 2.92 a million output tokens."""
    page = soup(client.get(f"/?{SERVE_70B}&gpu=any&output_tokens_m=1000"))
    headline = " ".join(page.select_one("p.headline").get_text().split())
    assert headline.startswith(
        "Serving 1,000 million output tokens a month of Llama 3.1 70B at offline maximum throughput, the cheapest GPU"
    )
    assert "1 x H200, Virtualized, on demand: $2,920.00 a month, $2.9200 per million output tokens" in headline
    assert "H100: no benchmark of Llama 3.1 70B on H100" in page.select_one(".no-number p").get_text()
    wide = page.select_one("figure.job-bars svg.frame-wide")
    bars = [
        (g.select_one(".bar-label").get_text(), g.select_one(".bar-value").get_text()) for g in wide.select("g.bar")
    ]
    assert bars == [("1 x H200", "$2.9200"), ("1 x B200", "$4.3800"), ("8 x L4", "$4.6720")]
    widths = [float(rect["width"]) for rect in wide.select("rect")]
    assert widths[0] / widths[2] == pytest.approx(2920 / 4672, abs=1e-3), "drawn to the job's cost, from zero"


def test_a_pair_without_a_benchmark_or_the_figures_to_estimate_says_both_under_the_weights(client, catalog):
    """The estimate needs the GPU model's dense peak at the weights' precision and its bandwidth: this
    catalog has neither for FP8, so the page says which benchmark is missing and why no estimate."""
    page = soup(client.get(f"/?{SERVE_70B}&gpu=H100"))
    assert page.select_one("#weights-error").get_text() == (
        "no benchmark of Llama 3.1 70B on H100, and the catalog has no dense FP8 peak of H100 to estimate from"
    )
    interactive = soup(client.get(f"/?{SERVE_70B}&gpu=H200&latency=interactive"))
    assert interactive.select_one("#weights-error").get_text() == (
        "no benchmark of Llama 3.1 70B on H200 within 2000 ms to the first token and 200 ms between tokens "
        "at these lengths, and the catalog has no dense FP8 peak of H200 to estimate from"
    )
    lengths = soup(client.get(f"/?{SERVE_70B}&gpu=H200&input_length=500"))
    assert "only 1000/1000" in lengths.select_one("#weights-error").get_text()


def test_your_measured_throughput_takes_precedence(client, catalog):
    """1,000 tokens/s on the H100 the model's fit needs (70 GB FP8 + KV and overhead: 2 x H100, served
    on 2): 1e9 / 1,000 / 3,600 = 277.78 hours, one replica of 2 GPUs all month: 1,460 GPU-hours on the
    8-GPU instance, billed for 8 at once: 1,460 x 2.50 x 8 / 2 = 14,600.00."""
    body = client.get(f"/api/quote?{SERVE_70B}&gpu=H100&output_tokens_m=1000&measured_tps=1000").json()
    job = body["job"]
    assert (job["measured"], job["unit_gpus"], job["gpu_hours"]) == (True, 2, 1460)
    assert body["options"][0]["total"] == 14600.0


def test_training_8b_on_a_billion_tokens_takes_33_8_gpu_hours(client, catalog):
    """6 x 8.03e9 x 1e9 = 4.818e19 FLOPs / (989.4e12 x 0.40 x 3,600) = 33.8168 GPU-hours, 4.23 hours
    on 8 GPUs, one month; on the 8-GPU instance: 33.8168 x 2.50 = 84.54 for the run."""
    body = client.get(f"/api/quote?{TRAIN_8B}&train_tokens_b=1").json()
    job = body["job"]
    assert (job["run_gpu_hours"], job["wall_clock_hours"], job["months"], job["gpus_at_once"]) == (
        33.8168, 4.2271, 1, 8
    )  # fmt: skip
    assert body["options"][0]["horizon_total"] == 84.54
    assert job["dense_tflops"] == 989.4


def test_lora_takes_32_5_over_43_1_of_full_training(client, catalog):
    """33.8168 x 32.5 / 43.1 = 25.4999 GPU-hours."""
    body = client.get(f"/api/quote?{TRAIN_8B}&train_tokens_b=1&train_mode=lora").json()
    assert body["job"]["run_gpu_hours"] == 25.4999


@pytest.mark.parametrize(
    ("query", "field"),
    [
        (f"{SERVE_70B}&gpu=H200&output_tokens_m=0", "output_tokens_m"),
        (f"{SERVE_70B}&gpu=H200&output_tokens_m=1e12", "output_tokens_m"),
        (f"{SERVE_70B}&gpu=H200&hours_up=731", "hours_up"),
        (f"{TRAIN_8B}&utilisation_pct=0", "utilisation_pct"),
        (f"{TRAIN_8B}&utilisation_pct=101", "utilisation_pct"),
        (f"{TRAIN_8B}&run_gpus=1", "run_gpus"),
        (f"{TRAIN_8B}&compute=fp8", "compute"),
        (f"{TRAIN_8B}&train_tokens_b=1e6", "train_tokens_b"),
    ],
)
def test_bad_job_input_gets_a_message_under_its_field(client, catalog, query, field):
    response = client.get(f"/?{query}")
    page = soup(response)
    assert page.select_one(f"#{field}-error").get_text(), query
    assert page.select_one("form#calculator"), "the page and the form are kept"


def test_a_saved_job_keeps_its_inputs_and_its_numbers(client, catalog):
    """Saved as it was quoted: the same 2,920.00 a month and 2.92 a million output tokens read back,
    and the comparison with a GPU-hours scenario names the job and its tokens among the inputs that differ."""
    params = {"job": "serve", "preset": "llama-3.1-70b", "weights": "fp8", "context": 8192, "gpu": "H200",
              "output_tokens_m": 1000, "checkpoints_out": 0, "invocations": 0, "virt_tax": 0}  # fmt: skip
    slug = client.post("/api/scenarios", json={"params": params}).json()["slug"]
    saved = client.get(f"/api/scenarios/{slug}").json()
    assert saved["params"]["job"] == "serve" and saved["params"]["output_tokens_m"] == 1000
    assert saved["quote"]["job"]["gpu_hours"] == 730
    assert saved["quote"]["options"][0]["per_million_output_tokens"] == 2.92
    exported = next(csv.DictReader(io.StringIO(client.get(f"/s/{slug}.csv").text)))
    assert (exported["usd_per_million_output_tokens"], exported["job_gpu_hours"]) == ("2.92", "730.0")
    assert exported["benchmark"] == "test/H200x1/0"
    other = client.post("/api/scenarios", json={"params": {"gpu": "H200", "gpu_hours": 730}}).json()["slug"]
    compared = soup(client.get(f"/compare?s={slug},{other}"))
    differing = [row.th.get_text() for row in compared.select_one("table.inputs").select("tr.differs")]
    assert {"The job", "Output tokens"} <= set(differing)


def test_the_size_api_says_what_the_job_takes_on_each_gpu_model(client, catalog):
    """The same job as the quote's: 95.4891 hours of work on one H200, 730 GPU-hours all month; no
    benchmark on H100."""
    body = client.get(f"/api/size?{SERVE_70B}&output_tokens_m=1000").json()
    jobs = {j["gpu"]: j for j in body["jobs"]}
    assert (jobs["H200"]["job"]["work_hours"], jobs["H200"]["job"]["gpu_hours"]) == (95.4891, 730)
    assert jobs["H100"]["no_number"]["reason"].startswith("no benchmark of Llama 3.1 70B on H100, and")
    assert (jobs["H200"]["job"]["basis"], jobs["H200"]["job"]["estimate"]) == ("benchmark", None)
    assert client.get("/api/size?preset=llama-3.1-70b").json()["jobs"] == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fewer=st.floats(0.001, 5e6),
    more=st.floats(0.001, 5e6),
    hours_up=st.sampled_from([0, 200, 730]),
    gpu=st.sampled_from(["any", "H200", "L4"]),
)
def test_more_tokens_never_cost_less(session, catalog, fewer, more, hours_up, gpu):
    """For any two volumes (millions of output tokens a month), the cheapest quote for the larger is
    never below the smaller's: more work takes no fewer GPU-hours, replicas or GPUs at once."""
    fewer, more = sorted((fewer, more))
    catalogs = Catalogs(session.get_bind())
    base = {"job": "serve", "preset": "llama-3.1-70b", "weights": "fp8", "context": 8192, "gpu": gpu,
            "checkpoints_out": 0, "hours_up": hours_up}  # fmt: skip
    small = build_quote(catalogs, QuoteParams(**base, output_tokens_m=fewer))
    large = build_quote(catalogs, QuoteParams(**base, output_tokens_m=more))
    if isinstance(large, dict):
        assert "at once" in next(iter(large.values())), large
        return
    assert not isinstance(small, dict), small
    assert large.quote.options[0].total >= small.quote.options[0].total - 1e-9
    if gpu != "any":
        assert large.job.gpu_hours >= small.job.gpu_hours and large.job.gpus_at_once >= small.job.gpus_at_once


def test_the_default_utilisation_names_its_source_on_the_page(client, catalog):
    default = soup(client.get(f"/?{TRAIN_8B}&utilisation_pct=37.5")).select_one(".job-basis").get_text()
    assert "Epoch AI's median of 33 known training runs" in default
    assert "Epoch AI" not in soup(client.get(f"/?{TRAIN_8B}")).select_one(".job-basis").get_text()


def test_a_batch_runs_as_many_replicas_as_an_instance_holds(client, catalog):
    """1,000 tokens/s per replica of 2 x H100 as a batch (hours_up 0): 1e9 / 1,000 / 3,600 = 277.78
    hours of work, 555.56 GPU-hours; the 8-GPU instance runs 4 replicas at once, so none of it idles:
    555.56 x 2.50 = 1,388.89 (not 8 / 2 x that, as one replica holding the instance would pay)."""
    query = f"{SERVE_70B}&gpu=H100&output_tokens_m=1000&measured_tps=1000&hours_up=0"
    body = client.get(f"/api/quote?{query}").json()
    assert body["job"]["gpu_hours"] == 555.5556
    assert body["options"][0]["total"] == 1388.89


def test_a_typed_model_is_not_given_a_presets_benchmark(client, catalog):
    """The same parameter count typed in may be another architecture: no number, said so."""
    typed = "parameters_b=70&layers=40&hidden_size=8192&kv_heads=40&head_dim=128"
    page = soup(client.get(f"/?{SERVE_70B.replace('preset=llama-3.1-70b', typed)}&gpu=H200"))
    assert page.select_one("#weights-error").get_text() == (
        "no benchmark of a 70B-parameter model on H200, and the catalog has no dense FP8 peak of H200 to estimate from"
    )


def test_no_number_on_any_gpu_lands_under_the_input_to_change(client, catalog):
    """Interactive: H200, B200 and L4 have offline benchmarks only, H100 none of the model, and none the
    figures to estimate from: every reason lands under the weights, whose peak is missing."""
    page = soup(client.get(f"/?{SERVE_70B}&gpu=any&latency=interactive"))
    message = page.select_one("#weights-error").get_text()
    assert message.startswith("no benchmark of Llama 3.1 70B on H200 within 2000 ms")
    assert "no benchmark of Llama 3.1 70B on H100, and the catalog has no dense FP8 peak of H100" in message


def test_the_size_api_refuses_one_measured_throughput_for_every_gpu(client, catalog):
    response = client.get(f"/api/size?{SERVE_70B}&measured_tps=1000")
    assert response.status_code == 422
    assert "measured_tps" in response.text


def test_requests_longer_than_the_models_context_are_refused_under_the_input_length(client, catalog):
    """Llama 3.1 70B holds 131,072 tokens: 130,000 in and 2,000 out do not fit; with Context set to 8,192,
    9,000 + 1,000 do not fit what is sized. The page keeps the form; the API answers 422."""
    page = soup(client.get(f"/?{SERVE_70B}&gpu=H200&context=&input_length=130000&output_length=2000"))
    assert page.select_one("#input_length-error").get_text() == (
        "130,000 tokens in and 2,000 out are more than Llama 3.1 70B's context of 131,072 tokens"
    )
    assert page.select_one("#input_length")["value"] == "130000"
    response = client.get(f"/api/quote?{SERVE_70B}&gpu=H200&input_length=9000&output_length=1000")
    assert response.status_code == 422
    assert "the 8,192-token context sized for: raise Context to hold them" in response.text


HOURS_70B = SERVE_70B.replace("job=serve", "job=hours") + "&gpu=any&gpu_hours=100"
"""GPU-hours of Llama 3.1 70B served at FP8, 1000/1000 tokens, offline: the speeds are the catalog's
benchmarks per GPU, H200 2,909, B200 5,000, L4 1,000 / 8 = 125 output tokens/s."""


def test_100_h200_hours_are_the_work_of_58_18_on_b200_and_2327_2_on_l4_ranked_by_what_they_cost(client, catalog):
    """B200: 100 x 2,909 / 5,000 = 58.18 GPU-hours x 6.00 = 349.08; H200: 100 x 4.00 = 400.00; L4, 4 at
    once on the 8-GPU instance: 100 x 2,909 / 125 = 2,327.2 GPU-hours x 0.80 x 8/4 = 3,723.52. H100 has
    no benchmark of the model at FP8 nor the figures to estimate one: apart, with why."""
    body = client.get(f"/api/quote?{HOURS_70B}&hours_gpu=H200").json()
    ranked = [(g["gpu"], g["gpus"], g["gpu_hours"], g["option"]["total"]) for g in body["any_gpu"]]
    assert ranked == [("B200", 1, 58.18, 349.08), ("H200", 1, 100, 400.0), ("L4", 4, 2327.2, 3723.52)]
    assert (body["any_gpu_ranked"], body["any_gpu_not_ranked"]) == (True, None)
    assert (body["params"]["gpu"], body["params"]["gpu_hours"]) == ("B200", 58.18)
    assert body["equal_work"]["gpu_hours"] == 100
    assert {k: body["equal_work"]["hours_gpu"][k] for k in ("gpu", "per_gpu", "basis")} == {
        "gpu": "H200", "per_gpu": 2909, "basis": "benchmark"
    }  # fmt: skip
    assert [g["speed"]["per_gpu"] for g in body["any_gpu"]] == [5000, 2909, 125]
    assert [(n["gpu"], n["field"]) for n in body["no_number"]] == [("H100", "weights")]


def test_the_page_names_the_cheapest_gpu_for_the_work_of_the_hours_and_how_they_were_converted(client, catalog):
    page = soup(client.get(f"/?{HOURS_70B}&hours_gpu=H200"))
    headline = " ".join(page.select_one("p.headline").get_text().split())
    assert headline.startswith(
        "At 58.18 GPU-hours a month of 1 x B200 at once (the work of 100 GPU-hours of H200, on the cheapest GPU model"
    )
    assert "$349.08" in headline
    said = " ".join(page.select_one("p.equal-work").get_text().split())
    assert said.startswith("Your 100 GPU-hours are of H200. Each GPU model is quoted at the GPU-hours the same work")
    assert "H200 2,909 output tokens/s a GPU (TensorRT-LLM v1.0, benchmark), B200 5,000 output tokens/s" in said
    assert "so the work of 100 GPU-hours of H200 takes 58.2 GPU-hours of B200." in said
    rows = [[c.get_text(" ", strip=True) for c in tr.select("th, td")] for tr in page.select("table.any-gpu tbody tr")]
    assert [(r[0].split(" ")[2], r[1], r[4]) for r in rows] == [
        ("B200", "58.2", "$349.08"), ("H200", "100.0", "$400.00"), ("L4", "2,327.2", "$3,723.52")
    ]  # fmt: skip
    wide = page.select_one("figure.job-bars svg.frame-wide")
    assert [g.select_one(".bar-value").get_text() for g in wide.select("g.bar")] == ["$349.08", "$400.00", "$3,723.52"]


def test_hours_of_no_gpu_named_are_of_the_first_that_fits_with_a_speed(client, session, catalog):
    """A 96 GiB GH200 holds the model on one GPU with the least memory, so the fit table lists it first,
    but it has no speed for the model: the hours are H200's, the next, and the page says how it chose
    and where to say otherwise."""
    make_gpu(session, "GH200", 96)
    make_offer(session, make_provider(session, "gh"), "3.00", gpu="GH200", product="gh200x1")
    body = client.get(f"/api/quote?{HOURS_70B}").json()
    assert [f["gpu"] for f in body["sizing"]["fits"]][:2] == ["GH200", "H200"]
    assert body["equal_work"]["hours_gpu"]["gpu"] == "H200"
    said = " ".join(soup(client.get(f"/?{HOURS_70B}")).select_one("p.equal-work").get_text().split())
    assert "you asked for any GPU, so they are taken as the first GPU model that fits (H200)" in said


def test_hours_of_h200_quoted_on_l4_alone_are_its_2327_2(client, catalog):
    body = client.get(f"/api/quote?{HOURS_70B.replace('gpu=any', 'gpu=L4')}&hours_gpu=H200").json()
    assert (body["params"]["gpu_hours"], body["options"][0]["total"], body["any_gpu"]) == (2327.2, 3723.52, [])


def test_a_saved_scenario_keeps_the_hours_as_stated(client, catalog):
    page = soup(client.get(f"/?{HOURS_70B}&hours_gpu=H200"))
    kept = page.select_one("input[form=save-form][name=inputs]")["value"].replace(" ", "")
    assert '"gpu_hours":100' in kept and '"gpu":"any"' in kept and '"hours_gpu":"H200"' in kept


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (f"{HOURS_70B}&hours_gpu=H100", "cannot be converted: no benchmark of Llama 3.1 70B on H100"),
        (f"{HOURS_70B}&hours_gpu=V100", "is not a GPU model in the catalog"),
        ("gpu=H100&gpu_hours=100&hours_gpu=H200", "choose a preset or give a parameter count"),
    ],
)
def test_hours_of_a_gpu_model_without_a_speed_are_refused_under_the_field(client, catalog, query, message):
    page = soup(client.get(f"/?{query}"))
    assert message in page.select_one("#hours_gpu-error").get_text()
    assert page.select_one("#gpu_hours")["value"] == "100"
    response = client.get(f"/api/quote?{query}")
    assert response.status_code == 422 and message in response.text


def test_a_comparison_says_whose_gpu_hours_a_scenario_states_and_where_they_are_quoted(client, catalog):
    slugs = []
    for query in (f"{HOURS_70B}&hours_gpu=H200", HOURS_70B.replace("gpu=any", "gpu=H200")):
        page = soup(client.get(f"/?{query}"))
        form = {"csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
                "inputs": page.select_one("input[form=save-form][name=inputs]")["value"]}  # fmt: skip
        slugs.append(client.post("/s", data=form, follow_redirects=False).headers["location"].removeprefix("/s/"))
    compared = soup(client.get(f"/compare?s={','.join(slugs)}"))
    assert " ".join(compared.select_one("p.equal-work").get_text().split()) == (
        "Scenario 1 states 100 GPU-hours of H200: its figures are of B200, the cheapest GPU model for the same "
        "work, at the 58.2 GPU-hours that work takes on it."
    )


B200_ON_DEMAND = "gpus%3Ab200x1%3AB200%3Aus-east-1%3Aon_demand"


def _quoted_at(client, href):
    """What a link on a page quotes: the GPU model, its GPU-hours and the cheapest option's month."""
    body = client.get("/api/quote?" + href.split("?", 1)[1].split("#")[0]).json()
    return body["params"]["gpu"], body["params"]["gpu_hours"], body["options"][0]["total"]


def test_the_explorer_prices_each_offer_at_the_work_of_the_hours_and_opens_the_calculator_on_it(client, catalog):
    """From 100 GPU-hours of H200 (the first GPU model that fits with a speed), B200's offer at 6.00 costs
    58.18 x 6.00 = 349.08, in the explorer as in the calculator, and "Price my workload" quotes the same."""
    page = soup(client.get(f"/?{HOURS_70B}"))
    explore = next(a["href"] for a in page.select("a.explore") if "B200" in a["href"])
    row = soup(client.get(explore)).select_one("table.offers tbody tr")
    assert row.select_one('td[data-label="Total a month"]').get_text(strip=True) == "$349.08"
    assert _quoted_at(client, row.select_one("td.quote a")["href"]) == ("B200", 58.18, 349.08)


def test_pricing_every_offer_again_keeps_the_work_of_the_hours(client, catalog):
    """The B200 offer pinned for 100 GPU-hours of H200 (58.18 of B200): every B200 offer at the same work."""
    page = soup(client.get(f"/?{HOURS_70B.replace('gpu=any', 'gpu=B200')}&hours_gpu=H200&offer={B200_ON_DEMAND}"))
    every = next(a["href"] for a in page.select("a") if a.get_text().startswith("Price every offer of"))
    assert _quoted_at(client, every) == ("B200", 58.18, 349.08)


@pytest.fixture
def year_terms(session, catalog):
    """A year's commitment on B200 and H200 at 10,332.00 (billed whole over a month's horizon), and a
    one-GPU H200 node at 1,000.00 a month: cheaper than B200 on demand from 1,000 / 3.4908 = 286.5
    GPU-hours of H200 a month."""
    metal = make_provider(session, "metalworks", "US", [(0, None, "0")])
    for gpu in ("B200", "H200"):
        make_offer(session, metal, "10332", "bare_metal", "committed", "year", gpu=gpu, min_commitment_months=12)
    make_offer(session, metal, "1000", "bare_metal", "monthly", "month", gpu="H200", product="h200-node")


def test_the_longer_horizon_link_quotes_the_same_work_on_the_gpu_model_quoted(client, year_terms):
    page = soup(client.get(f"/?{HOURS_70B}"))
    assert _quoted_at(client, page.select_one(".term-note a")["href"])[:2] == ("B200", 58.18)


def test_the_longer_horizon_link_follows_the_cheapest_gpu_model_as_the_hours_move(client, year_terms):
    """At 100 GPU-hours of H200 B200 is the cheapest for the work; at 500, the H200 node (1,000.00 against
    291 x 6.00 = 1,745.40): the link at 500 is H200's, whatever was asked before."""
    client.get(f"/?{HOURS_70B}")
    page = soup(client.get(f"/?{HOURS_70B.replace('gpu_hours=100', 'gpu_hours=500')}"))
    assert page.select_one("p.headline").get_text().split()[1:2] == ["500"]
    assert _quoted_at(client, page.select_one(".term-note a")["href"])[:2] == ("H200", 500)
