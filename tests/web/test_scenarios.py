import csv
import io
import json
import re
import threading
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import update
from sqlmodel import Session, SQLModel, func, select

from app.catalog.changes import Change, change_offer_price, retire_offer
from app.catalog.provider_changes import change_headquarters
from app.catalog.tables import CatalogVersion, Provenance, Provider
from app.platform.settings import settings
from app.quoting.params.quote import QuoteParams
from app.scenarios import store
from app.scenarios.tables import Scenario
from tests.factories import hand_checked_catalog, make_version
from tests.web.helpers import QUERY, html, soup, totals

SLUG = re.compile(r"^/s/[A-Za-z0-9_-]{16}$")


def save_via_page(client, query=QUERY, **fields):
    page = soup(client.get(f"/?{query}"))
    form = {
        "csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
        "inputs": page.select_one("input[form=save-form][name=inputs]")["value"],
        **fields,
    }
    return client.post("/s", data=form, follow_redirects=False)


def saved_count(session):
    return session.exec(select(func.count()).select_from(Scenario)).one()


def test_save_and_share_gives_an_unguessable_link_showing_the_same_totals(client, session):
    hand_checked_catalog(session)
    shown = totals(soup(client.get(f"/?{QUERY}")))
    response = save_via_page(client, name="Llama fine-tune", note="for finance")
    assert response.status_code == 303 and SLUG.match(response.headers["location"])
    page = soup(client.get(response.headers["location"]))
    assert totals(page) == shown
    assert page.title.get_text() == "Llama fine-tune · GPU cost calculator"
    assert page.select_one('meta[name="description"]')["content"] == (
        "Virtualized, on demand is cheapest at $1,003.60 a month for 400 GPU-hours of H100 "
        "(the price list of 2026-11-01)."
    )
    assert page.select_one("#share-link")["value"].endswith(response.headers["location"])
    assert "have not changed" in page.select_one("section.scenario-details").get_text()


def test_the_link_and_its_copy_button_come_before_the_calculator_and_its_results(client, session):
    """Saving lands on the link: it is in the box at the top, with the name, not after the results."""
    hand_checked_catalog(session)
    page = soup(client.get(save_via_page(client, name="Llama fine-tune").headers["location"]))
    top = page.select_one("main section.scenario")
    assert top.h2.get_text() == "Llama fine-tune"
    assert top.select_one("#share-link") and top.select_one("button[data-copy=share-link] [data-until-changed]")
    assert top.find_next(id="calculator") and top.find_next(id="results"), "the box comes before the form and results"
    assert not page.select("section.scenario-details #share-link")


def test_saved_numbers_stay_after_prices_change_and_today_is_shown_beside_them(client, session):
    """On demand 2.50 -> 3.00 per GPU-h at 400 h: saved 1,003.60 stays; today 1,203.60, +200.00."""
    ids = hand_checked_catalog(session)
    link = save_via_page(client).headers["location"]
    change_offer_price(session, ids["on_demand"], Decimal("3.00"), "https://example.test/new", date(2026, 11, 28), "up")
    retire_offer(session, ids["serverless"], "gone")
    page = soup(client.get(link))
    assert totals(page) == {
        "virtualized-on_demand": "$1,003.60",
        "bare_metal-monthly": "$1,250.00",
        "serverless-per_second": "$1,440.00",
    }
    rows = {
        r.th.get_text(strip=True): [td.get_text(strip=True) for td in r.select("td")]
        for r in page.select("table.then-and-now tbody tr")
    }
    assert rows == {
        "Virtualized, on demand": ["$1,003.60", "$1,203.60", "+$200.00"],
        "Bare metal, monthly node": ["$1,250.00", "$1,250.00", "$0.00"],
        "Serverless, per second": ["$1,440.00", "no offer today", "—"],
    }
    assert " ".join(page.select_one("p.changed").get_text().split()) == (
        "Cheapest as saved: Virtualized, on demand, $1,003.60 a month. "
        "Today: Virtualized, on demand, $1,203.60 a month "
        "(+$200.00; today's prices, the price list of 2026-11-28)."
    )
    assert "catalog_version=" not in page.select_one("section.scenario-details a[href^='/?']")["href"]


