"""GET /offers and /offers.csv on the shipped catalog: every offer listed, filtered, sorted, paged
and downloaded, with prices on a common footing checked by hand."""

import csv
import io
from datetime import date
from urllib.parse import urlencode

import pytest

from app.quoting.explorer.listing import explorer_url
from tests.web.helpers import html, soup

P5_US_EAST_1 = "aws:p5.48xlarge:H100:us-east-1:on_demand"
QUBRID_H200 = "qubrid:NVIDIA H200 141GB 8-GPU SXM Server:H200:not stated:monthly"


@pytest.fixture
def client(shipped_client):
    return shipped_client


def rows(page):
    return page.select("table.offers tbody tr")


def cells(row):
    """A row's cells by column heading, as the page prints them."""
    return {td["data-label"]: td.get_text(" ", strip=True) for td in row.select("td[data-label]")}


def csv_rows(client, query):
    response = client.get(f"/offers.csv?{query}")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.text)))


def test_all_1018_shipped_offers_are_listed_100_a_page(client):
    """The first catalog's 853, the 159 of offers-eu-dedicated-2026-12 and the 6 of cluster-products-2026-12,
    those without a stated currency too."""
    page = soup(client.get("/offers"))
    assert page.select_one(".counts strong.total").text == "1018"
    assert "Showing 1–100 of 1018 offers." in page.select_one(".counts p").get_text()
    assert len(rows(page)) == 100
    last = soup(client.get(page.select_one("nav.paging a[rel=next]")["href"].replace("page=2", "page=11")))
    assert len(rows(last)) == 18, "1,018 = 10 pages of 100 and 18"
    assert "Showing 1001–1018 of 1018" in last.select_one(".counts p").get_text()
    assert last.select_one("nav.paging a[rel=next]") is None


def test_lambdas_h100_offers_are_the_15_rows_of_the_seed_file_and_3_clusters(client):
    """gpu_offers.csv has 15 Lambda H100 rows (5 products in 3 regions), none with a spot price; the 1-Click
    Clusters of 16, 64 and 256 GPUs are the other 3."""
    page = soup(client.get("/offers?gpu=H100&provider=lambda"))
    listed = [cells(r) for r in rows(page)]
    assert len(listed) == 18 and page.select_one(".counts strong.total").text == "18"
    assert {(c["Provider"], c["GPU"]) for c in listed} == {("Lambda", "H100")}
    assert sum(c["Product"].startswith("1-Click Cluster") for c in listed) == 3
    assert "(of 1018 in the catalog)" in page.select_one(".counts p").get_text()


@pytest.mark.parametrize(
    ("query", "count"),
    [
        # FI 69, FR 58, NL 41, IT 12, DE 11, PL 8, and IE, BG, SI, SE 1 each; not NO, IS or MA
        ("eu_only=on", 203),
        # Cudo 78 and Hyperstack 24 (GB), Lyceum 48 and Hetzner 12 (DE), OVHcloud 31 and Scaleway 11 (FR),
        # Nebius 29 and Leafcloud 4 (NL), Verda 26 (FI), Jarvislabs 14 (IN), Latitude 6 (BR), Gcore 2 (LU)
        ("exclude_us_hq=on", 285),
        # OVHcloud 31 and Scaleway 11 in FR, Nebius 20 in FI and 4 in FR, Verda 16 in FI, Leafcloud 4 in NL
        ("eu_only=on&exclude_us_hq=on&tenancy=virtualized", 86),
        ("country=NO&country=IS", 47),  # 39 and 8
        # GCP 12, Nebius 4, Prime Intellect 2, CoreWeave 2, Lyceum 2
        ("gpu_count=8&gpu=H100&gpu=H200&billing=spot", 22),
    ],
)
def test_the_facts_filters_count_what_the_catalog_states(client, query, count):
    page = soup(client.get(f"/offers?{query}"))
    assert page.select_one(".counts strong.total").text == str(count)
    assert len(rows(page)) == min(count, 100)


def test_sorted_by_gpu_hour_the_cheapest_is_a_5_cent_v100_spot_and_the_order_never_falls(client):
    """Prime Intellect's 1xV100 spot at 0.05 USD an hour for 1 GPU: 0.05 per GPU-hour, the least."""
    first = cells(rows(soup(client.get("/offers?sort=per_gpu_hour&dir=asc")))[0])
    assert (first["Product"], first["Billing"], first["USD per GPU-hour"]) == (
        "datacrunch__1xV100_16GB__6__23", "spot", "$0.0500"
    )  # fmt: skip
    listed = [r[1] for r in csv_rows(client, "cols=product&cols=per_gpu_hour")[1:]]
    priced = [float(value) for value in listed[:958]]
    assert priced == sorted(priced) and listed[958:] == [""] * 60, "the 60 without a stated currency last"


