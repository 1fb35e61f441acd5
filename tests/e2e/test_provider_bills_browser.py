"""What egress adds at AWS, as a buyer finds it in Chromium: one click from the first results."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.pages import htmx_response, open_page

BUYER = "/?gpu=H100&gpu_hours=500&peak_gpus=1&checkpoint_gb=140&checkpoints_out=4"
"""One H100, 500 GPU-hours a month, four 140 GB checkpoints moved out: (560 - 100) x 0.09 = 41.40 at AWS."""


def test_one_click_shows_aws_egress_at_41_40_and_the_table_keeps_it_to_the_explorer(page: Page) -> None:
    """The link under the headline, in the first screen, opens the table sorted by egress; it stays
    through a move of the slider, and AWS's link opens the explorer (a page, not a swap of the
    results) with the workload: each AWS offer's egress there too."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_page(page, BUYER)
    link = page.get_by_role("link", name="What egress and storage add at each provider")
    expect(link).to_be_in_viewport()
    htmx_response(page, link.click)
    aws = page.locator("#provider-bills tbody tr", has=page.locator("th", has_text="Amazon Web Services"))
    expect(page.get_by_role("heading", name="Each provider's cheapest offer")).to_be_in_viewport()
    expect(aws.locator('td[data-label="Egress"]')).to_have_text("$41.40")
    expect(aws).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]providers=egress&providers_dir=desc(&|#|$)"))

    page.locator("#gpu_hours").fill("600")
    htmx_response(page, lambda: page.locator("#gpu_hours").dispatch_event("input"))
    expect(page).to_have_url(re.compile(r"[?&]gpu_hours=600(&|$)"))
    expect(page.locator("#provider-bills caption")).to_contain_text("at 600 GPU-hours a month")
    expect(aws.locator('td[data-label="Egress"]')).to_have_text("$41.40")

    aws.locator("a.explore").click()
    expect(page.get_by_role("heading", name="All offers")).to_be_visible()
    focus = page.locator("table.offers tr.focus")
    expect(focus.locator('td[data-label="Egress a month"]')).to_have_text("$41.40")
