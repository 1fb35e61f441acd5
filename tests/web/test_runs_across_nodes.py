"""A training run larger than any instance or node, on whole nodes of offers whose fabric between nodes
a source states, at the published loss per doubling of its GPUs; each figure worked by hand."""

from decimal import Decimal

import pytest
from sqlmodel import select

from app.admin.accounts import create_admin
from app.catalog.changes import Change, new_version
from app.catalog.fabric import OfferFabricVersion
from app.catalog.fabric_changes import save_fabric
from app.catalog.selection import CLUSTER_LARGER
from app.catalog.tables import GpuModel, Provenance, Provider
from app.catalog.throughput_tables import GpuPeakVersion, ThroughputVersion, TrainingScalingVersion
from tests.factories import hand_checked_catalog, make_offer, make_provider
from tests.web.helpers import PASSWORD, csrf, signed_in_as, soup

RUN_8B = (
    "job=train&parameters_b=8.03&layers=32&hidden_size=4096&kv_heads=8&head_dim=128&context=4096"
    "&checkpoints_out=0&virt_tax=0&utilisation_pct=40&gpu=H100&train_tokens_b=1000&run_gpus=32"
)


def _fabric(session, provider: Provider, product: str, kind: str, said: str, version: int) -> None:
    fabric = OfferFabricVersion(
        provider_id=provider.id, product=product, gpus_per_node=8, inter_node=said, inter_node_kind=kind,
        source="https://example.test/fabric", valid_from=version,
    )  # fmt: skip
    session.add(fabric)


@pytest.fixture
def nodes(session):
    """The hand-checked catalog (H100 one GPU a unit) with three 8-GPU H100 instances: h100x8 at 20.00 an
    hour (2.50 a GPU-hour) joined by InfiniBand, tcpx8 at 12.00 joined by GPUDirect-TCPX (not RDMA) and
    plain8 at 8.00 with no fabric stated; H100's dense BF16 peak 989.4; two published runs of one series,
    400 tokens/s per GPU on 512 GPUs and 380 on 1,024: 0.95 kept per doubling."""
    hand_checked_catalog(session)
    ib, tcpx, plain = (make_provider(session, slug, "US", [(0, None, "0")]) for slug in ("ib", "tcpx", "plain"))
    make_offer(session, ib, "20.00", gpus_per_unit=8, product="h100x8")
    make_offer(session, tcpx, "12.00", gpus_per_unit=8, product="tcpx8")
    make_offer(session, plain, "8.00", gpus_per_unit=8, product="plain8")
    version = new_version(session, "fabrics and runs across nodes")
    _fabric(session, ib, "h100x8", "infiniband", "InfiniBand NDR, 8 x 400 Gb/s", version)
    _fabric(session, tcpx, "tcpx8", "tcpx", "GPUDirect-TCPX, 800 Gb/s", version)
    h100 = session.exec(select(GpuModel.id).where(GpuModel.name == "H100")).one()
    session.add(GpuPeakVersion(gpu_model_id=h100, precision="bf16", dense_tflops=Decimal("989.4"),
                               source="https://example.test/h100-datasheet", valid_from=version))  # fmt: skip
    for gpus, rate in ((512, "400"), (1024, "380")):
        session.add(TrainingScalingVersion(
            key=f"test/{gpus}", model="Llama 3.1 405B", gpu_model_id=h100, system="test cluster", series="test",
            gpus=gpus, global_batch=1152, sequence_length=8192, tokens_per_s=Decimal(rate),
            source="https://example.test/mlperf", valid_from=version,
        ))  # fmt: skip
    session.commit()