@pytest.mark.parametrize("direction", ["asc", "desc"])
def test_offers_in_no_known_country_come_last_either_way(client, direction):
    """133 shipped offers name no data-centre country (serverless, "any region" and "not stated" rows)."""
    countries = [r[1] for r in csv_rows(client, f"sort=country&dir={direction}&cols=product&cols=country")[1:]]
    known, unknown = countries[:885], countries[885:]
    assert unknown == [""] * 133 and "" not in known
    assert known == sorted(known, reverse=direction == "desc")


def test_an_8_gpu_p5_at_55_04_an_hour_is_6_88_a_gpu_hour_and_40_179_20_a_month(client):
    """55.04 / 8 GPUs = 6.88 per GPU-hour; 55.04 x 730 hours = 40,179.20 a month; 8 x 80 GiB of GPU
    memory, and the seed file's 192 vCPUs and 2,048 GiB of RAM."""
    columns = "cols=gpu_memory&cols=total_memory&cols=vcpus&cols=ram&cols=price&cols=per_hour&cols=per_gpu_hour"
    query = f"q=p5.48xlarge+us-east-1&billing=on_demand&{columns}&cols=per_month"
    (row,) = rows(soup(client.get(f"/offers?{query}")))
    assert cells(row) == {
        "GiB per GPU": "80",
        "GPU GiB in all": "640",
        "vCPUs": "192",
        "RAM, GiB": "2048",
        "Price as published": "$55.04 per hour",
        "USD per hour": "$55.0400",
        "USD per GPU-hour": "$6.8800",
        "USD per month": "$40,179.20",
    }


def test_a_yearly_8_gpu_server_at_210_240_is_24_an_hour_and_17_520_a_month(client):
    """Qubrid's H200 server, 210,240 a year: / 8,760 hours = 24.00 an hour, / 8 GPUs = 3.00 per
    GPU-hour, x 730 hours = 17,520.00 a month (a twelfth of the year). Its file states no vCPUs."""
    query = "q=qubrid+h200&cols=vcpus&cols=price&cols=per_hour&cols=per_gpu_hour&cols=per_month"
    assert csv_rows(client, query)[1:] == [["", "210240 USD per year", "24", "3", "17520"]]
    (row,) = rows(soup(client.get(f"/offers?{query}")))
    assert cells(row)["vCPUs"] == "unknown"


def test_the_partial_is_the_table_block_the_sort_fields_and_the_filters_count_alone(client):
    response = client.get("/offers?gpu=H100&provider=lambda", headers={"HX-Request": "true"})
    page = soup(response)
    assert page.select_one("h1") is None and page.select_one("form") is None
    assert len(rows(page.select_one("section#offer-table"))) == 18
    assert page.select_one("#sort-fields")["hx-swap-oob"] == "true"
    assert page.select_one("#filters-chosen[hx-swap-oob=true]").get_text() == "2 chosen"


def test_the_filters_are_boxes_to_tick_under_a_fold_that_counts_them(client):
    """No list box to Ctrl-click: each GPU model, provider and country has its box, ticked as the query says."""
    page = soup(client.get("/offers?gpu=H100&gpu=H200&country=DE&eu_only=on"))
    fold = page.select_one("form#offer-filters details.filters[open]")
    assert fold.summary.get_text(" ", strip=True) == "Filters 4 chosen"
    assert page.select("form#offer-filters select[multiple]") == []
    for name, legend in [("gpu", "GPU model"), ("provider", "Provider"), ("country", "Data-centre country")]:
        boxes = fold.select(f"input[type=checkbox][name={name}]")
        assert boxes[0].find_parent("fieldset").legend.get_text() == legend and len(boxes) > 5
    ticked = [box["value"] for box in fold.select("input:checked")]
    assert ticked == ["H100", "H200", "DE", "on"]
    provider = fold.select_one("input[name=provider][value=aws]").parent.get_text(strip=True)
    assert provider == "Amazon Web Services"


def test_the_sorted_column_says_so_and_its_link_turns_the_order_round(client):
    page = soup(client.get("/offers?sort=per_month"))
    (sorted_column,) = page.select("th[aria-sort]")
    assert sorted_column["aria-sort"] == "ascending"
    assert "sort=per_month&dir=desc" in sorted_column.a["href"]
    assert "sort highest first" in sorted_column.a.get_text()


