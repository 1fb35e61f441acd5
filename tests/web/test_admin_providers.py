import pytest
from sqlmodel import select

from app.catalog.rows import OFFER_CHECKS
from app.catalog.tables import CatalogVersion, Provider
from app.web.admin.offers import NewOffer
from tests.web.helpers import QUERY, csrf, html, soup, totals, versions


def cloud_id(session):
    return session.exec(select(Provider).where(Provider.slug == "cloud")).one().id


def post_tiers(client, provider_id, tiers, **extra):
    form = html(client.get(f"/admin/providers/{provider_id}"))
    data = {"csrf_token": form.select_one("input[name=csrf_token]")["value"], "tiers": tiers,
            "based_on": form.select_one("input[name=based_on]")["value"], "source": "https://example.test/egress",
            "as_of": "2026-11-20", "source_kind": "official", "note": "new tiers", "currency": "USD",
            **extra}  # fmt: skip
    return client.post(f"/admin/providers/{provider_id}/egress", data=data, follow_redirects=False)


def test_new_egress_tiers_change_quotes_from_a_new_version_on(signed_in, session):
    """Cloud's 100 GB free then 0.09 becomes 50 GB free then 0.10: 140 GB out costs 90 x 0.10 = 9.00
    instead of 3.60, so on demand at 400 h goes from 1,003.60 to 1,009.00."""
    assert post_tiers(signed_in, cloud_id(session), "0,50,0\n50,,0.10").status_code == 303
    assert totals(soup(signed_in.get(f"/?{QUERY}")))["virtualized-on_demand"] == "$1,009.00"
    assert totals(soup(signed_in.get(f"/?{QUERY}&catalog_version=1")))["virtualized-on_demand"] == "$1,003.60"


@pytest.mark.parametrize(
    ("tiers", "message"),
    [
        ("0,50,0\n60,,0.10", "tier starting at 60.0 GB should start at 50.0 GB"),
        ("0,50,0\n40,,0.10", "tier starting at 40.0 GB should start at 50.0 GB"),
        ("0,50,0\n50,,-0.10", "prices cannot be negative"),
        ("0,,0\n50,,0.10", "only the last tier may be open-ended"),
        ("0,50", "line 1: write from_gb,to_gb,price_per_gb"),
    ],
)
def test_egress_tiers_must_be_contiguous_and_not_negative(signed_in, session, tiers, message):
    before = versions(session)
    response = post_tiers(signed_in, cloud_id(session), tiers)
    assert response.status_code == 422
    assert html(response).select_one("#tiers-error").get_text() == message
    assert versions(session) == before


def test_an_egress_edit_based_on_an_old_table_is_refused(signed_in, session):
    stale_form = html(signed_in.get(f"/admin/providers/{cloud_id(session)}"))
    assert post_tiers(signed_in, cloud_id(session), "0,10,0\n10,,0.05").status_code == 303
    data = {"csrf_token": stale_form.select_one("input[name=csrf_token]")["value"], "tiers": "0,,0",
            "based_on": stale_form.select_one("input[name=based_on]")["value"], "source": "https://example.test/e",
            "as_of": "2026-11-21", "source_kind": "official", "note": "free now", "currency": "USD"}  # fmt: skip
    response = signed_in.post(f"/admin/providers/{cloud_id(session)}/egress", data=data)
    assert response.status_code == 409 and "Someone changed this after you opened" in html(response).get_text()
    assert html(response).select_one("#tiers").get_text() == "0,,0", "the typed table is kept"


STORAGE = {"kind": "block_volume", "currency": "USD", "product": "SSD volume", "source": "https://example.test/s",
           "as_of": "2026-11-20", "source_kind": "transcription", "quote": "$0.02 per GB-month",
           "note": "storage listed"}  # fmt: skip


