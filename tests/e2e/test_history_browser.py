"""The price history page in a real browser without a script: its form keeps the choice in the URL,
and a provider's own line is drawn over the market's."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.e2e.pages import open_page


def test_choosing_a_provider_without_javascript_draws_its_line_and_keeps_it_in_the_url(
    browser: Browser, base_url: str
) -> None:
    """AWS's H100 on demand: 12.29 from 2025-04-23, 6.88 from its price cut of 2025-06-05."""
    context = browser.new_context(base_url=base_url, java_script_enabled=False, viewport={"width": 390, "height": 900})
    try:
        context.set_default_timeout(5_000)
        page = context.new_page()
        open_page(page, "/history/H100")
        page.get_by_label("Billing").select_option("on_demand")
        page.get_by_label("A provider's own line").select_option(label="Amazon Web Services")
        with page.expect_navigation():
            page.get_by_role("button", name="Show").click()
        assert page.url.endswith("/history/H100?billing=on_demand&provider=aws")
        expect(page.locator("p.headline")).to_contain_text(
            "Amazon Web Services: $6.88 since 2025-06-05, from $12.29 on 2025-04-23"
        )
        expect(page.locator("section.history-series").first.locator("svg.frame-narrow path.provider")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
