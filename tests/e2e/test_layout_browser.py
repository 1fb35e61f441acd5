"""The answer first: the headline is inside the first screen, and nothing scrolls sideways, on a
desktop and on a phone, on the calculator, a saved scenario and a comparison of two."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.pages import htmx_response, open_page, unfold

SIZES = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["desktop", "phone"])
def test_the_headline_is_in_the_first_screen_and_nothing_scrolls_sideways(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height}, base_url=base_url)

    def answer_first(where: str, line: bool = True) -> None:
        """The headline starts in the first screen; on a phone, whose first screen the workload's inputs
        fill, the calculator's answer line at its foot names the cheapest and its total instead."""
        if line and width < 700:
            box = page.locator(".answer-line").bounding_box()
            assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height, f"{where}: {box}"
            total = page.locator(".answer-line strong").inner_text()
            expect(page.locator("p.headline")).to_contain_text(total)
        else:
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
        answer_first("a comparison", line=False)
    finally:
        page.close()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["desktop", "phone"])
def test_the_headline_says_where_committed_beats_spot_for_one_h100_in_the_first_screen(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    """The shipped catalog, one H100 at 500 GPU-hours over a 12-month horizon: spot (Nebius, 1.25 an
    hour) is cheapest until Latitude.sh's committed bare metal, 861.00 a month of its 12-month term,
    meets it at 861 / (1.25 / 0.974) = 670.9 hours (2.6 % virtualization tax); past 730 hours the
    commitment needs a second GPU and spot is cheaper again. (Over a shorter horizon the term is billed
    whole and never meets spot.)"""
    page = browser.new_page(viewport={"width": width, "height": height}, base_url=base_url)
    try:
        page.goto("/?gpu=H100&gpu_hours=500&peak_gpus=1&months=12")
        turn = page.locator(".headline .turn")
        expect(turn).to_have_text(
            "Bare metal, committed beats Virtualized, spot between 671 and 730 GPU-hours a month; you are at 500."
        )
        box = turn.bounding_box()
        if width < 700:  # the workload's inputs fill a phone's first screen: the turn comes before the groups
            groups = page.locator("#fold-job > summary").bounding_box()
            assert box is not None and groups is not None and box["y"] + box["height"] <= groups["y"], (box, groups)
        else:
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
    assert "gpu_hours-slider" not in stops
    assert stops.index("gpu_hours") + 2 == stops.index("hours_gpu") + 1 == stops.index("peak_gpus")


def test_a_phone_shows_the_answer_first_then_the_workload_and_the_explorer_whole_names_to_tick(
    browser: Browser, base_url: str
) -> None:
    """At 390 x 844: the answer first, the whole headline and its line in the first screen, then the
    workload's inputs, the other groups folded below; the explorer's filters folded too, and once
    opened, boxes with whole names."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, base_url=base_url)

    def bottom(selector: str) -> float:
        return page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().bottom")

    try:
        page.goto("/")
        assert bottom("p.headline") <= 844 and bottom(".answer-line") <= 844
        assert bottom("#egress_gb") <= 2 * 844
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


def test_the_three_sliders_are_in_a_desktops_first_screen(page: Page) -> None:
    """At 1280 x 800 the GPU-hours, the checkpoint size and the other egress are sliders to move
    without scrolling or unfolding: the egress a provider charges is one move away."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/")
    for name in ("gpu_hours", "checkpoint_gb", "egress_gb"):
        slider = page.locator(f"#{name}-slider")
        expect(slider).to_be_visible()
        box = slider.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 800, (name, box)
        expect(page.locator(f"#{name}")).to_be_visible()


def test_a_phone_reaches_every_input_group_within_two_screens(page: Page) -> None:
    """At 390 x 844 the workload's legend and each folded group's summary end above 2 x 844 = 1,688 px,
    on first load: the groups come right after the answer, before the chart and the table."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    headings = page.locator("fieldset.main > legend, details.fold > summary")
    assert headings.count() == 7
    for i in range(7):
        box = headings.nth(i).bounding_box()
        assert box is not None and box["y"] + box["height"] < 1688, (headings.nth(i).inner_text(), box)
    groups = page.locator("#fold-assumptions > summary").bounding_box()
    chart = page.locator("#results figure.chart").first.bounding_box()
    headline = page.locator("p.headline").bounding_box()
    assert groups and chart and headline and headline["y"] < groups["y"] < chart["y"]


def test_on_a_phone_a_change_shows_its_new_total_in_the_answer_line(page: Page) -> None:
    """One AWS offer (p5.4xlarge, 6.88 an hour), 500 GPU-hours, no checkpoint moved out: 500 / 0.974 x 6.88
    = 3,531.83. Other egress of 1,100 GB, the first 100 free then 0.09 a GB: + 90.00 = 3,621.83. Then,
    scrolled down to the data group, 500 GB stored on EBS gp3 at 0.08 a GB-month: + 40.00 = 3,661.83."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, f"/?offer={quote('aws:p5.4xlarge:H100:us-east-1:on_demand')}&gpu_hours=500&checkpoints_out=0")
    line = page.locator(".answer-line")
    expect(line).to_have_text("This offer: Virtualized, on demand at $3,531.83 a month")
    expect(line).to_be_in_viewport(ratio=1)

    egress = page.locator("#egress_gb")
    egress.fill("1100")
    htmx_response(page, lambda: egress.dispatch_event("input"))
    expect(line).to_have_text("This offer: Virtualized, on demand at $3,621.83 a month")
    expect(line).to_be_in_viewport(ratio=1)

    unfold(page, "data")
    stored = page.locator("#stored_gb")
    stored.evaluate("el => el.scrollIntoView()")
    stored.fill("500")
    htmx_response(page, lambda: stored.dispatch_event("input"))
    expect(page.locator("p.headline")).not_to_be_in_viewport()
    expect(line).to_have_text("This offer: Virtualized, on demand at $3,661.83 a month")
    expect(line).to_be_in_viewport(ratio=1)
