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


def test_a_phone_shows_the_workload_and_the_answer_first_and_the_explorer_whole_names_to_tick(
    browser: Browser, base_url: str
) -> None:
    """At 390 x 844: the GPU-hours to type and the answer they give in the first screen, the other
    groups folded below; the explorer's filters folded too, and once opened, boxes with whole names."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, base_url=base_url)

    def bottom(selector: str) -> float:
        return page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().bottom")

    try:
        page.goto("/")
        assert bottom("#gpu_hours") <= 844 and bottom("p.headline") <= 844
        folded = page.locator("details.fold:not([open]) > summary > strong")
        assert folded.all_inner_texts() == [
            "The job", "Data and horizon", "Model", "Owning the hardware", "Filters", "Assumptions"
        ]  # fmt: skip
        expect(page.locator("#fold-filters fieldset")).to_be_hidden()

        page.goto("/offers")
        filters = page.locator("details.filters")
        expect(filters).not_to_have_attribute("open", "")
        filters.locator("summary").click()
        provider = page.get_by_role("group", name="Provider").get_by_role("checkbox", name="Amazon Web Services")
        expect(provider).to_be_visible()
        label = provider.locator("xpath=..")
        assert label.evaluate("el => el.scrollWidth <= el.clientWidth"), "the provider's name is clipped"
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the explorer scrolls sideways"
    finally:
        page.close()
