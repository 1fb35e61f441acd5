from urllib.parse import quote_plus

import pytest

from app.catalog.tables import OfferVersion
from tests.factories import hand_checked_catalog, make_offer, make_provider
from tests.web.helpers import QUERY, soup, totals


def test_page_shows_each_options_total_worked_by_hand(client, session):
    """400 h: on demand 2.50 x 400 = 1,000 + 40 GB x 0.09 = 3.60 -> 1,003.60; the node 1,250 (no
    egress fees); serverless 0.001 x 3,600 = 3.60/h x 400 = 1,440."""
    hand_checked_catalog(session)
    page = soup(client.get(f"/?{QUERY}"))
    assert totals(page) == {
        "virtualized-on_demand": "$1,003.60",
        "bare_metal-monthly": "$1,250.00",
        "serverless-per_second": "$1,440.00",
    }


def test_every_input_has_a_label_and_the_chart_a_title(client, session):
    hand_checked_catalog(session)
    page = soup(client.get("/"))
    for field in page.select("form input:not([type=hidden]):not([type=checkbox]), form select"):
        labelled = page.select_one(f'label[for="{field.get("id")}"]') or field.get("aria-label")
        assert labelled, field
    for box in page.select("form input[type=checkbox]"):
        assert box.find_parent("label"), box
    assert page.select_one("#results svg title").get_text(strip=True).startswith("Monthly total cost")


def test_break_even_is_marked_on_the_chart_and_listed(client, session):
    """On demand 2.50 H + 3.60 = 1,250 at H = 498.56; listed with one decimal."""
    hand_checked_catalog(session)
    page = soup(client.get(f"/?{QUERY}"))
    [item] = [li for li in page.select("ol.break-evens li") if "on demand vs Bare metal, monthly" in li.get_text()]
    text = " ".join(item.get_text().split())
    assert (
        "Virtualized, on demand vs Bare metal, monthly node: 498.6 GPU-h (Bare metal, monthly node cheaper above)"
        in text
    )
    for chart in page.select("#results svg.frame-wide, #results svg.frame-narrow"):
        [badge] = [g for g in chart.select(".break-even") if g.select_one("text").get_text() == item["value"]]
        assert "Virtualized, on demand and Bare metal, monthly node cost the same at 498.6" in badge.title.get_text()


def test_htmx_request_gets_only_the_results_block_one_swap(client, session):
    """A move of the slider: the page's address holds the inputs before it (each change is pushed there)."""
    hand_checked_catalog(session)
    before = {"HX-Current-URL": f"http://testserver/?{QUERY.replace('gpu_hours=400', 'gpu_hours=300')}"}
    response = client.get(f"/?{QUERY}&unknown=1", headers={"HX-Request": "true"} | before)
    page = soup(response)
    assert page.select_one("form") is None
    assert page.select_one("section#results table.options")
    assert page.select("[hx-swap-oob]") == [], "no out-of-band swaps when nothing is wrong"


def test_a_live_update_with_a_mistake_keeps_the_last_results_and_the_url(client, session):
    """htmx swaps nothing but the messages, and pushes no URL: the results shown stay those of the
    last inputs that worked, and so does the address a user would share."""
    hand_checked_catalog(session)
    response = client.get(f"/?{QUERY}&gpu_hours=-1", headers={"HX-Request": "true"})
    assert (response.headers["HX-Reswap"], response.headers["HX-Push-Url"]) == ("none", "false")
    page = soup(response)
    assert page.select_one("section#results") is None
    problem = page.select_one('#results-problem[hx-swap-oob="true"] .problem').get_text()
    assert "GPU-hours per month must be at least 0" in problem and "last inputs that worked" in problem
    assert page.select_one('#gpu_hours-error[hx-swap-oob="true"]').get_text() == "must be at least 0"
    slots = {slot["id"] for slot in page.select('.error[hx-swap-oob="true"]')}
    assert slots == {slot["id"] for slot in soup(client.get("/")).select("form#calculator .error")}


def test_the_fragment_is_the_same_markup_as_the_pages_results(client, session):
    hand_checked_catalog(session)
    full = soup(client.get(f"/?{QUERY}")).select_one("section#results table")
    part = soup(client.get(f"/?{QUERY}", headers={"HX-Request": "true"})).select_one("section#results table")
    assert str(full) == str(part)