def test_the_sliders_of_a_saved_scenario_quote_at_its_version(client, session):
    ids = hand_checked_catalog(session)
    link = save_via_page(client).headers["location"]
    change_offer_price(session, ids["on_demand"], Decimal("3.00"), "https://example.test/new", date(2026, 11, 28), "up")
    page = soup(client.get(link))
    assert page.select_one("form#calculator input[name=catalog_version]")["value"] == "1"


def test_a_save_without_the_forms_csrf_token_is_refused_and_saves_nothing(client, session):
    hand_checked_catalog(session)
    for token in ["", "forged.0000"]:
        response = save_via_page(client, csrf_token=token)
        assert response.status_code == 403
        assert "expired or came from another site" in html(response).select_one("#save-form .problem").get_text()
    assert saved_count(session) == 0


def test_too_long_a_name_is_explained_and_the_typed_text_kept(client, session):
    hand_checked_catalog(session)
    response = client.post("/s", data={}, follow_redirects=False)
    assert response.status_code == 403
    response = save_via_page(client, name="x" * 121, note="keep me")
    assert response.status_code == 422
    page = html(response)
    assert page.select_one("#save-name-error").get_text() == "must be at most 120 characters"
    assert page.select_one("#save-note").get_text() == "keep me"
    assert page.select_one("#gpu_hours")["value"] == "400"
    assert saved_count(session) == 0


def test_too_many_saves_from_one_client_are_refused_with_a_reason(client, session, monkeypatch):
    hand_checked_catalog(session)
    monkeypatch.setattr(settings, "saves_per_client_per_10_min", 2)
    answers = [save_via_page(client) for _ in range(3)]
    assert [a.status_code for a in answers] == [303, 303, 429]
    assert 590 <= int(answers[2].headers["Retry-After"]) <= 600, "when the first save leaves its ten minutes"
    assert "try again in ten minutes" in html(save_via_page(client)).select_one("#save-form .problem").get_text()
    assert saved_count(session) == 2


def test_the_api_tells_a_client_past_its_saves_when_the_first_one_counted_leaves_its_window(
    client, session, monkeypatch
):
    hand_checked_catalog(session)
    monkeypatch.setattr(settings, "saves_per_client_per_10_min", 1)
    monkeypatch.setattr(settings, "saves_per_hour", 1)
    first = client.post("/api/scenarios", json={"params": {"gpu": "H100", "gpu_hours": 400}})
    session.exec(update(Scenario).values(created_at=datetime.now(UTC) - timedelta(minutes=4)))
    session.commit()
    refused = client.post("/api/scenarios", json={"params": {"gpu": "H100", "gpu_hours": 500}})
    assert (first.status_code, refused.status_code) == (201, 429)
    assert 355 <= int(refused.headers["Retry-After"]) <= 360, "the first save is 4 of its 10 minutes old"
    monkeypatch.setattr(settings, "saves_per_client_per_10_min", 2)
    paused = client.post("/api/scenarios", json={"params": {"gpu": "H100", "gpu_hours": 500}})
    assert paused.status_code == 429 and 3355 <= int(paused.headers["Retry-After"]) <= 3360, "56 minutes of the hour"


def test_unknown_or_malformed_links_get_a_friendly_404(client, session):
    hand_checked_catalog(session)
    for path in ["/s/AAAAAAAAAAAAAAAA", "/s/not..valid", "/s/AAAAAAAAAAAAAAAA.csv"]:
        response = client.get(path)
        assert response.status_code == 404
        assert html(response).h1.get_text() == "Nothing at this link"
    assert client.get("/api/scenarios/AAAAAAAAAAAAAAAA").status_code == 404