def test_32_h100_for_a_trillion_tokens_run_on_4_infiniband_nodes_at_0_95_squared(client, nodes):
    """6 x 8.03e9 x 1e12 = 4.818e22 FLOPs / (989.4e12 x 0.40 x 3,600) = 33,816.79 GPU-hours on one node;
    32 GPUs are two doublings of a node of 8, so they keep 0.95^2 = 0.9025 of its rate: 33,816.79 /
    0.9025 = 37,470.13 GPU-hours, 1,170.94 hours on 32 GPUs, billed over 2 months, 18,735.06 GPU-hours a
    month x 2.50 = 46,837.66, 93,675.32 for the run, on h100x8 alone: tcpx8's fabric is not RDMA and
    plain8 states none, though both are cheaper."""
    body = client.get(f"/api/quote?{RUN_8B}").json()
    job = body["job"]
    assert (job["run_gpu_hours"], job["wall_clock_hours"], job["months"], job["gpus_at_once"]) == (
        37470.1289, 1170.9415, 2, 32
    )  # fmt: skip
    across = job["across_nodes"]
    assert (across["node_gpus"], across["kept_per_doubling"], across["share_kept"]) == (8, 0.95, 0.9025)
    assert [r["key"] for r in across["runs"]] == ["test/512", "test/1024"]
    assert [(o["offer"]["product"], o["total"], o["horizon_total"]) for o in body["options"]] == [
        ("h100x8", 46837.66, 93675.32)
    ]  # fmt: skip
    assert body["options"][0]["offer"]["fabric"]["inter_node_kind"] == "infiniband"


def test_the_page_says_the_nodes_the_fabric_the_loss_and_what_was_left_out(client, nodes):
    page = soup(client.get(f"/?{RUN_8B}"))
    headline = " ".join(page.select_one("p.headline").get_text().split())
    assert "$93,675.32 for the run, 48.8 days on 32 GPUs in 4 nodes of 8 joined by InfiniBand" in headline
    across = " ".join(page.select_one("p.across").get_text().split())
    assert "kept a median 95.0% of it each time the GPUs doubled" in across
    assert "33,816.8 / 0.9025 = 37,470.1 GPU-hours" in across
    left = " ".join(page.select_one("p.left-out").get_text().split())
    assert left == (
        "Left out: 3 offers of H100 (Cloud, Metal, Plain): no source states a fabric between its nodes; 1 offer of "
        "H100 (Tcpx): virtualized, and the fabric its source states between nodes is not RDMA."
    )
    assert "4 nodes joined by InfiniBand NDR, 8 x 400 Gb/s" in page.select_one("small.fabric").get_text()


def test_a_run_no_node_size_divides_names_the_whole_node_counts_under_the_field(client, nodes):
    page = soup(client.get(f"/?{RUN_8B.replace('run_gpus=32', 'run_gpus=36')}"))
    assert page.select_one("#run_gpus-error").get_text() == (
        "a run across nodes takes whole nodes of 8 x H100: 32 or 40 GPUs"
    )
    assert page.select_one("#run_gpus")["value"] == "36"
    detours = [" ".join(li.get_text().split()) for li in page.select(".detours li")]
    assert detours[:2] == ["32 x H100 in the run: 1 offer", "40 x H100 in the run: 1 offer"]
    assert client.get(f"/api/quote?{RUN_8B.replace('run_gpus=32', 'run_gpus=36')}").status_code == 422


def test_a_refused_run_names_only_whole_node_counts_that_hold_the_model(shipped_client):
    """Llama 3.1 70B's training state needs 19 H100s: of the whole nodes of 8 either side of 20, 16 GPUs
    hold too few, so 24 alone is named."""
    response = shipped_client.get("/api/quote?job=train&preset=llama-3.1-70b&train_tokens_b=15000&run_gpus=20&gpu=H100")
    assert response.status_code == 422
    assert response.json()["detail"][0]["msg"] == "a run across nodes takes whole nodes of 8 x H100: 24 GPUs"


def test_plain8_given_infiniband_by_an_admin_carries_the_run_at_1_00_a_gpu_hour(client, session, nodes):
    """An admin states plain8's fabric: InfiniBand between its nodes. The same 37,470.13 GPU-hours at 8.00 / 8
    = 1.00 a GPU-hour: 18,735.06 GPU-hours a month x 1.00 = 18,735.06, x 2 months = 37,470.12 for the run, on
    plain8, now cheaper than h100x8 at 2.50."""
    create_admin(session, "alice", PASSWORD)
    signed_in_as(client, session)
    fabric = {"provider": "plain", "product": "plain8", "gpus_per_node": "8", "inter_node": "InfiniBand NDR",
              "inter_node_kind": "infiniband", "source": "https://example.test/plain/network", "as_of": "2026-11-20",
              "source_kind": "official", "note": "plain's network page", "based_on": "0",
              "csrf_token": csrf(client, "/admin/fabrics")}  # fmt: skip
    assert client.post("/admin/fabrics", data=fabric, follow_redirects=False).status_code == 303
    body = client.get(f"/api/quote?{RUN_8B}").json()
    assert [(o["offer"]["product"], o["total"], o["horizon_total"]) for o in body["options"]] == [
        ("plain8", 18735.06, 37470.12)
    ]  # fmt: skip
    assert body["options"][0]["offer"]["fabric"]["inter_node"] == "InfiniBand NDR"