def test_filters_keep_only_eu_offers_and_non_us_providers(client, session):
    hand_checked_catalog(session)
    assert set(totals(soup(client.get(f"/?{QUERY}&eu_only=on")))) == {"bare_metal-monthly"}
    assert set(totals(soup(client.get(f"/?{QUERY}&exclude_us_hq=on")))) == {"bare_metal-monthly"}
    tenancies = "&tenancy=serverless&tenancy=virtualized"
    assert set(totals(soup(client.get(f"/?{QUERY}{tenancies}")))) == {"virtualized-on_demand", "serverless-per_second"}


def test_bad_number_shows_a_message_next_to_the_field_and_keeps_the_form(client, session):
    hand_checked_catalog(session)
    page = soup(client.get("/?gpu_hours=abc&peak_gpus=3&checkpoint_gb=70"))
    assert page.select_one("#gpu_hours-error").get_text(strip=True) == "must be a number"
    assert page.select_one("#gpu_hours")["value"] == "abc"
    assert page.select_one("#peak_gpus")["value"] == "3"
    assert page.select_one("#checkpoint_gb")["value"] == "70"
    assert page.select_one("table.options") is None


def test_out_of_range_huge_and_non_finite_values_are_refused_not_crashed(client, session):
    hand_checked_catalog(session)
    cases = {
        "gpu_hours=-1": ("gpu_hours", "must be at least 0"),
        "gpu_hours=": ("gpu_hours", "must be a number"),
        "gpu_hours=1e400": ("gpu_hours", "must be a finite number"),
        "gpu_hours=nan": ("gpu_hours", "must be a finite number"),
        "peak_gpus=2.5": ("peak_gpus", "must be a whole number"),
        "months=999999999999999999999999": ("months", "must be at most 120"),
        "gpu=Z9000": ("gpu", "is not a GPU model in the catalog"),
        "tenancy=mainframe": ("tenancy", "must be one of 'bare_metal', 'virtualized', 'serverless' or 'owned'"),
        "catalog_version=99999999999999999999999": ("catalog_version", "must be at most 2,147,483,647"),
    }
    for query, (field, message) in cases.items():
        page = soup(client.get(f"/?{query}"))
        assert page.select_one(f"#{field}-error").get_text(strip=True) == message, query


def test_plain_get_without_htmx_renders_the_whole_page(client, session):
    hand_checked_catalog(session)
    page = soup(client.get(f"/?{QUERY}"))
    form = page.select_one("form#calculator")
    assert form["method"] == "get" and form["action"] == "/"
    assert page.select_one("#gpu_hours")["value"] == "400"


def test_text_from_the_catalog_is_escaped_and_only_web_links_are_links(client, session):
    provider = make_provider(session, "<script>alert(1)</script>")
    make_offer(session, provider, "2.50", source_url="javascript:alert(1)")
    page = soup(client.get("/?gpu=H100"))
    assert page.select_one("table.options script") is None
    assert "<script>alert(1)</script>" in page.select_one("table.options").get_text().lower()
    assert not page.select('a[href^="javascript:"]')


def test_chart_top_is_the_next_round_figure_above_the_dearest_curve(client, session):
    """Serverless at 3.60 USD/GPU-h reaches 3,600 at the axis end (1,000 h): the top is 4,000."""
    hand_checked_catalog(session)
    labels = [t.get_text() for t in soup(client.get(f"/?{QUERY}")).select("#results svg .grid text")]
    assert "$4k" in labels and "$5k" not in labels


def test_an_empty_tenancy_filter_means_all_tenancies(client, session):
    hand_checked_catalog(session)
    assert len(totals(soup(client.get(f"/?{QUERY}&tenancy=")))) == 3


def test_money_is_shown_to_the_cent_with_a_true_minus_sign_in_either_currency():
    """At 1 EUR = 1.1664 USD: 1,003.60 USD = 860.4252 EUR -> €860.43; −200 USD = −171.4678 -> −€171.47."""
    from app.costing.money import Currency
    from app.web.templating import money

    shown = (money(1003.6), money(-200.0), money(0.125), money(None))
    assert shown == ("$1,003.60", "−$200.00", "$0.13", "not published")
    eur = Currency("EUR", "€", 1.1664)
    assert (money(1003.6, eur), money(-200.0, eur)) == ("€860.43", "−€171.47")


