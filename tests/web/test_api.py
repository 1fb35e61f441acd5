import csv
import io
import re

from app.errors import DATABASE_RETRY_AFTER_S
from app.main import app
from app.web.api.health import DatabaseProbe, probe_engine
from tests.factories import hand_checked_catalog, make_offer, make_provider
from tests.web.helpers import QUERY, soup, totals


def test_quote_returns_the_same_numbers_as_the_page(client, session):
    hand_checked_catalog(session)
    body = client.get(f"/api/quote?{QUERY}").json()
    page_totals = totals(soup(client.get(f"/?{QUERY}")))
    assert {o["option"].replace("/", "-"): f"${o['total']:,.2f}" for o in body["options"]} == page_totals
    assert body["catalog_version"] == 1


def test_quote_names_offer_parts_and_break_evens_worked_by_hand(client, session):
    """On demand at 400 h: compute 1,000, egress 3.60, storage 0, total 1,003.60, per GPU-h
    1,003.60 / 400 = 2.509; it meets the 1,250 node at (1,250 - 3.60) / 2.50 = 498.56 h."""
    ids = hand_checked_catalog(session)
    body = client.get(f"/api/quote?{QUERY}").json()
    on_demand = body["options"][0]
    assert on_demand["offer_id"] == ids["on_demand"]
    assert (on_demand["compute"], on_demand["egress"], on_demand["storage"], on_demand["total"]) == (
        1000.0,
        3.6,
        0.0,
        1003.6,
    )
    assert on_demand["effective_per_gpu_hour"] == 2.509
    pair = next(b for b in body["break_evens"] if {b["a"], b["b"]} == {"virtualized/on_demand", "bare_metal/monthly"})
    assert pair["crossings"][0] == {"gpu_hours": 498.56, "cheaper_above": "bare_metal/monthly"}


def test_quote_refuses_bad_fields_with_422_naming_the_field(client, session):
    hand_checked_catalog(session)
    for query, field in [
        ("gpu_hours=abc", "gpu_hours"),
        ("gpu_hours=inf", "gpu_hours"),
        ("peak_gpus=0", "peak_gpus"),
        ("gpu=Z9000", "gpu"),
        ("catalog_version=0", "catalog_version"),
        ("catalog_version=99999999999999999999999", "catalog_version"),
    ]:
        response = client.get(f"/api/quote?{query}")
        assert response.status_code == 422, query
        assert response.json()["detail"][0]["loc"] == ["query", field]


def test_offers_are_filterable_and_the_csv_has_the_same_rows(client, session):
    hand_checked_catalog(session)
    offers = client.get("/api/offers?tenancy=bare_metal").json()
    assert [(o["provider"], o["price"], o["price_period"]) for o in offers] == [("metal", 1250.0, "month")]
    reader = csv.DictReader(io.StringIO(client.get("/api/offers.csv").text))
    rows = list(reader)
    assert len(rows) == 3 and {r["source_url"] for r in rows} == {"https://example.test/price"}
    assert reader.fieldnames == [
        "offer_id", "key", "provider", "provider_name", "gpu", "product", "tenancy", "billing", "gpus_per_unit",
        "price", "currency", "price_period", "usd_per_gpu_hour", "min_commitment_months", "setup_fee", "region",
        "region_country", "source_url", "as_of", "notes", "vcpus", "ram_gib",
    ]  # fmt: skip


def test_providers_come_with_egress_tiers_and_storage_price(client, session):
    hand_checked_catalog(session)
    cloud = next(p for p in client.get("/api/providers").json() if p["slug"] == "cloud")
    assert [(t["from_gb"], t["to_gb"], t["usd_per_gb"]) for t in cloud["egress_tiers"]] == [
        (0.0, 100.0, 0.0),
        (100.0, None, 0.09),
    ]
    assert cloud["storage"] is None and cloud["headquarters"]["country"] == "US"


def test_quote_says_how_many_of_the_catalogs_prices_are_undated(client, session):
    """The three hand-checked offers are dated; one more without a date makes 1 of 4."""
    hand_checked_catalog(session)
    undated = make_offer(session, make_provider(session, "nodate"), "9.00")
    undated.as_of = None
    session.add(undated)
    session.commit()
    body = client.get(f"/api/quote?{QUERY}").json()
    assert (body["catalog_prices"], body["catalog_prices_undated"]) == (4, 1)
    notes = [n.get_text() for n in soup(client.get(f"/?{QUERY}")).select("#results p.note")]
    assert any(note.startswith("1 of the 4 prices in this price list are undated") for note in notes)


def test_quote_names_the_offer_that_only_looks_cheaper_for_an_unpublished_cost(client, session):
    """Cheap's 2.00/h without a published egress price: 400 x 2.00 = 800.00 looks below Cloud's 1,003.60."""
    hand_checked_catalog(session)
    make_offer(session, make_provider(session, "cheap"), "2.00", region="eu-west")
    body = client.get(f"/api/quote?{QUERY}").json()
    assert (body["options"][0]["provider"], body["options"][0]["total"]) == ("Cloud", 1003.60)
    looks = body["cheaper_looking"]
    assert (looks["provider"], looks["total"], looks["egress"], looks["complete"]) == ("Cheap", 800.00, None, False)
    assumed = client.get(f"/api/quote?{QUERY}&assumed_egress_usd_per_gb=0.05").json()
    assert (assumed["options"][0]["total"], assumed["options"][0]["assumed"]) == (807.00, ["egress"])
    assert assumed["cheaper_looking"] is None


