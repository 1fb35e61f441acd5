from urllib.parse import urlencode

from tests.factories import hand_checked_catalog, make_offer, make_provider
from tests.web.helpers import html


def save(client, **params):
    body = {"params": {"gpu": "H100", "checkpoint_gb": 140, "virt_tax": 0, "invocations": 0, **params}}
    return client.post("/api/scenarios", json=body).json()["slug"]


def test_two_scenarios_side_by_side_with_differences_highlighted_and_curves_overlaid(client, session):
    """400 h: on demand 1,000 + 3.60 egress = 1,003.60. 800 h: on demand 2,003.60; the 1-GPU node
    needs two nodes above 730 h: 2,500."""
    hand_checked_catalog(session)
    first, second = save(client, gpu_hours=400), save(client, gpu_hours=800)
    response = client.get(f"/compare?s={first},{second}")
    assert response.status_code == 200
    compared = html(response)
    differing = [row.th.get_text() for row in compared.select_one("table.inputs").select("tr.differs")]
    assert differing == ["GPU-hours per month"]
    totals = {
        row.th.get_text(strip=True): [td.get_text("|", strip=True).split("|")[0] for td in row.select("td")]
        for row in compared.select("table.totals tbody tr")
    }
    assert totals["Cheapest"] == ["$1,003.60", "$2,003.60"]
    assert totals["Virtualized, on demand"] == ["$1,003.60", "$2,003.60"]
    assert totals["Bare metal, monthly node"] == ["$1,250.00", "$2,500.00"]
    layers = {cls for path in compared.select("svg path.series") for cls in path["class"] if cls.startswith("layer-")}
    assert layers == {"layer-0", "layer-1"}
    wide = compared.select_one("svg.frame-wide")
    assert [t.get_text() for t in wide.select(".current text")] == ["1: 400 GPU-h", "2: 800 GPU-h"]
    # the same offers draw the same lines: each ends in one label for both scenarios
    assert [t.get_text() for t in wide.select(".end-label text")] == ["1, 2", "1, 2", "1, 2"]
    listed = [" ".join(li.get_text().split()) for li in compared.select("ol.break-evens li")]
    assert any(
        item.startswith("Scenario 1: Virtualized, on demand vs Bare metal, monthly node: 498.6 GPU-h")
        for item in listed
    )
    assert any(
        item.startswith("Scenario 2: Virtualized, on demand vs Bare metal, monthly node: 498.6 GPU-h")
        for item in listed
    )


def compare_form(page):
    """The compare form's fields: the scenarios it keeps (hidden) and its field for pasted links."""
    form = page.select_one("form.compare-with")
    assert (form["method"], form["action"]) == ("get", "/compare")
    return [i["value"] for i in form.select("input[type=hidden][name=s]")], form.select_one("textarea[name=s]")


def test_a_saved_page_offers_to_compare_it_with_another_and_a_comparison_to_add_one(client, session):
    hand_checked_catalog(session)
    first, second = save(client), save(client, gpu_hours=10)
    kept, pasted = compare_form(html(client.get(f"/s/{first}")))
    assert kept == [first] and pasted is not None
    kept, pasted = compare_form(html(client.get(f"/compare?s={first},{second}")))
    assert kept == [first, second] and pasted is not None