def test_gpu_hours_read_as_typed():
    from app.web.templating import quantity

    assert (quantity(1_000_000), quantity(123_456.7), quantity(500.0), quantity(0.25)) == (
        "1,000,000",
        "123,456.7",
        "500",
        "0.25",
    )


def test_a_run_s_wall_clock_reads_as_a_person_says_it_from_seconds_to_years():
    """13 seconds is under a minute, 61 seconds one minute; 9.2 years is 80,409 hours over 8,766 a year."""
    from app.web.templating import duration

    assert [duration(h) for h in (13 / 3600, 61 / 3600, 0.5, 4.2, 84, 80_409)] == [
        "under a minute",
        "1 minute",
        "30 minutes",
        "4.2 hours",
        "3.5 days",
        "9.2 years",
    ]


def test_each_price_shows_its_age(client, session, today_is):
    """The three hand-checked offers, as of 2026-11-01, on 2026-12-06: 30 + 5 = 35 days old."""
    from datetime import date

    hand_checked_catalog(session)
    today_is(date(2026, 12, 6))
    ages = [a.get_text() for a in soup(client.get(f"/?{QUERY}")).select("table.options .age")]
    assert ages == ["as of 2026-11-01, 35 days old"] * 3


def test_a_one_gpu_job_on_an_8_gpu_node_pays_for_the_node_and_says_so(client, session):
    """100 GPU-hours one GPU at a time on an 8-GPU node at 80/h hold it 100 h: 8,000 USD. With all 8
    GPUs used at once the same 100 GPU-hours take 12.5 h: 1,000 USD, and nothing is idle."""
    metal = make_provider(session, "metal", "DE", [(0, None, "0")])
    make_offer(session, metal, "80", "bare_metal", "on_demand", gpus_per_unit=8)
    query = "/?gpu=H100&gpu_hours=100&checkpoints_out=0&peak_gpus="
    alone = soup(client.get(query + "1")).select_one('tr[data-option="bare_metal-on_demand"]')
    assert alone.select_one("td.total").get_text(strip=True) == "$8,000.00"
    assert alone.select_one(".waste").get_text() == "uses 1 of 8 GPUs"
    full = soup(client.get(query + "8")).select_one('tr[data-option="bare_metal-on_demand"]')
    assert full.select_one("td.total").get_text(strip=True) == "$1,000.00" and full.select_one(".waste") is None
    assert (
        soup(client.get("/"))
        .select_one('label[for="peak_gpus"]')
        .get_text(" ", strip=True)
        .startswith("GPUs used at once")
    )


def test_spot_says_it_can_be_interrupted_and_can_be_left_out(client, session):
    """Spot at 1.00/GPU-h, 400 h: 400 + 3.60 egress = 403.60, cheapest, and marked interruptible."""
    hand_checked_catalog(session)
    cloud = make_provider(session, "spotcloud", "US", [(0, 100, "0"), (100, None, "0.09")])
    make_offer(session, cloud, "1.00", "virtualized", "spot")
    page = soup(client.get(f"/?{QUERY}"))
    assert totals(page)["virtualized-spot"] == "$403.60"
    marked = [row["data-option"] for row in page.select("table.options tbody tr") if row.select_one(".interruptible")]
    assert marked == ["virtualized-spot"]
    hidden = soup(client.get(f"/?{QUERY}&hide_spot=on"))
    assert "virtualized-spot" not in totals(hidden) and hidden.select_one("input[name=hide_spot]").has_attr("checked")


def test_headline_names_the_cheapest_fully_priced_and_beside_it_one_that_only_looks_cheaper(client, session):
    """Cheap publishes no egress: 400 h x 2.00 = 800.00 before 140 GB out. Cloud's on demand,
    1,003.60 with its egress, is the answer; 800.00 is named as looking cheaper."""
    hand_checked_catalog(session)
    make_offer(session, make_provider(session, "cheap"), "2.00", region="eu-west")
    page = soup(client.get(f"/?{QUERY}"))
    headline = " ".join(page.select_one(".headline").get_text().split())
    assert "the cheapest is Virtualized, on demand: $1,003.60 a month (Cloud); next is" in headline
    looks = " ".join(page.select_one(".looks-cheaper").get_text().split())
    assert (
        "Virtualized, on demand at Cheap looks cheaper, $800.00, but that leaves out its egress, "
        "which Cheap does not publish." in looks
    )


