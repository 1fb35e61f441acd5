"""Refresh from each public source, answered from recorded responses: what it would change, what
it leaves out and why, and that a failed or malformed answer plans nothing."""

import re
from datetime import date
from decimal import Decimal

import httpx
import pytest

from app.platform.settings import settings
from app.refresh.azure import first_page
from app.refresh.fetch import RefreshFailed
from app.refresh.sources import plan_refresh
from tests.refresh.conftest import AZURE, AZURE_PAGE_2, LAMBDA_URL, OCI, answering, azure_routes, recorded


@pytest.fixture(autouse=True)
def test_addresses(monkeypatch):
    monkeypatch.setattr(settings, "azure_prices_url", AZURE)
    monkeypatch.setattr(settings, "oci_prices_url", OCI)


def changed(plan):
    return {row.key: (row.price, row.as_of, row.source_url) for _, row in plan.change}


def test_skypilot_refresh_reprices_the_catalogs_offers_dated_today_with_the_files_address(db, sources_catalog):
    """Lambda's 8x H100 in us-east-1: 23.92 -> 31.92 per hour; 8x V100 keeps 6.32 but is dated today.
    B200 is new to the catalog: it comes in at its 3 cheapest regions (all 6.99, so by name)."""
    plan = plan_refresh(db, 1, "skypilot:lambda", answering({LAMBDA_URL: recorded("skypilot_lambda_vms.csv")}))
    assert plan.problems == []
    assert changed(plan) == {
        "lambda:gpu_8x_h100_sxm5:H100:us-east-1:on_demand": (Decimal("31.92"), date.today(), LAMBDA_URL),
        "lambda:gpu_8x_v100:V100:us-east-1:on_demand": (Decimal("6.32"), date.today(), LAMBDA_URL),
    }
    assert sorted(row.region for row in plan.add) == ["asia-south-1", "europe-central-1", "us-east-1"]
    assert {row.price for row in plan.add} == {Decimal("6.99")}
    assert plan.left_out == [
        "2 left out: a region the catalog does not list for this product",
        "1 left out: GPU A6000 is not in the catalog",
        "1 left out: GPU GH200 is not in the catalog",
        "1 left out: no GPU",
        "1 left out: regions of a new product past its 3 cheapest",
    ]


def test_azure_refresh_follows_next_page_links_and_keeps_linux_pay_as_you_go_and_spot(db, sources_catalog):
    """Page 1: NC24ads A100 v4 eastus 3.673 on demand, 0.90 spot (Windows and low priority left out);
    page 2: westeurope, a region the catalog does not list, and an H100 size it does not have."""
    plan = plan_refresh(db, 1, "azure", answering(azure_routes()))
    first = str(httpx.URL(first_page(AZURE)))
    assert changed(plan) == {
        "azure:Standard_NC24ads_A100_v4:A100-80GB:eastus:on_demand": (Decimal("3.673"), date.today(), first),
        "azure:Standard_NC24ads_A100_v4:A100-80GB:eastus:spot": (Decimal("0.9"), date.today(), first),
    }
    assert plan.add == [] and plan.problems == []
    assert plan.left_out == [
        "2 left out: Windows or low-priority prices",
        "1 left out: a machine size the catalog does not have",
        "1 left out: a region the catalog does not list for this product",
    ]


def test_oci_refresh_prices_each_shape_at_its_gpus_times_the_gpu_hour_price(db, sources_catalog):
    """H100 at 10.00 per GPU-hour: BM.GPU.H100.8 = 8 x 10 = 80.00 an hour in both regions; A10 at
    2.00: VM.GPU.A10.1 = 2.00. The block-volume part is not a GPU price."""
    plan = plan_refresh(db, 1, "oci", answering({OCI: recorded("oci_products.json")}))
    assert {key: price for key, (price, _, _) in changed(plan).items()} == {
        "oci:BM.GPU.H100.8:H100:us-ashburn-1:on_demand": Decimal(80),
        "oci:BM.GPU.H100.8:H100:eu-frankfurt-1:on_demand": Decimal(80),
        "oci:VM.GPU.A10.1:A10:us-ashburn-1:on_demand": Decimal(2),
    }
    assert plan.left_out == ["1 left out: not a GPU-hour price"]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (httpx.ReadTimeout("slow"), "did not answer in time"),
        (httpx.ConnectError("refused"), "could not be reached (ConnectError)"),
        (httpx.Response(503), "answered HTTP 503"),
        (httpx.Response(200, text="<html>rate limited</html>"), "did not send JSON"),
        (httpx.Response(200, json={"items": "none"}), "is not Oracle's price list"),
    ],
    ids=["timeout", "network error", "HTTP error", "not JSON", "not a price list"],
)
def test_a_source_that_cannot_be_read_whole_plans_nothing_and_says_why(db, sources_catalog, answer, reason):
    with pytest.raises(RefreshFailed, match=re.escape(reason)):
        plan_refresh(db, 1, "oci", answering({OCI: answer}))


def test_an_azure_page_that_fails_part_way_fails_the_whole_refresh(db, sources_catalog):
    client = answering(azure_routes(**{AZURE_PAGE_2: httpx.Response(500)}))
    with pytest.raises(RefreshFailed, match=r"\$skip=100 answered HTTP 500"):
        plan_refresh(db, 1, "azure", client)


