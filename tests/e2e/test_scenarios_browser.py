"""Saved scenarios in a real browser: save, copy the link, open it as someone else, compare two side by side."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from tests.e2e.pages import htmx_response, open_page

CAPTION = "#results table.options caption"
SLUG = r"[A-Za-z0-9_-]{16}"  # secrets.token_urlsafe(12): 96 bits, 16 URL-safe characters


def _totals(page: Page) -> list[str]:
    return page.locator("table.options td.total").all_inner_texts()


def _option_totals(page: Page) -> dict[str, str]:
    """Option label to its monthly total, as the calculator's table shows them (the * note and the marks
    under the figure, a setup fee or a term billed whole, dropped)."""
    rows = page.locator("table.options tbody tr")
    labels = rows.locator("th").all_inner_texts()
    totals = rows.locator("td.total").all_inner_texts()
    return {
        label.strip(): total.splitlines()[0].rstrip("*").strip() for label, total in zip(labels, totals, strict=True)
    }


def _compared_totals(page: Page) -> dict[str, list[str]]:
    """Option label to its totals per scenario, from the comparison's table (the Cheapest row left out)."""
    rows = page.locator("table.totals tbody tr:not(.cheapest)")
    return {
        row.locator("th").inner_text().strip(): [
            cell.split("\n")[0].rstrip("*").strip() for cell in row.locator("td").all_inner_texts()
        ]
        for row in rows.all()
    }


@contextmanager
def _no_console_errors(*pages: Page) -> Iterator[None]:
    """A page that renders right but logs errors is broken for someone; collect them and fail at the end."""
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            problems.append(f"{message.type}: {message.text} ({message.location.get('url')})")

    for page in pages:
        page.on("console", on_console)
        page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    yield
    assert problems == [], f"console errors or warnings: {problems}"


def _fresh_context(browser: Browser, base_url: str) -> BrowserContext:
    context = browser.new_context(base_url=base_url)
    context.set_default_timeout(5_000)
    return context


def test_saved_link_opened_in_a_fresh_browser_shows_the_same_totals(
    page: Page, browser: Browser, base_url: str
) -> None:
    """A shared link is only worth sharing if a colleague, with none of our cookies, sees exactly our numbers."""
    name = "Fine-tune, 1,234 h"
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    with _no_console_errors(page):
        open_page(page, "/")
        default_totals = _totals(page)
        htmx_response(page, lambda: page.locator("#gpu_hours").fill("1234"))
        expect(page.locator(CAPTION)).to_contain_text("at 1,234 GPU-hours")
        totals = _totals(page)
        assert totals and totals != default_totals, "the swap should have changed the totals"

        # The inputs saved are the hidden field inside #results, which the swap replaced: this saves the new ones.
        page.locator("#save-name").fill(name)
        with page.expect_response(lambda r: r.request.method == "POST" and r.url == f"{base_url}/s") as info:
            page.get_by_role("button", name="Save and share").click()
        assert info.value.status == 303, f"saving answered {info.value.status}, not a redirect"
        expect(page).to_have_url(re.compile(rf"^{re.escape(base_url)}/s/{SLUG}$"))
        saved_url = page.url
        expect(page.locator("section.scenario h2")).to_have_text(name)
        assert page.locator("#gpu_hours").input_value() == "1234"
        assert _totals(page) == totals, "the saved page should show the totals we saved"
        expect(page.locator("#share-link")).to_have_value(saved_url)

        page.get_by_role("button", name="Copy link").click()
        expect(page.locator("section.scenario .copied")).to_have_text("Copied.")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == saved_url, "the clipboard should hold the absolute link to this scenario"

        saved_words = page.get_by_text("The numbers below are the ones that were saved")
        expect(saved_words).to_be_visible()
        htmx_response(page, lambda: page.locator("#gpu_hours").fill("1500"))
        expect(saved_words).to_be_hidden()
        expect(page.locator("section.scenario").first).to_contain_text("no longer the saved ones")
        expect(page.get_by_role("button", name="Copy the saved link")).to_be_visible()
        with page.expect_navigation():
            page.get_by_role("button", name="Save your changes as a new link").click()
        expect(page).to_have_url(re.compile(rf"^{re.escape(base_url)}/s/{SLUG}$"))
        assert page.url != saved_url, "the changes are a new scenario; the shared one stays as it was"
        expect(page.locator(CAPTION)).to_contain_text("at 1,500 GPU-hours")

    colleague = _fresh_context(browser, base_url)
    try:
        assert colleague.cookies() == []
        their_page = colleague.new_page()
        with _no_console_errors(their_page):
            open_page(their_page, copied)
            expect(their_page.locator("section.scenario h2")).to_have_text(name)
            expect(their_page.locator(CAPTION)).to_contain_text("at 1,234 GPU-hours")
            assert _totals(their_page) == totals, "a colleague should see the totals we saved"
    finally:
        colleague.close()