def test_an_assumed_egress_price_fills_in_the_unpublished_one_and_is_saved_in_the_link(client, session):
    """At an assumed 0.05 USD/GB, Cheap's 140 GB out cost 7.00: 800 + 7 = 807.00, now the cheapest
    fully priced, marked as assumed; the URL keeps the assumption."""
    hand_checked_catalog(session)
    make_offer(session, make_provider(session, "cheap"), "2.00", region="eu-west")
    response = client.get(f"/?{QUERY}&assumed_egress_usd_per_gb=0.05")
    page = soup(response)
    assert totals(page)["virtualized-on_demand"] == "$807.00"
    headline = " ".join(page.select_one(".headline").get_text().split())
    assert "$807.00 a month (Cheap), with egress at the price you assumed; next is" in headline
    assert page.select_one(".looks-cheaper") is None
    row = page.select_one('tr[data-option="virtualized-on_demand"]')
    assert row.select("td.num")[1].get_text(" ", strip=True) == "$7.00 assumed"
    assert page.select_one("#assumed_egress_usd_per_gb")["value"] == "0.05"
    assert soup(client.get(f"/?{QUERY}")).select_one("#assumed_egress_usd_per_gb")["value"] == ""


def test_an_assumed_price_must_be_a_price(client, session):
    hand_checked_catalog(session)
    page = soup(client.get(f"/?{QUERY}&assumed_storage_usd_per_gb_month=-1"))
    assert page.select_one("#assumed_storage_usd_per_gb_month-error").get_text() == "must be at least 0"


def test_errors_name_each_field_as_the_page_labels_it(client, session):
    hand_checked_catalog(session)
    page = soup(client.get("/?gpu_hours=-1&parameters_b=0&virt_tax=60"))
    summary = page.select_one("#results .problem").get_text()
    assert "GPU-hours per month must be at least 0" in summary
    assert "Parameters must be greater than 0" in summary
    assert "Virtualization tax, virtualized must be at most 50" in summary
    assert "gpu_hours" not in summary
    for name in ("gpu_hours", "parameters_b", "virt_tax"):
        label = page.select_one(f'label[for="{name}"]').find(string=True, recursive=False).strip()
        assert f"{label} must be" in summary, label


def test_head_answers_like_get_without_a_body(client, session):
    hand_checked_catalog(session)
    head, get = client.head(f"/?{QUERY}"), client.get(f"/?{QUERY}")
    assert (head.status_code, head.headers["content-type"]) == (200, get.headers["content-type"])
    assert head.content == b""


def test_headline_names_the_runner_up_and_how_much_more_it_costs(client, session):
    """On demand 1,003.60 is cheapest; the node, 1,250.00, is next: 246.40 more."""
    hand_checked_catalog(session)
    headline = " ".join(soup(client.get(f"/?{QUERY}")).select_one(".headline").get_text().split())
    assert "next is Bare metal, monthly node: $1,250.00 a month (Metal), $246.40 more." in headline


def test_headline_says_where_the_node_beats_on_demand_between_499_and_730_hours(client, session):
    """On demand is 2.50 H + 3.60 of egress; the node 1,250.00 a month: equal at H = 1,246.40 / 2.50
    = 498.56. Past 730 hours the node needs a second one (2,500.00), dearer than on demand's 1,828.60
    at 730: on demand is the cheapest again from there until 2.50 H + 3.60 = 2,500.00, H = 998.56."""
    hand_checked_catalog(session)
    headline = " ".join(soup(client.get(f"/?{QUERY}")).select_one(".headline").get_text().split())
    assert headline.endswith(
        "Bare metal, monthly node beats Virtualized, on demand between 499 and 730 GPU-hours a month; you are at 400."
    )
    above = " ".join(soup(client.get(f"/?{QUERY}&gpu_hours=600")).select_one(".headline .turn").get_text().split())
    assert above == (
        "Virtualized, on demand beats Bare metal, monthly node between 730 and 999 GPU-hours a month; you are at 600."
    )


def test_regions_are_grouped_by_country_with_the_providers_there(client, session):
    hand_checked_catalog(session)
    groups = {
        group["label"]: [option.get_text() for option in group.select("option")]
        for group in soup(client.get("/")).select("#region optgroup")
    }
    assert list(groups) == ["Germany", "United States", "Country not stated"]
    assert groups["Germany"] == ["fra1 (Metal)"] and groups["Country not stated"] == ["any (Fn)"]