def test_a_storage_price_is_priced_into_quotes_with_its_kind_and_source(signed_in, session):
    """500 GB stored at 0.02 USD/GB-month adds 10.00: on demand at 400 h 1,003.60 -> 1,013.60."""
    data = STORAGE | {"csrf_token": csrf(signed_in, "/admin/providers"), "tiers": "0,,0.02"}
    url = f"/admin/providers/{cloud_id(session)}/storage"
    assert signed_in.post(url, data=data, follow_redirects=False).status_code == 303
    assert totals(soup(signed_in.get(f"/?{QUERY}&stored_gb=500")))["virtualized-on_demand"] == "$1,013.60"
    (cloud,) = [p for p in signed_in.get("/api/providers").json() if p["slug"] == "cloud"]
    assert cloud["storage"]["kind"] == "block_volume" and cloud["storage"]["product"] == "SSD volume"
    assert cloud["storage"]["tiers"][0] | {"usd_per_gb": 0.02} == cloud["storage"]["tiers"][0]
    assert (cloud["storage"]["tiers"][0]["source_kind"], cloud["storage"]["tiers"][0]["quote"]) == (
        "transcription",
        "$0.02 per GB-month",
    )


def test_storage_in_tiers_prices_each_gb_at_its_tier(signed_in, session):
    """First 1,000 GB free, then 0.05: 1,500 GB stored adds 500 x 0.05 = 25.00: 1,003.60 -> 1,028.60."""
    data = STORAGE | {"csrf_token": csrf(signed_in, "/admin/providers"), "tiers": "0,1000,0\n1000,,0.05"}
    assert signed_in.post(f"/admin/providers/{cloud_id(session)}/storage", data=data).status_code == 200
    assert totals(soup(signed_in.get(f"/?{QUERY}&stored_gb=1500")))["virtualized-on_demand"] == "$1,028.60"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("kind", "object", "must be one of block_volume, shared_filesystem"),
        ("source_kind", "", "say who published it: the provider, a copy of its page, or a third party"),
        ("tiers", "0,,-1", "prices cannot be negative"),
        ("product", "", "must be 1 to 120 characters"),
    ],
)
def test_storage_needs_a_checkpoint_kind_a_publisher_and_sane_tiers(signed_in, session, field, value, message):
    before = versions(session)
    data = STORAGE | {"csrf_token": csrf(signed_in, "/admin/providers"), "tiers": "0,,0.02", field: value}
    response = signed_in.post(f"/admin/providers/{cloud_id(session)}/storage", data=data)
    assert response.status_code == 422
    assert html(response).select_one(f"#storage_{field}-error").get_text() == message
    assert versions(session) == before