def test_openapi_docs_are_served_with_the_sites_header_and_a_way_back(client):
    docs = soup(client.get("/docs"))
    assert docs.select_one('meta[name="viewport"]') and docs.select_one('header.site a[href="/"]')
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/quote", "/api/size", "/api/providers"} <= set(paths) and "/" not in paths
    assert all(" " in op["summary"] and "Api " not in op["summary"] for path in paths.values() for op in path.values())


def test_catalog_listings_refuse_versions_that_cannot_exist(client, session):
    hand_checked_catalog(session)
    for path in [
        "/api/offers?catalog_version=0",
        "/api/offers?catalog_version=99999999999999999999999",
        "/api/providers?catalog_version=99999999999999999999999",
    ]:
        response = client.get(path)
        assert response.status_code == 422, path
        assert response.json()["detail"][0]["loc"][-1] == "catalog_version"


def test_a_catalog_version_the_schema_allows_but_no_catalog_has_is_a_documented_404(client, session):
    """The schema can say 1 to 2^31 - 1, not which versions exist (issue 11): 404, as a missing scenario."""
    hand_checked_catalog(session)
    schema = client.get("/openapi.json").json()["paths"]
    for path in ["/api/quote", "/api/offers", "/api/offers.csv", "/api/providers", "/api/size", "/api/throughput"]:
        response = client.get(f"{path}?catalog_version=7")
        assert response.status_code == 404, path
        assert response.json() == {"detail": "there is no catalog version 7"}
        assert "404" in schema[path]["get"]["responses"], path
    saved = client.post("/api/scenarios", json={"params": {"gpu": "H100"}, "catalog_version": 7})
    assert saved.status_code == 404 and "404" in schema["/api/scenarios"]["post"]["responses"]


def test_the_schema_documents_every_refusal_and_the_csv_as_csv(client):
    openapi = client.get("/openapi.json")
    assert not re.search(r'"(ge|gt|le|lt)":', openapi.text), "bounds in JSON Schema's words, which clients read"
    paths = openapi.json()["paths"]
    assert set(paths["/api/scenarios"]["post"]["responses"]) == {"201", "400", "404", "413", "422", "429", "503"}
    assert list(paths["/api/offers.csv"]["get"]["responses"]["404"]["content"]) == ["application/json"]
    assert set(paths["/api/scenarios/{slug}"]["get"]["responses"]) == {"200", "404", "422", "429", "503"}
    assert "Retry-After" in paths["/api/scenarios/{slug}"]["get"]["responses"]["503"]["headers"]
    assert set(paths["/api/health"]["get"]["responses"]) == {"200", "503"}
    assert "Retry-After" in paths["/api/health"]["get"]["responses"]["503"]["headers"]
    assert list(paths["/api/offers.csv"]["get"]["responses"]["200"]["content"]) == ["text/csv"]


def test_health_without_its_database_file_is_503_and_says_when_to_ask_again(client, tmp_path):
    """The probe opens the file read-write, never making one: a file that is not there is a database
    out of reach, and a load balancer is told to ask again in DATABASE_RETRY_AFTER_S (5 s)."""
    app.state.probe = DatabaseProbe(probe_engine(f"sqlite:///{tmp_path / 'gone.db'}"))
    answered = client.get("/api/health")
    assert answered.status_code == 503 and answered.headers["Retry-After"] == "5" == str(DATABASE_RETRY_AFTER_S)
    assert answered.json() == {"detail": "The database did not answer within a second."}
    assert not (tmp_path / "gone.db").exists()


def test_a_boolean_is_no_number_and_a_number_no_boolean(client, session):
    """Lax validation read JSON's false as 0 seconds and 0 as false (issue 11); a form's "1e3" is
    still 1,000 and its "on" still true."""
    hand_checked_catalog(session)
    for params in [{"cold_start_s": False}, {"peak_gpus": True}, {"assumed_egress_usd_per_gb": True}]:
        response = client.post("/api/scenarios", json={"params": {"gpu": "H100", **params}})
        assert response.status_code == 422, params
        assert response.json()["detail"][0]["msg"] == "must be a number, not true or false"
    assert client.post("/api/scenarios", json={"params": {"gpu": "H100"}, "catalog_version": True}).status_code == 422
    as_flag = client.post("/api/scenarios", json={"params": {"gpu": "H100", "hide_spot": 0}})
    assert as_flag.status_code == 422 and as_flag.json()["detail"][0]["msg"] == "must be true or false, not a number"
    assert client.get("/api/quote?gpu=H100&hide_spot=on&eu_only=true").json()["params"]["hide_spot"] is True
    quoted = client.get("/api/quote?gpu=H100&cold_start_s=1e3&gpu_hours=4e2").json()["params"]
    assert (quoted["cold_start_s"], quoted["gpu_hours"]) == (1000, 400)


def test_a_tiny_positive_workload_is_quoted_not_a_server_error(client, session):
    """Found by schemathesis (issue 11): gpu_hours=1e-20 made the per-GPU-hour rate overflow the
    Decimal context; 5e-324 makes it infinite, which has no rate at all."""
    hand_checked_catalog(session)
    for hours in ("1e-20", "5e-324"):
        response = client.get(f"/api/quote?gpu=H100&gpu_hours={hours}")
        assert response.status_code == 200, hours
    assert response.json()["options"][0]["effective_per_gpu_hour"] is None
    assert client.get("/?gpu=H100&gpu_hours=1e-20").status_code == 200