def test_the_csv_has_exactly_the_chosen_columns_and_every_filtered_row(client):
    table = csv_rows(client, "gpu=H100&provider=lambda&cols=gpus&cols=provider&cols=gpu&sort=gpus&dir=desc")
    assert table[0] == ["Provider", "GPU", "GPUs per unit"], "in the table's order, whatever the query's"
    assert [r[2] for r in table[1:]] == ["8"] * 6 + ["4"] * 3 + ["2"] * 3 + ["1"] * 6, "3 of the 8s are clusters"
    link = soup(client.get("/offers?gpu=H100&provider=lambda&cols=gpus")).select_one("a.csv")
    assert link["href"] == "/offers.csv?gpu=H100&provider=lambda&cols=gpus" and "18 offers" in link.text


def test_head_answers_like_get(client):
    assert client.head("/offers").status_code == 200
    response = client.head("/offers.csv?gpu=H100")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("sort=bananas", "Sort by must be one of provider, product"),
        ("page=-1", "Page must be at least 1"),
        ("gpu_count=abc", "GPUs per unit must be a whole number"),
        ("cols=provider&cols=colour", "Columns has no column colour"),
        ("dir=up", "Order must be one of 'asc' or 'desc'"),
        ("catalog_version=999", "Catalog version there is no catalog version 999"),
    ],
)
def test_a_bad_query_is_refused_with_what_to_fix(client, query, message):
    page = html(response := client.get(f"/offers?{query}"))
    assert response.status_code == 422
    assert message in page.select_one("#offer-table p.problem").get_text(" ", strip=True)
    assert page.select_one("form#offer-filters") is not None, "the form stays, to fix the query"
    refused = client.get(f"/offers.csv?{query}")
    assert refused.status_code == 422 and message in refused.text


def test_a_refusal_in_the_partial_replaces_the_table_so_it_is_seen(client):
    """htmx swaps in only a 2xx answer: a search typed past 100 characters says so in the table's place."""
    response = client.get(f"/offers?q={'h' * 101}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Search is too long (at most 100 characters)" in soup(response).select_one("p.problem").get_text()


def test_an_offers_place_in_the_explorer_is_its_page_marked(client, shipped):
    """The p5 in us-east-1 among AWS's H100 offers, by the default order (per GPU-hour)."""
    record = next(o for o in shipped.current().offers if o.row.key == P5_US_EAST_1)
    url = explorer_url(record)
    assert url.startswith("/offers?gpu=H100&provider=aws&at=aws%3Ap5.48xlarge")
    assert url.endswith(f"#offer-{record.priced.offer_id}")
    (marked,) = soup(client.get(url.split("#")[0])).select("tr.focus")
    assert marked["aria-current"] == "true" and marked["id"] == f"offer-{record.priced.offer_id}"
    first = shipped.at(1).offers_by_key[P5_US_EAST_1]  # an older version of it: dated-offers-2026-12 dated it
    at_first = explorer_url(first, 1)
    assert "&catalog_version=1#" in at_first
    caption = soup(client.get(at_first.split("#")[0])).select_one("table.offers caption").text
    newest = max(o.row.as_of for o in shipped.at(1).listed if o.row.as_of)
    assert "the price list of 2026-10-07" in caption and newest == date(2026, 10, 7), "its newest price's date"


def test_the_dearest_offer_per_gpu_hour_opens_on_the_last_page(client, shipped):
    offers = shipped.current().offers
    dearest = max(offers, key=lambda o: o.priced.usd_per_gpu_hour)
    assert sum(o.priced.usd_per_gpu_hour == dearest.priced.usd_per_gpu_hour for o in offers) == 1
    page = soup(client.get("/offers?" + urlencode({"at": dearest.row.key})))
    assert "Page 10 of 11" in page.select_one("nav.paging").get_text()
    assert rows(page)[57] == page.select_one("tr.focus"), "the 958th: the 60 without a stated currency follow"


def test_each_row_prices_a_workload_on_its_offer(client):
    (row,) = rows(soup(client.get("/offers?q=p5.48xlarge+us-east-1&billing=on_demand")))
    assert row.select_one("td.quote a")["href"] == "/?gpu=H100&offer=aws%3Ap5.48xlarge%3AH100%3Aus-east-1%3Aon_demand"


def test_providers_notes_read_as_sentences_and_the_research_trail_is_apart(client):
    """The shipped egress, storage and headquarters facts: no repository, commit or copy in the notes
    a reader is given; each such trail in its own `read_from`."""
    providers = client.get("/api/providers").json()
    facts = [
        fact
        for p in providers
        for fact in [p["headquarters"], *p["egress_tiers"], *((p["storage"] or {}).get("tiers") or [])]
        if fact
    ]
    assert sum(bool(fact["read_from"]) for fact in facts) >= 40
    for fact in facts:
        assert "Taken from" not in fact["notes"] and "As of as published" not in fact["notes"], fact["notes"]
    aws = next(p for p in providers if p["slug"] == "aws")
    assert aws["egress_tiers"][0]["read_from"].startswith("Taken from: aws/agent-toolkit-for-aws")
