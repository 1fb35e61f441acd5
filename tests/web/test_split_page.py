"""The hybrid split on the page: the answer in the headline, the base on the load-duration curve, the
month against the base, and the split beside bursting all or dedicating the peak (DOMAIN.md)."""

from datetime import date
from decimal import Decimal

import pytest

from app.catalog.changes import Change
from app.catalog.rate_changes import change_rate
from app.catalog.tables import Provenance
from tests.factories import make_offer, make_provider
from tests.web.helpers import soup

SPLIT = "/?gpu=H100&job=split&base_gpus=2&split_peak=10&peak_hours=100&virt_tax=0&checkpoints_out=0"
"""2 GPUs all month, 10 for 100 hours, no tax, no egress: the hand calculations below."""


def words(tag) -> str:
    return " ".join(tag.get_text().split())


@pytest.fixture
def monthly_and_on_demand(session):
    """A 1-GPU dedicated server at 1,277.50 a month and on demand at 1.90 a GPU-hour; egress free at both."""
    metal = make_provider(session, "metal", "DE", tiers=[(0, None, "0")])
    cloud = make_provider(session, "cloud", tiers=[(0, None, "0")])
    make_offer(session, metal, "1277.50", "bare_metal", "monthly", "month")
    make_offer(session, cloud, "1.90")


def test_dedicate_2_and_burst_the_rest_for_4_075_against_4_294_all_burst(client, monthly_and_on_demand):
    """All burst: 2 x 730 x 1.90 + 8 x 100 x 1.90 = 4,294; a base of 2: 2 x 1,277.50 + 8 x 100 x 1.90 =
    4,075, 219 less; dedicating the peak: 10 x 1,277.50 = 12,775, 8,700 more."""
    page = soup(client.get(SPLIT))
    headline = words(page.select_one("p.split-answer"))
    assert headline.startswith(
        "Dedicate 2 H100 on monthly dedicated servers (Metal) and burst to Virtualized, on demand"
    )
    assert "$4,075.00 a month, $219.00 less than bursting all of it and $8,700.00 less than dedicating the peak" in (
        headline
    )
    rows = {words(tr.th): [words(td) for td in tr.select("td")] for tr in page.select("table.split-ways tbody tr")}
    assert rows["The split"][-1] == "$4,075.00"
    assert rows["The split"][:2] == ["2 × 1 GPU, $2,555.00 (Metal)", "800 GPU-hours, $1,520.00 (Cloud)"]
    assert rows["All burst"][-1] == "$4,294.00"
    assert rows["All dedicated"][-1] == "$12,775.00"


def test_the_base_line_sits_at_2_of_10_gpus_on_the_load_duration_curve(client, monthly_and_on_demand):
    """The plot runs from y = 14 (10 GPUs) to y = 170 (none): 2 GPUs at 170 - 2 / 10 x 156 = 138.8."""
    chart = soup(client.get(SPLIT)).select_one("figure.load-duration")
    line = chart.select_one("line.base-line")
    assert line["y1"] == line["y2"] == "138.8"
    assert words(chart.select_one("text.base-label")) == "base: 2 GPUs"


def test_the_month_against_the_base_marks_2_the_cheapest_as_the_rule_does(client, monthly_and_on_demand):
    """1,277.50 / (730 x 1.90) = 92 %: the first two GPUs are busy all month, the third 13.7 %; the
    months for bases 0 to 3 are 4,294, 4,184.50, 4,075, 5,162.50."""
    page = soup(client.get(SPLIT))
    assert page.select_one("figure.per-base circle.best") is not None
    rule = words(page.select_one("p.split-rule"))
    assert "92% of the month here" in rule
    assert "it reserves 2 GPUs, as pricing every base does" in rule
    assert "The next GPU above the base is busy 14% of the month" in rule


def test_whole_8_gpu_nodes_make_bursting_all_of_it_cheaper_than_the_rules_base(client, session):
    """3 GPUs all month, 10 for 100 hours; an 8-GPU node at 10,220 a month, on demand at 1.90: the rule
    reserves the 3 GPUs busy all month, but a node costs 10,220 + 2 x 100 x 1.90 = 10,600 against
    3 x 730 x 1.90 + 7 x 100 x 1.90 = 5,491 all burst."""
    metal = make_provider(session, "metal", "DE", tiers=[(0, None, "0")])
    cloud = make_provider(session, "cloud", tiers=[(0, None, "0")])
    make_offer(session, metal, "10220", "bare_metal", "monthly", "month", gpus_per_unit=8)
    make_offer(session, cloud, "1.90")
    page = soup(client.get(SPLIT.replace("base_gpus=2", "base_gpus=3")))
    headline = words(page.select_one("p.split-answer"))
    assert headline.startswith("Burst all of it to Virtualized, on demand (Cloud); a dedicated base does not pay")
    assert "$5,491.00 a month" in headline
    rule = words(page.select_one("p.split-rule"))
    assert "it reserves 3 GPUs, but pricing every base gives 0: the base comes in whole units of 8 GPUs" in rule


def test_a_week_hour_by_hour_gives_the_simple_profiles_answer(client, monthly_and_on_demand):
    """23 of 168 hours at 10, the rest at 2: 23 / 168 x 730 = 99.9405 hours at the peak; a base of 2,
    2,555 + 8 x 99.9405 x 1.90 = 2,555 + 1,519.095 = 4,074.10 to the cent (the simple profile's answer at
    those hours), 12,775 - 4,074.10 = 8,700.90 less than the peak."""
    week = "+".join(["10"] * 23 + ["2"] * 145)
    page = soup(client.get(f"{SPLIT}&demand=weekly&weekly={week}"))
    headline = words(page.select_one("p.split-answer"))
    assert headline.startswith("Dedicate 2 H100")
    assert "$4,074.10 a month" in headline and "$8,700.90 less than dedicating the peak" in headline


