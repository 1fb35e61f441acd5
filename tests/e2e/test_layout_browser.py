"""The answer first: the headline is inside the first screen, and nothing scrolls sideways, on a
desktop and on a phone, on the calculator, a saved scenario and a comparison of two."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

SIZES = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["desktop", "phone"])
def test_the_headline_is_in_the_first_screen_and_nothing_scrolls_sideways(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height}, base_url=base_url)

    def answer_first(where: str) -> None:
        top = page.evaluate("document.querySelector('p.headline').getBoundingClientRect().top")
        assert 0 <= top < height, f"{where}: the headline starts at {top} px, below the first {height} px"
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), f"{where} scrolls sideways"

    try:
        for path in ("/?gpu=any&preset=llama-3.1-70b&context=8192", "/"):
            page.goto(path)
            answer_first(path)
        saved = []
        for hours in ("700", "2500"):
            page.goto(f"/?gpu_hours={hours}")
            with page.expect_navigation():
                page.locator("#save-form button[type=submit]").click()
            answer_first("a saved scenario")
            saved.append(page.url.rsplit("/", 1)[1])
        page.goto(f"/compare?s={','.join(saved)}")
        answer_first("a comparison")
    finally:
        page.close()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["desktop", "phone"])
def test_the_headline_says_where_committed_beats_spot_for_one_h100_in_the_first_screen(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    """The shipped catalog, one H100 at 500 GPU-hours: spot (Nebius, 1.25 an hour) is cheapest until
    Latitude.sh's committed bare metal, 861.00 a month, meets it at 861 / (1.25 / 0.95) = 654.4 hours;
    past 730 hours the commitment needs a second GPU and spot is cheaper again."""
    page = browser.new_page(viewport={"width": width, "height": height}, base_url=base_url)
    try:
        page.goto("/?gpu=H100&gpu_hours=500&peak_gpus=1")
        turn = page.locator(".headline .turn")
        expect(turn).to_have_text(
            "Bare metal, committed beats Virtualized, spot between 654 and 730 GPU-hours a month; you are at 500."
        )
        box = turn.bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, box
        expect(page.locator(".headline")).to_contain_text("which the provider can interrupt")
    finally:
        page.close()


def test_the_keyboard_reaches_the_results_by_the_skip_link_and_one_stop_per_field(page: Page) -> None:
    """The first Tab offers a jump to the results; without it, each number field with a slider is one
    stop (the slider is for the pointer; its number box takes the arrow keys)."""
    page.goto("/")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    expect(skip).to_be_focused()
    expect(skip).to_have_text("Skip to the results")
    page.keyboard.press("Enter")
    expect(page.locator("#results")).to_be_focused()

    page.goto("/")
    stops = []
    for _ in range(10):
        page.keyboard.press("Tab")
        stops.append(page.evaluate("document.activeElement.id || document.activeElement.className"))
    assert "gpu_hours-slider" not in stops and stops.index("gpu_hours") + 1 == stops.index("peak_gpus")