def _stated(session, provider: str, product: str, min_cluster_gpus: int | None, most: int | None = None) -> None:
    """A fabric of 8-GPU nodes on InfiniBand, from a new version on."""
    fabric = {"gpus_per_node": 8, "intra_node": "", "inter_node": "InfiniBand NDR", "inter_node_kind": "infiniband",
              "inter_node_gbps": None, "min_cluster_gpus": min_cluster_gpus, "max_cluster_gpus": most}  # fmt: skip
    provenance = Provenance(source="https://example.test/clusters")
    save_fabric(session, provider, product, fabric, provenance, Change(f"{product}'s clusters"))


def _left_out(client, query: str) -> str:
    return " ".join(soup(client.get(f"/?{query}")).select_one("p.left-out").get_text().split())


def test_a_cluster_rented_with_more_gpus_than_the_run_is_left_out_saying_so(client, session, nodes):
    """h100x8's source now says its clusters are rented with 64 GPUs at least: a run of 32 leaves it out (and
    is quoted on plain8, given InfiniBand too), a run of 64 does not."""
    _stated(session, "ib", "h100x8", min_cluster_gpus=64)
    _stated(session, "plain", "plain8", min_cluster_gpus=None)
    assert f"1 offer of H100 (Ib): {CLUSTER_LARGER}" in _left_out(client, RUN_8B)
    assert [o["offer"]["product"] for o in client.get(f"/api/quote?{RUN_8B}").json()["options"]] == ["plain8"]
    at_64 = _left_out(client, RUN_8B.replace("run_gpus=32", "run_gpus=64"))
    assert "(Ib)" not in at_64 and CLUSTER_LARGER not in at_64


def test_without_a_fabric_stated_no_run_spans_nodes(client, session):
    """The same offers, none with a fabric between nodes a source states: refused, never assumed."""
    hand_checked_catalog(session)
    make_offer(session, make_provider(session, "plain", "US", [(0, None, "0")]), "8.00", gpus_per_unit=8)
    response = client.get(f"/api/quote?{RUN_8B}")
    assert response.status_code == 422
    assert "no offer of H100 has a fabric between nodes that a source states" in response.text


def test_llama_70b_on_64_h100_over_15t_tokens_takes_5_15m_gpu_hours(shipped_client):
    """6 x 70e9 x 15e12 = 6.3e24 FLOPs / (989.4e12 x 0.375 x 3,600) = 4,716,663.3 GPU-hours on one node;
    the shipped runs keep a median 0.97137 per doubling (pairs 0.95514, 0.95630, 0.98643, 0.98775), so 64
    GPUs, three doublings of a node of 8, keep 0.91654: 5,146,161.7 GPU-hours."""
    body = shipped_client.get("/api/quote?job=train&preset=llama-3.1-70b&train_tokens_b=15000&run_gpus=64&gpu=H100")
    job = body.json()["job"]
    assert job["run_gpu_hours"] == pytest.approx(4716663.3 / 0.97137**3, rel=1e-5)
    assert job["across_nodes"]["kept_per_doubling"] == pytest.approx(0.97137, abs=1e-5)


@pytest.mark.parametrize(("preset", "gpus"), [("llama-3.1-70b", 64), ("llama-3.1-405b", 512)])
def test_published_llama_runs_on_h100_answer_on_offers_with_rdma_between_nodes_only(shipped_client, preset, gpus):
    body = shipped_client.get(
        f"/api/quote?job=train&preset={preset}&train_tokens_b=15000&run_gpus={gpus}&gpu=H100"
    ).json()
    assert body["job"]["across_nodes"]["node_gpus"] == 8 and body["job"]["months"] <= 120
    assert body["options"] and all(o["offer"]["fabric"]["rdma"] for o in body["options"])