def test_two_saved_scenarios_compared_side_by_side(page: Page) -> None:
    """Comparing is for seeing what differs and what it costs: the differing input, both curves, the same totals."""
    slugs = []
    for name, hours in [("Small", 500), ("Large", 3000)]:
        response = page.request.post("/api/scenarios", data={"name": name, "params": {"gpu_hours": hours}})
        assert response.status == 201, f"saving {name} answered {response.status}: {response.text()}"
        slugs.append(response.json()["slug"])

    with _no_console_errors(page):
        own = []
        for slug in slugs:
            open_page(page, f"/s/{slug}")
            own.append(_option_totals(page))
            assert own[-1], f"/s/{slug} should show a table of options"
        cheapest = [next(iter(totals.values())) for totals in own]  # the calculator lists options cheapest first
        assert cheapest[0] != cheapest[1], "different GPU-hours should cost different amounts"

        open_page(page, f"/compare?s={','.join(slugs)}")
        differs = page.locator("table.inputs").first.locator("tbody tr.differs")
        expect(differs).to_have_count(1)
        expect(differs.locator("th")).to_have_text("GPU-hours per month")
        expect(differs.locator("td")).to_have_text(["500", "3,000"])

        for layer in (0, 1):
            assert page.locator(f"svg path.series.layer-{layer}").count() > 0, f"no curves for scenario {layer + 1}"
        expect(page.locator("svg.frame-wide .current line")).to_have_count(2)

        totals = page.locator("table.totals")
        expect(totals.locator("tr.cheapest th")).to_have_text("Cheapest")
        expect(totals.locator("tr.cheapest td strong")).to_have_text(cheapest)
        compared = _compared_totals(page)
        for column, totals_of_scenario in enumerate(own):
            assert {label: cells[column] for label, cells in compared.items()} == totals_of_scenario, (
                f"scenario {column + 1}'s column should match its own page"
            )


def test_saving_lands_on_the_link_and_the_saved_page_compares_with_another_saved_here(page: Page) -> None:
    """After "Save and share" the link and its copy button are on the first screen, on a desktop and on
    a phone; and a scenario opened earlier in this browser is a checkbox away from a comparison."""
    other = page.request.post("/api/scenarios", data={"name": "Small <b>job</b>", "params": {"gpu_hours": 200}})
    assert other.status == 201, other.text()
    other_slug = other.json()["slug"]
    with _no_console_errors(page):
        open_page(page, f"/s/{other_slug}")  # opened here, so remembered here
        page.set_viewport_size({"width": 1280, "height": 800})
        open_page(page, "/")
        page.locator("#save-name").fill("Big job")
        with page.expect_navigation():
            page.get_by_role("button", name="Save and share").click()
        slug = page.url.rsplit("/", 1)[1]
        for width, height in [(1280, 800), (390, 844)]:
            page.set_viewport_size({"width": width, "height": height})
            for shown in (page.locator("#share-link"), page.get_by_role("button", name="Copy link")):
                box = shown.bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, f"{shown} off the first screen"

        page.get_by_text("Compare with another scenario").click()
        choice = page.get_by_role("checkbox", name=f"Small <b>job</b> /s/{other_slug}")
        expect(page.locator("form.compare-with b")).to_have_count(0)  # a name is text, never markup
        choice.check()
        with page.expect_navigation():
            page.get_by_role("button", name="Compare").click()
        expect(page).to_have_url(re.compile(rf"/compare\?s={slug},{other_slug}$"))
        expect(page.locator("ol.compared li a")).to_have_text(["Big job", "Small <b>job</b>"])