def test_source_jargon_reads_as_sentences_and_its_trail_goes_to_the_tooltip(client, session):
    from app.catalog.wording import plain_note

    notes = "third_party_transcription_unverified; per-second hardware price [via someone/pricing.yml@0e4e7a9a]"
    assert plain_note(notes) == (
        "Copied by a third party; not checked against the provider's page. Per-second hardware price.",
        "via someone/pricing.yml@0e4e7a9a",
    )
    ids = hand_checked_catalog(session)
    offer = session.get(OfferVersion, ids["serverless"])
    offer.notes = notes
    session.add(offer)
    session.commit()
    row = soup(client.get(f"/?{QUERY}")).select_one('tr[data-option="serverless-per_second"]')
    assert "Copied by a third party" in row.get_text() and "third_party" not in row.get_text()
    assert row.select_one('td[data-label="Source"] a')["title"] == "via someone/pricing.yml@0e4e7a9a"


def test_pinned_to_one_offer_the_page_prices_only_it_and_offers_the_way_back(client, session):
    """The monthly node pinned: 1,250 at 400 h, whatever is cheaper elsewhere."""
    ids = hand_checked_catalog(session)
    key = session.get(OfferVersion, ids["node"]).key
    page = soup(client.get(f"/?{QUERY}&offer={quote_plus(key)}"))
    assert totals(page) == {"bare_metal-monthly": "$1,250.00"}
    assert "this offer costs $1,250.00 a month" in " ".join(page.select_one(".headline").get_text().split())
    assert page.select_one('form#calculator input[name="offer"]')["value"] == key
    back = page.select_one(".pinned a")["href"]
    assert "offer=" not in back and len(totals(soup(client.get(back)))) == 3


def test_a_pin_to_an_unknown_offer_or_another_gpu_is_explained(client, session):
    ids = hand_checked_catalog(session)
    make_offer(session, make_provider(session, "other", "US", [(0, None, "0")]), "1.10", gpu="A100")
    page = soup(client.get(f"/?{QUERY}&offer=nobody:thing:H100:x:on_demand"))
    assert page.select_one("#offer-error").get_text().startswith("is not an offer in the price list of")
    key = session.get(OfferVersion, ids["node"]).key
    page = soup(client.get(f"/?{QUERY.replace('gpu=H100', 'gpu=A100')}&offer={quote_plus(key)}"))
    assert "the offer you are pricing is of H100" in page.select_one("#gpu-error").get_text()


def test_each_option_links_to_its_place_among_all_offers(client, session):
    ids = hand_checked_catalog(session)
    page = soup(client.get(f"/?{QUERY}"))
    link = page.select_one('tr[data-option="bare_metal-monthly"] a.explore')["href"]
    assert link.startswith("/offers?gpu=H100&provider=metal&at=") and link.endswith(f"#offer-{ids['node']}")
    listed = soup(client.get(link.split("#")[0]))
    assert listed.select_one(f"#offer-{ids['node']}")["aria-current"] == "true"


@pytest.mark.parametrize(("peak_gpus", "end"), [("1", "730"), ("3", "2190"), ("abc", "730"), ("1e999", "730")])
def test_the_hours_slider_ends_at_730_for_each_gpu_used_at_once(client, session, peak_gpus, end):
    """A month has 730 hours: one GPU can run no more. A GPUs-at-once not yet a number counts as one."""
    hand_checked_catalog(session)
    slider = soup(client.get(f"/?peak_gpus={peak_gpus}")).select_one("#gpu_hours-slider")
    assert (slider["max"], slider["step"]) == (end, "1")


def test_headline_names_the_filters_its_answer_passed(client, session):
    """Only Metal (in Germany, headquartered there) passes: its node is the answer among bare metal
    offers in the EU from a provider outside the US, and the headline says so."""
    hand_checked_catalog(session)
    filters = "tenancy=bare_metal&eu_only=on&exclude_us_hq=on&hide_spot=on"
    headline = " ".join(soup(client.get(f"/?{QUERY}&{filters}")).select_one(".headline").get_text().split())
    assert headline.startswith(
        "At 400 GPU-hours a month of H100, among bare metal offers with the data centre in the EU, "
        "from providers not headquartered in the US, leaving out spot, the cheapest is Bare metal, monthly node"
    )