def test_new_provider_gpu_model_and_offer_appear_in_quotes(signed_in, session):
    """A new DE provider's B200 on demand at 5.00/h: 400 h x 5.00 = 2,000 (no egress price: * note)."""
    token = csrf(signed_in, "/admin/providers")
    provider = {"csrf_token": token, "slug": "acme", "name": "Acme GPU", "hq_country": "DE",
                "hq_source": "https://example.test/about"}  # fmt: skip
    assert signed_in.post("/admin/providers", data=provider, follow_redirects=False).status_code == 303
    gpu = {"csrf_token": token, "name": "B200", "memory_gib": "180"}
    assert signed_in.post("/admin/gpus", data=gpu, follow_redirects=False).status_code == 303
    offer = {"csrf_token": token, "provider": "acme", "gpu": "B200", "product": "1x B200", "tenancy": "virtualized",
             "billing": "on_demand", "gpus_per_unit": "1", "price": "5.00", "currency": "USD", "price_period": "hour",
             "region": "fra1", "region_country": "DE", "source_url": "https://example.test/b200",
             "as_of": "2026-11-20", "note": "new offer"}  # fmt: skip
    assert signed_in.post("/admin/new-offer", data=offer, follow_redirects=False).status_code == 303
    assert totals(soup(signed_in.get("/?gpu=B200&gpu_hours=400&checkpoints_out=0&virt_tax=0"))) == {
        "virtualized-on_demand": "$2,000.00"
    }
    records = [v.record for v in session.exec(select(CatalogVersion).order_by(CatalogVersion.id))][1:]
    assert records == ["provider acme", "gpu B200", "offer acme:1x B200:B200:fra1:on_demand"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("gpu", "Z9000", "choose a known GPU model (add it under GPU models first)"),
        ("price", "-2", "must be a price of 0 or more"),
        ("source_url", "", "must be the http(s) address of the page the price was read from"),
        ("as_of", "", "must be a date, YYYY-MM-DD"),
        ("currency", "", "choose the currency the price is published in"),
    ],
)
def test_a_new_offer_needs_a_known_gpu_a_price_a_source_and_a_date(signed_in, session, field, value, message):
    offer = {"csrf_token": csrf(signed_in, "/admin/new-offer"), "provider": "cloud", "gpu": "H100",
             "product": "new", "tenancy": "virtualized", "billing": "on_demand", "gpus_per_unit": "1",
             "price": "5.00", "currency": "USD", "price_period": "hour", "region": "r",
             "source_url": "https://example.test/x", "as_of": "2026-11-20", "note": "n", field: value}  # fmt: skip
    before = versions(session)
    response = signed_in.post("/admin/new-offer", data=offer)
    assert response.status_code == 422 and html(response).select_one(f"#{field}-error").get_text() == message
    assert versions(session) == before


def test_retiring_a_provider_takes_its_offers_out_of_new_quotes_only(signed_in, session):
    data = {"csrf_token": csrf(signed_in, "/admin/providers"), "note": "closed down"}
    signed_in.post(f"/admin/providers/{cloud_id(session)}/retire", data=data)
    assert "virtualized-on_demand" not in totals(soup(signed_in.get(f"/?{QUERY}")))
    assert "virtualized-on_demand" in totals(soup(signed_in.get(f"/?{QUERY}&catalog_version=1")))


def test_an_empty_egress_table_means_no_published_price(signed_in, session):
    assert post_tiers(signed_in, cloud_id(session), "").status_code == 303
    row = soup(signed_in.get(f"/?{QUERY}")).select_one('tr[data-option="virtualized-on_demand"]')
    assert [td.get_text(strip=True) for td in row.select("td.num")][1] == "not published"


def test_the_later_of_two_storage_edits_is_refused(signed_in, session):
    def form():
        page = html(signed_in.get(f"/admin/providers/{cloud_id(session)}"))
        storage = page.select_one("form[action$='/storage']")
        return {"csrf_token": storage.select_one("input[name=csrf_token]")["value"],
                "based_on": storage.select_one("input[name=based_on]")["value"],
                **STORAGE}  # fmt: skip

    first, second = form(), form()
    url = f"/admin/providers/{cloud_id(session)}/storage"
    assert signed_in.post(url, data=first | {"tiers": "0,,0.02"}, follow_redirects=False).status_code == 303
    refused = signed_in.post(url, data=second | {"tiers": "0,,0.03"})
    assert refused.status_code == 409 and html(refused).select_one("#storage_tiers").get_text() == "0,,0.03"
    assert totals(soup(signed_in.get(f"/?{QUERY}&stored_gb=500")))["virtualized-on_demand"] == "$1,013.60"


def test_the_new_offer_form_asks_for_every_field_the_catalog_checks(signed_in):
    """The form is written out as typed (strings); what it asks for must follow the catalog's checks."""
    form = html(signed_in.get("/admin/new-offer")).select_one("form[action='/admin/new-offer']")
    asked = {field["name"] for field in form.select("input[name], select[name], textarea[name]")} - {"csrf_token"}
    assert asked == set(NewOffer.model_fields) == {"provider", "gpu", "note"} | (set(OFFER_CHECKS) - {"notes"})
