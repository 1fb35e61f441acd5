"""The offers explorer in Chromium: the heading in the first screen and no sideways scroll on a
desktop and a phone; sorting by a heading and filtering through the form (htmx); the CSV download."""

from __future__ import annotations

import csv
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.pages import htmx_response, open_page


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_heading_is_in_the_first_screen_and_nothing_scrolls_sideways(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height}, base_url=base_url)
    try:
        open_page(page, "/offers")
        top = page.evaluate("document.querySelector('h1').getBoundingClientRect().top")
        assert 0 <= top < height, f"the heading starts at {top} px, below the first {height} px"
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the page scrolls sideways"
        expect(page.locator(".counts strong.total")).to_have_text("1018")
    finally:
        page.close()


def month_prices(page: Page) -> list[float]:
    texts = page.locator("table.offers tbody td[data-label='USD per month']").all_inner_texts()
    return [float(t.strip("$").replace(",", "")) for t in texts]


def test_a_heading_sorts_and_the_form_filters_in_place_keeping_the_order(page: Page) -> None:
    open_page(page, "/offers")
    htmx_response(page, lambda: page.get_by_role("link", name=re.compile(r"^USD per month")).click())
    expect(page).to_have_url(re.compile(r"sort=per_month"))
    expect(page.locator("th[aria-sort=ascending]")).to_contain_text("USD per month")
    prices = month_prices(page)
    assert len(prices) == 100 and prices == sorted(prices)

    gpu_models = page.get_by_role("group", name="GPU model")
    htmx_response(page, lambda: gpu_models.get_by_role("checkbox", name="H100 (80 GiB)", exact=True).check())
    expect(page).to_have_url(re.compile(r"gpu=H100.*sort=per_month|sort=per_month.*gpu=H100"))
    expect(page.locator(".counts strong.total")).to_have_text("211")
    assert set(page.locator("table.offers tbody td[data-label=GPU]").all_inner_texts()) == {"H100"}
    assert month_prices(page) == sorted(month_prices(page)), "the filter keeps the order the heading chose"


def test_the_csv_download_holds_the_rows_the_page_counts(page: Page) -> None:
    open_page(page, "/offers?provider=lambda&cols=provider&cols=gpu&cols=per_gpu_hour")
    shown = int(page.locator(".counts strong.total").inner_text())
    with page.expect_download() as info:
        page.locator("a.csv").click()
    with open(info.value.path(), newline="") as f:
        table = list(csv.reader(f))
    assert table[0] == ["Provider", "GPU", "USD per GPU-hour"]
    assert len(table) - 1 == shown == 61, "55 instances and 6 1-Click Clusters"
    assert {row[0] for row in table[1:]} == {"Lambda"}


def test_filters_that_leave_nothing_point_at_the_nearest_that_answer_in_place(page: Page) -> None:
    """Ticking bare metal and the EU on H100's 211 offers leaves none: the swapped-in table offers no
    download and says that without the EU filter 9 are left (H100 bare metal anywhere); followed, 9."""
    open_page(page, "/offers?gpu=H100")
    htmx_response(page, lambda: page.get_by_role("checkbox", name="Bare metal").check())
    htmx_response(page, lambda: page.get_by_role("checkbox", name="Data centre in the EU").check())
    expect(page.locator(".counts strong.total")).to_have_text("0")
    expect(page.locator("a.csv")).to_have_count(0)
    suggestion = page.locator(".detours li").first
    expect(suggestion).to_have_text("Without the EU filter: 9 offers")
    suggestion.get_by_role("link").click()
    expect(page.locator(".counts strong.total")).to_have_text("9")
    expect(page.get_by_role("checkbox", name="Data centre in the EU")).not_to_be_checked()