def test_the_run_is_drawn_at_each_size_sooner_and_dearer_as_it_doubles(client, nodes):
    """64 GPUs are three doublings of a node of 8: 33,816.79 / 0.95^3 = 39,442.24 GPU-hours, 616.3 hours
    (25.7 days) on 64 GPUs, x 2.50 = 98,605.60; the 32 asked for: 37,470.13 GPU-hours, 48.8 days,
    93,675.32."""
    page = soup(client.get(f"/?{RUN_8B}"))
    dots = {
        title.get_text().split(" GPUs:")[0]: title.get_text()
        for title in page.select("figure.run-sizes svg.frame-wide circle title")
    }
    assert dots["32"] == "32 GPUs: 48.8 days, 37,470 GPU-hours, $93,675.32 for the run"
    assert dots["64"] == "64 GPUs: 25.7 days, 39,442 GPU-hours, $98,605.60 for the run"
    current = page.select("figure.run-sizes svg.frame-wide g.current title")
    assert [t.get_text().split(":")[0] for t in current] == ["32 GPUs"]


def test_the_run_drawn_at_the_size_asked_costs_in_euros_what_the_headline_says(shipped_client):
    """In euros each of the run's 111 months is an invoice rounded to the cent, then added up: the
    headline's figure, which the dot of the size asked for repeats to the cent."""
    page = soup(shipped_client.get(
        "/?job=train&preset=llama-3.1-70b&train_tokens_b=15000&run_gpus=64&gpu=H100&currency=EUR"
    ))  # fmt: skip
    headline = " ".join(page.select_one("p.headline").get_text().split())
    for_the_run = headline.split(": ", 1)[1].split(" for the run")[0]
    current = page.select_one("figure.run-sizes svg.frame-wide g.current title").get_text()
    assert current.split(", ")[-1] == f"{for_the_run} for the run"


def test_an_offer_pinned_without_a_fabric_between_nodes_is_refused_for_a_run_across_them(client, nodes):
    plain = next(o for o in client.get("/api/offers?gpu=H100").json() if o["product"] == "plain8")
    response = client.get(f"/api/quote?{RUN_8B}&offer={plain['key']}")
    assert response.status_code == 422
    assert "cannot carry a run of 32 GPUs across nodes: no source states a fabric between its nodes" in response.text


def test_a_run_only_cluster_bounds_refuse_says_the_sizes_rented(client, session, nodes):
    """h100x8 is rented in clusters of 64 to 256 GPUs: a run of 32 is refused, naming them."""
    version = new_version(session, "h100x8 rented in clusters of 64 to 256")
    fabric = session.exec(select(OfferFabricVersion).where(OfferFabricVersion.product == "h100x8")).one()
    fabric.valid_to = version
    bounded = fabric.model_dump(exclude={"id", "valid_from", "valid_to"}) | {
        "min_cluster_gpus": 64,
        "max_cluster_gpus": 256,
    }
    session.add(OfferFabricVersion(**bounded, valid_from=version))
    session.commit()
    response = client.get(f"/api/quote?{RUN_8B}")
    assert response.status_code == 422
    assert "the clusters of H100 a fabric joins are rented with 64 to 256 GPUs" in response.text


def test_only_gpudirect_tcpx_between_virtualized_nodes_is_refused_as_not_rdma(client, session):
    hand_checked_catalog(session)
    tcpx = make_provider(session, "tcpx", "US", [(0, None, "0")])
    make_offer(session, tcpx, "12.00", gpus_per_unit=8, product="tcpx8")
    _fabric(session, tcpx, "tcpx8", "tcpx", "GPUDirect-TCPX, 800 Gb/s", new_version(session, "tcpx"))
    session.commit()
    response = client.get(f"/api/quote?{RUN_8B}")
    assert "the fabric a source states between nodes of H100 is not RDMA on virtualized nodes" in response.text


def test_a_cluster_product_is_never_quoted_for_fewer_gpus_than_it_is_rented_with(client, session, nodes):
    """h100x8 rented from 64 GPUs: no provider's bill for 8 GPUs at once names it; for 64 at once, Ib's does."""
    _stated(session, "ib", "h100x8", min_cluster_gpus=64)
    hours = "gpu=H100&gpu_hours=500&checkpoints_out=0&virt_tax=0&invocations=0&providers=total"

    def billed(at_once: int) -> set[str]:
        return {b["product"] for b in client.get(f"/api/quote?{hours}&peak_gpus={at_once}").json()["providers"]}

    assert "h100x8" not in billed(8)
    assert "h100x8" in billed(64)


