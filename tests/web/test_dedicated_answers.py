"""The buyer's question on the shipped catalog: one H100 for about 500 hours a month, by the month
from a dedicated server or from the cloud; the EU and headquarters filters keep five providers."""

import re

import pytest

from tests.web.helpers import soup

ONE_H100 = "/?gpu=H100&gpu_hours=500&peak_gpus=1"


@pytest.fixture
def client(shipped_client):
    return shipped_client


def test_one_h100_by_the_month_is_latitudes_bare_metal_server_at_1230(client):
    """g3.h100.small, $1,230.00 a month for its one H100 whatever the hours; the checkpoint's 140 GB out
    is within Latitude's 20 TB of free egress."""
    row = soup(client.get(ONE_H100)).select_one('tr[data-option="bare_metal-monthly"]')
    offer = " ".join(row.select_one('td[data-label="Offer"]').get_text().split())
    assert offer.startswith("Latitude.sh · g3.h100.small · 1× H100")
    assert row.select_one("td.total").get_text(strip=True) == "$1,230.00"
    assert row.select_one('td[data-label="Egress"]').get_text(strip=True) == "$0.00"


def test_the_cost_chart_draws_the_monthly_server_inside_its_frame(client):
    """Both canvases: each point of the monthly line lies between the $0 gridline and the top one."""
    page = soup(client.get(ONE_H100))
    for svg in page.select("svg.by-option[viewBox]"):
        ticks = [float(t["y"]) for t in svg.select("text[text-anchor=end]") if t.get_text().startswith("$")]
        path = svg.select_one("path.s-bare_metal-monthly")["d"]
        ys = [float(y) for y in re.findall(r"[ML][\d.]+,([\d.]+)", path)]
        assert ys and min(ticks) - 5 <= min(ys) and max(ys) <= max(ticks), svg["class"]


def test_five_providers_answer_for_an_h100_in_the_eu_from_outside_the_us(client):
    """The explorer's count by provider: Leafcloud, Nebius, OVHcloud, Scaleway and Verda."""
    page = soup(client.get("/offers?gpu=H100&eu_only=on&exclude_us_hq=on&cols=provider"))
    providers = {td.get_text(strip=True) for td in page.select('table.offers td[data-label="Provider"]')}
    assert providers == {"Leafcloud", "Nebius", "OVHcloud", "Scaleway", "Verda (ex-DataCrunch)"}