def test_saved_scenarios_cannot_be_listed(client, session):
    hand_checked_catalog(session)
    slug = save_via_page(client).headers["location"].removeprefix("/s/")
    for path in ("/api/scenarios", "/s"):
        response = client.get(path, headers={"accept": "application/json"})
        assert response.status_code == 405, "only saving is allowed here, not reading a list"
        assert slug not in response.text


def test_api_saves_and_returns_the_scenario_with_its_quote(client, session):
    hand_checked_catalog(session)
    body = {"name": "api", "params": {"gpu": "H100", "gpu_hours": 400, "checkpoint_gb": 140, "virt_tax": 0}}
    created = client.post("/api/scenarios", json=body)
    assert created.status_code == 201
    saved = created.json()
    assert saved["catalog_version"] == 1 and saved["quote"]["options"][0]["total"] == 1003.60
    assert client.get(f"/api/scenarios/{saved['slug']}").json() == saved


def test_api_refuses_bad_scenarios_naming_the_field_and_saves_nothing(client, session):
    hand_checked_catalog(session)
    cases = [
        ({"params": {"gpu": "Z9000"}}, ["body", "params", "gpu"]),
        ({"params": {"gpu_hours": -1}}, ["body", "params", "gpu_hours"]),
        ({"name": "x" * 121, "params": {}}, ["body", "name"]),
        ({"params": {}, "catalog_version": 0}, ["body", "catalog_version"]),
    ]
    for body, loc in cases:
        response = client.post("/api/scenarios", json=body)
        assert response.status_code == 422, body
        assert response.json()["detail"][0]["loc"] == loc
    text = client.post("/api/scenarios", content=json.dumps({"params": {}}), headers={"Content-Type": "text/plain"})
    assert text.status_code == 422
    for body in ['{"params": {"gpu_hours": NaN}}', '{"params": {}, "name": Infinity}']:
        response = client.post("/api/scenarios", content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 422, body
    assert saved_count(session) == 0


def test_json_export_imports_as_a_new_link_with_the_same_numbers(client, session):
    ids = hand_checked_catalog(session)
    link = save_via_page(client, name="original").headers["location"]
    exported = client.get(f"{link}.json")
    assert exported.headers["content-disposition"].startswith("attachment")
    change_offer_price(session, ids["on_demand"], Decimal("3.00"), "https://example.test/new", date(2026, 11, 28), "up")
    copy = client.post("/api/scenarios", content=exported.content, headers={"Content-Type": "application/json"}).json()
    assert copy["slug"] != link.removeprefix("/s/")
    assert copy["catalog_version"] == 1 and copy["quote"] == exported.json()["quote"]


def test_json_export_can_be_uploaded_on_the_page(client, session):
    hand_checked_catalog(session)
    link = save_via_page(client).headers["location"]
    page = soup(client.get("/"))
    token = page.select_one("details.import input[name=csrf_token]")["value"]
    files = {"file": ("scenario.json", client.get(f"{link}.json").content, "application/json")}
    response = client.post("/s/import", data={"csrf_token": token}, files=files, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] != link
    bad = client.post("/s/import", data={"csrf_token": token}, files={"file": ("x.json", b"{}", "application/json")})
    assert bad.status_code == 422 and saved_count(session) == 2


def test_json_export_saved_with_a_byte_order_mark_imports_on_the_page_and_through_the_api(client, session):
    """Windows editors save UTF-8 with a BOM (issue 11); bytes that are no UTF-8 are refused, not a 500."""
    hand_checked_catalog(session)
    exported = b"\xef\xbb\xbf" + client.get(f"{save_via_page(client).headers['location']}.json").content
    token = soup(client.get("/")).select_one("details.import input[name=csrf_token]")["value"]
    files = {"file": ("scenario.json", exported, "application/json")}
    assert client.post("/s/import", data={"csrf_token": token}, files=files, follow_redirects=False).status_code == 303
    api = client.post("/api/scenarios", content=exported, headers={"Content-Type": "application/json"})
    assert api.status_code == 201
    latin1 = {"file": ("x.json", '{"name": "caf\u00e9"}'.encode("latin-1"), "application/json")}
    assert client.post("/s/import", data={"csrf_token": token}, files=latin1).status_code == 422
    assert saved_count(session) == 3


def test_csv_export_is_the_options_table(client, session):
    hand_checked_catalog(session)
    link = save_via_page(client).headers["location"]
    rows = list(csv.DictReader(io.StringIO(client.get(f"{link}.csv").text)))
    assert [(r["option"], r["provider"], r["total_usd"], r["catalog_version"]) for r in rows] == [
        ("Virtualized, on demand", "Cloud", "1003.6", "1"),
        ("Bare metal, monthly node", "Metal", "1250.0", "1"),
        ("Serverless, per second", "Fn", "1440.0", "1"),
    ]


def test_a_taken_slug_is_never_reused(session, monkeypatch):
    make_version(session)
    first = store.save_scenario(session, QuoteParams(), 1, "", "", "client")
    slugs = iter([first.slug, "fresh-slug-000001"])
    monkeypatch.setattr(store.secrets, "token_urlsafe", lambda n: next(slugs))
    assert store.save_scenario(session, QuoteParams(), 1, "", "", "client").slug == "fresh-slug-000001"


def test_concurrent_saves_all_land_under_distinct_slugs(database_url, monkeypatch):
    from app.platform.db import make_engine

    monkeypatch.setattr(settings, "saves_per_client_per_10_min", 1000)
    engine = make_engine(database_url)
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        make_version(session)
        session.commit()

    def save_five(client_key):
        with Session(engine) as session:
            for _ in range(5):
                store.save_scenario(session, QuoteParams(), 1, "", "", client_key)

    threads = [threading.Thread(target=save_five, args=(f"c{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with Session(engine) as session:
        slugs = session.exec(select(Scenario.slug)).all()
    assert len(slugs) == 40 == len(set(slugs))


def test_api_saves_at_the_version_named_in_the_params(client, session):
    ids = hand_checked_catalog(session)
    change_offer_price(session, ids["on_demand"], Decimal("3.00"), "https://example.test/new", date(2026, 11, 28), "up")
    body = {"params": {"gpu_hours": 400, "checkpoint_gb": 140, "virt_tax": 0, "catalog_version": 1}}
    saved = client.post("/api/scenarios", json=body).json()
    assert saved["catalog_version"] == 1 and saved["quote"]["options"][0]["total"] == 1003.60


def test_a_control_character_in_a_name_or_note_is_refused_alike_on_both_backends(client, session):
    """PostgreSQL would drop a NUL that SQLite keeps, so a name would read back two ways: refused."""
    hand_checked_catalog(session)
    for field in ("name", "note"):
        body = {field: "GPU\x00 plan", "params": {"gpu_hours": 400}}
        response = client.post("/api/scenarios", json=body)
        assert response.status_code == 422 and response.json()["detail"][0]["loc"] == ["body", field]
        response = save_via_page(client, **{field: "GPU\x1b plan"})
        assert response.status_code == 422
        assert html(response).select_one(f"#save-{field}-error").get_text() == (
            "may not hold control characters such as NUL"
        )
    assert saved_count(session) == 0
    kept = client.post("/api/scenarios", json={"note": "two\r\nlines\tand a tab", "params": {"gpu_hours": 400}})
    assert kept.status_code == 201 and kept.json()["note"] == "two\r\nlines\tand a tab"


def test_share_links_use_the_configured_public_address_not_the_host_header(client, session, monkeypatch):
    hand_checked_catalog(session)
    link = save_via_page(client).headers["location"]
    monkeypatch.setattr(settings, "public_url", "https://gpucost.example/")
    page = soup(client.get(link, headers={"Host": "evil.example"}))
    assert page.select_one("#share-link")["value"] == f"https://gpucost.example{link}"


def test_a_saved_filter_on_headquarters_keeps_its_offers_when_a_headquarters_changes(client, session):
    """Only the bare-metal host (DE) is outside the US: saved 1,250. It turns out to be US-based:
    today nothing passes the filter, the saved link still shows the 1,250 node."""
    hand_checked_catalog(session)
    link = save_via_page(client, query=f"{QUERY}&exclude_us_hq=on").headers["location"]
    metal = session.exec(select(Provider).where(Provider.slug == "metal")).one()
    change_headquarters(session, metal.id, "US", Provenance(source="https://example.test/hq"), Change("moved"))
    page = soup(client.get(link))
    assert totals(page) == {"bare_metal-monthly": "$1,250.00"}
    assert totals(soup(client.get(f"/?{QUERY}&exclude_us_hq=on"))) == {}


def test_an_oversized_upload_is_refused_before_it_is_read(client, session):
    hand_checked_catalog(session)
    token = soup(client.get("/")).select_one("details.import input[name=csrf_token]")["value"]
    files = {"file": ("big.json", b" " * (300 * 1024), "application/json")}
    assert client.post("/s/import", data={"csrf_token": token}, files=files).status_code == 413
    assert saved_count(session) == 0


def test_a_change_of_the_arithmetic_itself_is_not_hidden(client, session):
    """The link recomputes at the saved prices; should the model ever compute otherwise than when it
    was saved (here: the saved record says 1,003.59), the page says so and lists the saved totals."""
    hand_checked_catalog(session)
    link = save_via_page(client).headers["location"]
    assert soup(client.get(link)).select_one("section.scenario-details .problem") is None
    scenario = session.exec(select(Scenario)).one()
    totals_then = json.loads(scenario.totals)
    assert totals_then[0] == {"option": "virtualized/on_demand", "offer_id": 1, "total": "1003.60"}
    totals_then[0]["total"] = "1003.59"
    scenario.totals = json.dumps(totals_then)
    session.add(scenario)
    session.commit()
    warning = soup(client.get(link)).select_one("section.scenario-details .problem").get_text()
    assert "arithmetic has changed" in warning and "virtualized/on_demand: $1,003.59 a month" in warning


def test_a_saved_scenario_keeps_the_assumed_prices(client, session):
    """Saved with an assumed 0.05 USD/GB for unpublished egress and 0.10 USD/GB-month for storage:
    the link shows them among the inputs, and the API returns them."""
    hand_checked_catalog(session)
    query = f"{QUERY}&assumed_egress_usd_per_gb=0.05&assumed_storage_usd_per_gb_month=0.10"
    location = save_via_page(client, query=query).headers["location"]
    page = soup(client.get(location))
    assert page.select_one("#assumed_egress_usd_per_gb")["value"] == "0.05"
    assert page.select_one("#assumed_storage_usd_per_gb_month")["value"] == "0.1"
    saved = client.get(f"/api/scenarios/{location.removeprefix('/s/')}").json()
    assert (saved["params"]["assumed_egress_usd_per_gb"], saved["params"]["assumed_storage_usd_per_gb_month"]) == (
        0.05,
        0.10,
    )


def test_a_saved_scenario_does_not_call_its_price_list_that_days_prices(client, session):
    """The hand-checked catalog's version 1 is recorded the day the test runs, while its on-demand price
    is as of 2026-11-01: the page says when the list was recorded and that each price has its own date."""
    hand_checked_catalog(session)
    page = soup(client.get(save_via_page(client, name="Llama fine-tune").headers["location"]))
    said = " ".join(page.select_one("section.scenario p").get_text().split())
    listed = session.get(CatalogVersion, 1).created_at
    assert "that day's prices" not in said
    assert f"with the price list as it stood then (recorded {listed:%Y-%m-%d}; each price is as of the date" in said