def test_a_cluster_product_of_16_gpus_is_never_quoted_for_32_at_once(client, session, nodes):
    """h100x8 rented as a cluster of 16 GPUs exactly: quoted for 16 at once, not for 32."""
    _stated(session, "ib", "h100x8", min_cluster_gpus=16, most=16)
    hours = "gpu=H100&gpu_hours=500&checkpoints_out=0&virt_tax=0&invocations=0&providers=total"
    billed = {n: {b["product"] for b in client.get(f"/api/quote?{hours}&peak_gpus={n}").json()["providers"]}
              for n in (16, 32)}  # fmt: skip
    assert "h100x8" in billed[16] and "h100x8" not in billed[32]


def test_llama_70b_on_lambdas_64_h100_cluster_is_billed_114_months_of_8_nodes(shipped_client):
    """The run's 5,146,161.7 GPU-hours take 80,408.78 hours on 64 GPUs, 111 months; the 2.6 % virtualization tax
    makes them 80,408.78 / 0.974 = 82,555.2 hours, 113.09 months, so 114 billed on the same 8 nodes of Lambda's
    64-GPU 1-Click Cluster at 8 x 5.85 = 46.80 an hour: 34,164.00 a node-month, 273,312.00 a month, 31,157,568.00
    for the run, the cheapest; AWS's p5 by the hour is 36,359,502.99."""
    query = "job=train&preset=llama-3.1-70b&train_tokens_b=15000&run_gpus=64&gpu=H100"
    body = shipped_client.get(f"/api/quote?{query}").json()
    best = body["options"][0]
    assert (best["offer"]["product"], best["month_as_billed"], best["horizon_total"]) == (
        "1-Click Cluster, 64 x H100 SXM", 273_312.00, 31_157_568.00
    )  # fmt: skip
    assert (best["virtualization_tax_months"], best["offer"]["fabric"]["source_kind"]) == (3, "third_party")
    assert [o["horizon_total"] for o in body["options"][1:]] == [36_359_502.99]
    page = soup(shipped_client.get(f"/?{query}"))
    assert "$31,157,568.00 for the run" in " ".join(page.select_one("p.headline").get_text().split())
    compute = " ".join(page.select_one("small.assumed-in").get_text().split())
    tax = "for 3 more months of the nodes the 2.6 % virtualization tax needs, the run taking 9.4 years"
    assert compute.endswith(tax)


def test_a_training_benchmark_at_64_gpus_is_carried_to_a_run_of_32_by_the_published_loss(client, session, nodes):
    """The typed 8B model measured at 10,000 tokens/s per GPU on 64 H100: a run of 32 is one doubling
    smaller, so it keeps 0.95^log2(32 / 64) = 1.052632 of that rate, 10,526.32 tokens/s per GPU:
    1e12 / (10,526.32 x 3,600) = 26,388.89 GPU-hours, 824.65 hours on 32 GPUs over 2 months, x 2.50 =
    65,972.22 for the run on h100x8."""
    h100 = session.exec(select(GpuModel.id).where(GpuModel.name == "H100")).one()
    session.add(ThroughputVersion(
        key="test/8b-training-64", kind="training", model="an 8B model", preset="", parameters=8_030_000_000,
        gpu_model_id=h100, gpus=64, precision="bf16", precision_published="BF16", engine="Test trainer",
        scenario="pretraining", sequence_length=4096, tokens_per_s=Decimal("10000"),
        source="https://example.test/training", valid_from=new_version(session, "a training benchmark"),
    ))  # fmt: skip
    session.commit()
    body = client.get(f"/api/quote?{RUN_8B}").json()
    job = body["job"]
    assert (job["benchmark"], job["benchmark_scale"], job["basis"]) == ("test/8b-training-64", 1.05263, "benchmark")
    assert job["tokens_per_s"] == pytest.approx(10526.3158, abs=1e-3)
    assert (job["run_gpu_hours"], job["months"], body["options"][0]["horizon_total"]) == (26388.8889, 2, 65972.22)
    sentence = " ".join(soup(client.get(f"/?{RUN_8B}")).select_one("section.job-basis p.sentence").get_text().split())
    assert "10,526.3 tokens/s per GPU: a measured 10,000 on 64 GPUs" in sentence


SERVE_405B = (
    "job=serve&parameters_b=405&layers=126&hidden_size=16384&kv_heads=8&head_dim=128&context=4096&checkpoints_out=0"
    "&virt_tax=0&gpu=H100&output_tokens_m=2628&hours_up=0"
)
"""405 billion parameters in BF16, 810 GB of weights: more than 8 x H100 hold, so a replica of 16."""


