"""Owning the hardware as a buyer tries it in Chromium: enter a server, read its month by part and
where it beats renting, on the chart and beside it; with scripts off too."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.pages import htmx_response, open_page, unfold

EIGHT_H100 = "/?gpu=H100&gpu_hours=3000&peak_gpus=8&virt_tax=0"
SERVER_MONTH = 7514.649
"""296,644 / 60 + 10.2 x 0.75 x 1.54 x 730 x 0.0806 + 10.2 x 184.06: capex, power and colocation."""


def test_a_server_entered_on_the_page_is_drawn_with_its_break_even_against_on_demand(page: Page) -> None:
    """Owning an 8x H100 server at 296,644 USD and 10.2 kW meets on demand where the rate times the
    GPU-hours reaches 7,514.65: the rate is on demand's price per GPU-hour of work at 8 GPUs at once."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, EIGHT_H100)
    unfold(page, "owning")
    htmx_response(page, lambda: page.locator("#own_server").select_option("custom"))
    expect(page.locator("#own_price-error")).to_have_text("a server of your own figures needs its price")
    page.locator("#own_price").fill("296644")
    page.locator("#own_power_kw").fill("10.2")
    htmx_response(page, lambda: page.locator("#own_power_kw").dispatch_event("input"))
    expect(page).to_have_url(re.compile(r"[?&]own_price=296644(&|$)"))
    owned = page.locator('tr[data-option="owned-purchased"]')
    expect(owned.locator("td.total")).to_have_text("$7,514.65")
    expect(page.locator("figure.chart figcaption")).to_contain_text("Owned servers")

    rate = page.locator('tr[data-option="virtualized-on_demand"] td[data-label="Per GPU-hour of work"]').inner_text()
    expected = SERVER_MONTH / float(rate.lstrip("$"))
    beats = page.locator("ul.owning-beats li", has_text="Virtualized, on demand")
    found = re.search(r"from ([\d,]+) GPU-hours", beats.inner_text())
    assert found is not None and abs(int(found.group(1).replace(",", "")) - expected) <= 1
    listed = page.locator("ol.break-evens li", has_text="Owned servers").first
    expect(listed).to_be_visible()


def test_the_owning_inputs_work_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        context.set_default_timeout(5_000)
        page = context.new_page()
        open_page(page, EIGHT_H100)
        page.locator("#fold-owning > summary").click()
        page.locator("#own_server").select_option("custom")
        page.locator("#own_price").fill("296644")
        page.locator("#own_power_kw").fill("10.2")
        with page.expect_navigation():
            page.locator("#fold-owning").locator("xpath=ancestor::form").get_by_role(
                "button", name="Update"
            ).last.click()
        expect(page.locator('tr[data-option="owned-purchased"] td.total')).to_have_text("$7,514.65")
        expect(page.locator("#owning")).to_contain_text("capex $4,944.07, power $693.17, colocation $1,877.41")
    finally:
        context.close()


def test_the_chart_reaches_a_server_owned_busy_all_month_at_few_gpu_hours(page: Page) -> None:
    """8 GPUs at once and NVIDIA's DGX H100 (270,000 USD: 4,500.00 + 693.17 + 1,877.41 = 7,070.58 a
    month) at 500 GPU-hours: the server runs 8 x 730 = 5,840 GPU-hours, so the axis reaches them, the
    owned line is drawn on the chart, and owning's break-even against on demand (7,070.58 over on
    demand's rate per GPU-hour of work) is listed rather than above the chart and unsearched."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, "/?gpu=H100&gpu_hours=500&peak_gpus=8&own_server=dgx-h100/semianalysis-2023-05")
    expect(page.locator('tr[data-option="owned-purchased"] td.total')).to_have_text("$7,070.58")
    chart = page.locator("figure.chart svg:visible").first
    last_tick = chart.locator("g.grid text:not(.axis-title)").last.text_content() or ""
    assert float(last_tick.replace(",", "").rstrip("k")) * (1000 if last_tick.endswith("k") else 1) >= 5840
    expect(chart.locator("path.series.s-owned-purchased")).to_have_count(1)
    expect(page.locator(".legend", has_text="Owned servers")).not_to_contain_text("above the chart")
    rate = page.locator('tr[data-option="virtualized-on_demand"] td[data-label="Per GPU-hour of work"]').inner_text()
    beats = page.locator("ul.owning-beats li", has_text="Virtualized, on demand")
    found = re.search(r"from ([\d,]+) GPU-hours", beats.inner_text())
    assert found is not None and abs(int(found.group(1).replace(",", "")) - 7070.58 / float(rate.lstrip("$"))) <= 1
    expect(page.locator("ol.break-evens li", has_text="Owned servers").first).to_be_visible()