def test_pasted_links_and_bare_slugs_open_the_comparison_at_its_plain_address(client, session):
    """As the saved page's form sends them: its own slug, then what was pasted, one a line."""
    hand_checked_catalog(session)
    a, b, c = save(client), save(client, gpu_hours=10), save(client, gpu_hours=20)
    pasted = f"http://testserver/s/{b}\n  https://elsewhere.example/s/{c}/ \n{a}\n"
    response = client.get("/compare?" + urlencode([("s", a), ("s", pasted)]), follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (303, f"/compare?s={a},{b},{c}")
    assert client.get(response.headers["location"]).status_code == 200


def test_what_is_no_saved_scenarios_link_is_named_back_above_the_form_to_mend(client, session):
    hand_checked_catalog(session)
    a, b = save(client), save(client, gpu_hours=10)
    unknown = "http://testserver/s/AAAAAAAAAAAAAAAA"
    for pasted, status, named in [
        (
            f"{b}\nhttp://testserver/compare?s=x,y",
            400,
            "Not a link to a saved scenario: “http://testserver/compare?s=x,y”",
        ),
        (f"{b}\n<script>alert(1)</script>", 400, "Not a link to a saved scenario: “<script>alert(1)</script>”"),
        (unknown, 404, f"No saved scenario at: “{unknown}”"),
        ("", 400, "Compare two to four different saved scenarios"),
        (f"{a}\n{a}", 400, "Compare two to four different saved scenarios"),
        (f"{b} x1 x2 x3", 400, "Compare at most 4 saved scenarios at once, not 5"),
    ]:
        response = client.get("/compare?" + urlencode([("s", a), ("s", pasted)]))
        page = html(response)
        assert (response.status_code, page.select_one(".problem").get_text()[: len(named)]) == (status, named)
        kept, typed = compare_form(page)
        assert kept == [] and typed.get_text().split() == list(dict.fromkeys([a, *pasted.split()])), "to mend"


def test_compare_needs_two_to_four_different_known_scenarios(client, session):
    hand_checked_catalog(session)
    a, b = save(client), save(client, gpu_hours=10)
    for query, status in [
        (f"s={a}", 400),
        (f"s={a},{a}", 400),
        ("s=" + ",".join([a, b, "c", "d", "e"]), 400),
        (f"s={a},AAAAAAAAAAAAAAAA", 404),
        ("", 400),
    ]:
        response = client.get(f"/compare?{query}")
        assert response.status_code == status, query
        assert html(response).select_one(".problem")


def test_a_break_even_both_scenarios_share_is_marked_once_for_both(client, session):
    """300 h and 450 h search up to the same 1,000 h, so their curves cross at the same 498.6 h."""
    hand_checked_catalog(session)
    first, second = save(client, gpu_hours=300), save(client, gpu_hours=450)
    compared = html(client.get(f"/compare?s={first},{second}"))
    listed = [" ".join(li.get_text().split()) for li in compared.select("ol.break-evens li")]
    shared = [item for item in listed if "on demand vs Bare metal, monthly node: 498.6 GPU-h" in item]
    assert len(shared) == 1 and shared[0].startswith("Scenario 1 and Scenario 2: ")
    badges = compared.select("svg.frame-wide .break-even")
    assert len(badges) == len(listed)


def test_a_year_term_compared_over_one_month_and_over_twelve_says_it_is_billed_whole(client, session):
    """A 12-month term at 10,332 a year beside on demand: over 1 month it costs 10,332.00, "a 12-month
    term billed whole"; over 12 months 861.00 a month, with no such mark. Every cost is published,
    so the note on unpublished costs is left out."""
    metal = make_provider(session, "latitude", "US", tiers=[(0, None, "0")])
    make_offer(session, metal, "10332", "bare_metal", "committed", "year", min_commitment_months=12)
    make_offer(session, make_provider(session, "cloud", tiers=[(0, None, "0")]), "2.50")
    short, long = save(client, gpu_hours=500, checkpoint_gb=0), save(client, gpu_hours=500, months=12, checkpoint_gb=0)
    compared = html(client.get(f"/compare?s={short},{long}"))
    term = next(row for row in compared.select("table.totals tbody tr") if "committed" in row.th.get_text())
    cells = [" ".join(td.get_text(" ", strip=True).split()) for td in term.select("td")]
    assert cells == ["$10,332.00 Latitude, a 12-month term billed whole", "$861.00 Latitude"]
    assert not [p for p in compared.select("p.note") if p.get_text().startswith("*")]