def test_a_skypilot_file_without_its_columns_is_refused(db, sources_catalog):
    client = answering({LAMBDA_URL: httpx.Response(200, text="name,price\nx,1\n")})
    with pytest.raises(RefreshFailed, match="is not a SkyPilot catalog: no AcceleratorCount, AcceleratorName"):
        plan_refresh(db, 1, "skypilot:lambda", client)


def test_a_skypilot_file_with_carriage_return_line_endings_plans_the_same(db, sources_catalog):
    lf = recorded("skypilot_lambda_vms.csv").text
    plans = [
        plan_refresh(db, 1, "skypilot:lambda", answering({LAMBDA_URL: httpx.Response(200, text=text)}))
        for text in (lf, lf.replace("\r\n", "\n").replace("\n", "\r"))
    ]
    assert plans[1].problems == [] and changed(plans[1]) == changed(plans[0]) and plans[1].add == plans[0].add


def test_a_skypilot_file_whose_header_cannot_be_read_is_refused(db, sources_catalog):
    client = answering({LAMBDA_URL: httpx.Response(200, text="InstanceType," + "x" * 200_000 + "\n")})
    with pytest.raises(RefreshFailed, match="is not readable CSV: field larger than field limit"):
        plan_refresh(db, 1, "skypilot:lambda", client)


def test_malformed_rows_are_reported_by_line_and_block_the_apply(db, sources_catalog):
    bad = "gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,-1,us-south-1,,\ngpu_2x_h100,H100,two,1,1,2.5,us-east-1,,\n"
    text = recorded("skypilot_lambda_vms.csv").text + bad
    plan = plan_refresh(db, 1, "skypilot:lambda", answering({LAMBDA_URL: httpx.Response(200, text=text)}))
    assert plan.problems == [
        ("line 13", "Price must be a price of 0 or more"),
        ("line 14", "AcceleratorCount must be a whole number from 1 to 1,024"),
    ]


def test_an_azure_next_page_elsewhere_than_the_price_list_is_not_followed(db, sources_catalog):
    page = {"Items": [], "NextPageLink": "http://127.0.0.1:8080/admin"}
    client = answering({str(httpx.URL(first_page(AZURE))): httpx.Response(200, json=page)})
    with pytest.raises(RefreshFailed, match="links its next page to 'http://127.0.0.1:8080/admin'"):
        plan_refresh(db, 1, "azure", client)


def test_a_shape_price_past_the_catalogs_limit_is_a_malformed_row(db, sources_catalog):
    """9,999,999 per GPU-hour x 8 GPUs = 79,999,992 per hour: past the 10,000,000 any price may be."""
    prices = [{"currencyCode": "USD", "prices": [{"model": "PAY_AS_YOU_GO", "value": 9999999}]}]
    huge = {
        "items": [{"partNumber": "B98415", "displayName": "Compute - GPU - H100", "currencyCodeLocalizations": prices}]
    }
    plan = plan_refresh(db, 1, "oci", answering({OCI: httpx.Response(200, json=huge)}))
    assert plan.problems and all("must be at most 10,000,000" in reason for _, reason in plan.problems)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("gpu_8x_h100_sxm5,H100", "the row has a different number of fields than the header"),
        ("gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,3_1.92,us-east-1,,", "Price must be a number, e.g. 2.49"),
        ("gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,NaN,us-east-1,,", "Price must be a number, e.g. 2.49"),
    ],
    ids=["short row", "digits with an underscore", "not a number"],
)
def test_rows_python_would_misread_are_malformed(db, sources_catalog, line, reason):
    text = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" + line
    plan = plan_refresh(db, 1, "skypilot:lambda", answering({LAMBDA_URL: httpx.Response(200, text=text)}))
    assert plan.problems == [("line 2", reason)]


def test_an_azure_price_in_another_currency_is_a_refused_row(db, sources_catalog):
    """The API is asked for USD; an item priced in EUR is refused with its page and item, not converted."""
    item = {"armSkuName": "Standard_NC24ads_A100_v4", "skuName": "NC24ads A100 v4", "armRegionName": "eastus",
            "productName": "Virtual Machines NCads A100 v4 Series", "unitOfMeasure": "1 Hour",
            "currencyCode": "EUR", "retailPrice": 3.1}  # fmt: skip
    client = answering({str(httpx.URL(first_page(AZURE))): httpx.Response(200, json={"Items": [item]})})
    plan = plan_refresh(db, 1, "azure", client)
    assert plan.problems == [
        ("page 1, item 1", "Standard_NC24ads_A100_v4: priced per '1 Hour' in 'EUR', not USD per hour")
    ]
    assert not plan.applicable


def test_a_refresh_past_the_catalogs_bound_is_one_problem_and_plans_no_further(db, sources_catalog, monkeypatch):
    """9 offers and a bound of 11: Lambda's B200 comes in at its 3 cheapest regions, lines 8 to 10;
    line 10's us-east-1 would be the 12th offer."""
    monkeypatch.setattr(settings, "catalog_offers_max", 11)
    plan = plan_refresh(db, 1, "skypilot:lambda", answering({LAMBDA_URL: recorded("skypilot_lambda_vms.csv")}))
    message = (
        "this source would bring the catalog past 11 current offers, the most one catalog version may hold "
        "(CATALOG_OFFERS_MAX); it was read up to line 10: import fewer rows, or retire offers first"
    )
    assert plan.problems == [("line 10", message)]
    assert sorted(row.region for row in plan.add) == ["asia-south-1", "europe-central-1"]
    assert not plan.applicable