def test_a_replica_of_16_h100_spans_2_infiniband_nodes_at_the_measured_throughput(client, nodes):
    """2,628 million output tokens at a measured 1,000 tokens/s a replica: 730 hours of work, one replica of 16 x
    H100 all month, 11,680 GPU-hours, on 2 of h100x8's nodes at 20.00 an hour: 2 x 20.00 x 730 = 29,200.00 a
    month. tcpx8 (GPUDirect-TCPX, not RDMA) and plain8 (no fabric stated) are left out, saying why."""
    body = client.get(f"/api/quote?{SERVE_405B}&measured_tps=1000").json()
    job = body["job"]
    assert (job["unit_gpus"], job["gpus_at_once"], job["gpu_hours"]) == (16, 16, 11_680)
    assert (job["across_nodes"]["node_gpus"], job["across_nodes"]["kept_per_doubling"]) == (8, None)
    assert [(o["offer"]["product"], o["total"]) for o in body["options"]] == [("h100x8", 29_200.00)]
    page = soup(client.get(f"/?{SERVE_405B}&measured_tps=1000"))
    said = " ".join(page.select_one("p.across").get_text().split())
    assert said.startswith("A replica spans nodes. No offered instance or node holds a replica of 16 x H100, so it is "
                           "quoted on 2 whole nodes of 8 a replica")  # fmt: skip
    left = " ".join(page.select_one("p.left-out").get_text().split())
    assert "(Cloud, Metal, Plain): no source states a fabric" in left and "(Tcpx): virtualized" in left


def test_a_replica_across_nodes_without_a_measured_throughput_asks_for_one(client, nodes):
    response = client.get(f"/api/quote?{SERVE_405B}")
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["query", "measured_tps"]
    assert "spans 2 nodes of 8, and no published benchmark measures a replica split across nodes" in error["msg"]


def test_a_served_day_split_of_a_replica_across_nodes_is_refused_not_a_server_error(client, nodes):
    """The split fills each unit with whole replicas: a replica of 16 on nodes of 8 fills none, so it says why
    rather than divide by a capacity of 0, with the throughput measured or not."""
    split = SERVE_405B.replace("job=serve", "job=split") + "&demand=serving"
    for measured in ("&measured_tps=1000", ""):
        response = client.get(f"/api/quote?{split}{measured}")
        assert response.status_code == 422
        (error,) = response.json()["detail"]
        assert error["loc"] == ["query", "gpu"]
        assert "a replica of 16 x H100 spans nodes, and the split packs only replicas" in error["msg"]


def test_a_run_whose_tax_fits_its_billed_months_on_lambdas_cluster_still_says_it_takes_longer(shipped_client):
    """350 billion tokens of Llama 3.1 70B on 64 H100 take 2.57 months, 3 billed; the 2.6 % tax makes them 2.64,
    still 3 months of Lambda's 8 nodes: the tax adds nothing to the figure, and its compute says so and how
    long the run then takes, as the run's sentence promises of each option."""
    query = "job=train&preset=llama-3.1-70b&train_tokens_b=350&run_gpus=64&gpu=H100"
    page = soup(shipped_client.get(f"/?{query}"))
    assert "each option's compute says how much" in " ".join(page.select_one("p.sentence").get_text().split())
    row = next(r for r in page.select("table.options tr") if "1-Click Cluster, 64 x H100" in r.get_text())
    compute = " ".join(row.select_one("small.assumed-in").get_text().split())
    assert compute == "$273,312.00 of GPU time + $0.00 for the 2.6 % virtualization tax, the run taking 80.3 days"


def test_past_a_runs_gpus_the_chart_prices_them_for_longer_not_more_of_them(shipped_client):
    """The chart of a run on 64 H100 reaches past the 46,720 GPU-hours a month they run: there a run's fixed GPUs
    are priced for longer (by the hour on the same 64, more months of reserved nodes), never more GPUs at once."""
    page = soup(shipped_client.get("/?job=train&preset=llama-3.1-70b&train_tokens_b=400&run_gpus=64&gpu=H100"))
    note = " ".join(page.select_one(".at-once-past").get_text().split())
    assert note.startswith("64 GPUs at once run at most 46,720 GPU-hours a month")
    assert "price them for longer" in note and "as many GPUs at once as the hours need" not in note