def test_a_base_above_the_peak_or_a_short_week_is_named_under_its_field(client, monthly_and_on_demand):
    page = soup(client.get(SPLIT.replace("base_gpus=2", "base_gpus=12")))
    assert words(page.select_one("#base_gpus-error")) == "must be at most the 10 GPUs at the peak"
    page = soup(client.get(f"{SPLIT}&demand=weekly&weekly=1+2+3"))
    assert "A week, hour by hour holds 3 hours: a week has 168 (7 lines of 24)" in words(page.select_one(".problem"))
    page = soup(client.get(f"{SPLIT}&demand=weekly&weekly=1+2.5"))
    assert "hour 2: '2.5' is not a whole number of GPUs in use" in words(page.select_one(".problem"))


def test_a_model_with_a_split_asks_to_leave_the_model_out(client, monthly_and_on_demand):
    page = soup(client.get(f"{SPLIT}&preset=llama-3.1-8b"))
    assert "leave the model out" in words(page.select_one("#results-problem"))


def test_a_saved_split_opens_with_the_same_split(client, monthly_and_on_demand):
    """The scenario keeps the profile (base 2, peak 10 for 100 hours): its link shows 4,075 again."""
    page = soup(client.get(SPLIT))
    form = {
        "csrf_token": page.select_one("#save-form input[name=csrf_token]")["value"],
        "inputs": page.select_one("input[form=save-form][name=inputs]")["value"],
    }
    saved = client.post("/s", data=form, follow_redirects=False)
    assert saved.status_code == 303
    headline = words(soup(client.get(saved.headers["location"])).select_one("p.split-answer"))
    assert headline.startswith("Dedicate 2 H100") and "$4,075.00 a month" in headline


def test_a_base_pinned_to_a_kind_the_filters_leave_out_says_so_and_bursts_all(client, monthly_and_on_demand):
    """No committed offer: 2 x 730 x 1.90 + 8 x 100 x 1.90 = 4,294, all burst; servers you own need a server."""
    headline = words(soup(client.get(f"{SPLIT}&split_base=committed")).select_one("p.split-answer"))
    assert "no commitment of H100 passes the filters: $4,294.00 a month" in headline
    page = soup(client.get(f"{SPLIT}&split_base=purchased"))
    assert "choose one under Owning the hardware" in words(page.select_one(".problem"))


def test_a_demand_of_no_gpus_at_all_is_named_not_split(client, monthly_and_on_demand):
    page = soup(client.get(SPLIT.replace("base_gpus=2", "base_gpus=0").replace("peak_hours=100", "peak_hours=0")))
    assert words(page.select_one("#peak_hours-error")) == "leaves no GPU in use all month: there is nothing to split"


def test_in_euros_the_split_converts_at_the_versions_rate(client, session, monthly_and_on_demand):
    """At 1.25 USD a euro: 4,075 / 1.25 = €3,260.00; 4,294 / 1.25 = €3,435.20, €175.20 more."""
    ecb = Provenance(
        source="https://www.ecb.europa.eu/stats/eurofxref/", as_of=date(2026, 11, 27), source_kind="official"
    )
    change_rate(session, "EUR", Decimal("1.25"), ecb, Change("test rate", "test"))
    headline = words(soup(client.get(f"{SPLIT}&currency=EUR")).select_one("p.split-answer"))
    assert "€3,260.00 a month, €175.20 less than bursting all of it" in headline


def test_a_week_reaching_more_gpus_than_the_split_prices_is_named_under_it(client, monthly_and_on_demand):
    """Every base up to the peak is priced on every pair of offers: the split stops at 1,024 GPUs at once."""
    week = "+".join(["2000"] + ["2"] * 167)
    page = soup(client.get(f"{SPLIT}&demand=weekly&weekly={week}"))
    assert words(page.select_one("#weekly-error")) == "reaches 2,000 GPUs at once: the split prices up to 1,024"
    page = soup(client.get(SPLIT.replace("split_peak=10", "split_peak=2000")))
    assert words(page.select_one("#split_peak-error")) == "must be at most 1,024"


def test_the_rules_threshold_counts_the_bursts_tax_as_the_rule_does(client, monthly_and_on_demand):
    """Bare metal at 1,277.50 against virtualized at 1.90 with a 5 % tax: 1.90 / 0.95 = 2.00 a useful
    GPU-hour, so 1,277.50 / (730 x 2.00) = 87.5 % of the month, shown as 88 %."""
    rule = words(soup(client.get(SPLIT.replace("virt_tax=0", "virt_tax=5"))).select_one("p.split-rule"))
    assert "88% of the month here" in rule


def test_a_rule_share_above_the_whole_month_says_no_gpu_pays_to_reserve(shipped_client):
    """2 GPUs all month and 10 for 100 hours on the shipped H100 offers: Latitude.sh's node at 1,230.00
    a month against Nebius's spot at 1.25 / 0.974 x 730 = 936.86 a GPU-month of burst: the rule's share
    1,230 / 936.86 = 131 %, more than a month holds, so a GPU busy all month is still cheaper burst."""
    page = soup(shipped_client.get("/?job=split&demand=simple&base_gpus=2&split_peak=10&peak_hours=100&gpu=H100"))
    rule = " ".join(page.select_one(".split-rule").get_text().split())
    assert "131% of the month here (Latitude.sh against Nebius), more than the whole month" in rule
