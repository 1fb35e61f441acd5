"""The hybrid split in a real browser, on the shipped catalog: a profile entered on the page puts the
split in the headline and its base on the load-duration curve, with or without JavaScript."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, Route, expect

from tests.e2e.pages import htmx_response, is_htmx, open_page, unfold


def money(text: str) -> float:
    return float(text.replace("$", "").replace(",", ""))


def check_the_split(page: Page) -> None:
    """The headline's base is the chart's base line, and its month the table's base plus burst."""
    headline = page.locator("#results p.split-answer")
    expect(headline).to_contain_text("and burst to")
    base = re.search(r"Dedicate (\d+) H100", headline.inner_text())
    assert base is not None, headline.inner_text()
    gpus = int(base.group(1))
    expect(page.locator("figure.load-duration text.base-label")).to_have_text(
        f"base: {gpus} GPU{'s' if gpus > 1 else ''}"
    )
    expect(page.locator("figure.load-duration line.base-line")).to_have_count(1)
    row = page.locator("table.split-ways tbody tr", has_text="The split")
    base_cost = re.search(r"\$[\d,.]+", row.locator('td[data-label="Base"]').inner_text())
    burst_cost = re.search(r"\$[\d,.]+", row.locator('td[data-label="Burst"]').inner_text())
    month = row.locator('td[data-label="A month"]').inner_text()
    assert base_cost and burst_cost
    assert abs(money(base_cost.group()) + money(burst_cost.group()) - money(month)) < 0.011
    expect(headline).to_contain_text(f"{month} a month")


def test_a_profile_entered_on_the_page_splits_into_a_base_and_a_burst(page: Page) -> None:
    """4 GPUs all month and 16 for 60 hours, bursting on demand: a GPU busy all month pays on a dedicated
    server at the shipped prices (Latitude.sh's $1,230 a month against $1.85 or more an hour on demand)."""
    open_page(page)
    unfold(page, "job")
    htmx_response(page, lambda: page.select_option("#job", "split"))
    expect(page.locator("#gpu_hours")).to_be_hidden()
    htmx_response(page, lambda: page.select_option("#split_burst", "on_demand"))
    htmx_response(page, lambda: page.fill("#base_gpus", "4"))
    htmx_response(page, lambda: page.fill("#split_peak", "16"))
    htmx_response(page, lambda: page.fill("#peak_hours", "60"))
    check_the_split(page)
    assert "job=split" in page.url and "split_peak=16" in page.url


def test_the_split_works_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        context.set_default_timeout(5_000)
        page = context.new_page()
        open_page(page)
        page.locator("#fold-job > summary").click()
        page.locator("#job").select_option("split")
        page.locator("#split_burst").select_option("on_demand")
        page.locator("#base_gpus").fill("4")
        page.locator("#split_peak").fill("16")
        page.locator("#peak_hours").fill("60")
        with page.expect_navigation():
            page.locator("#fold-job").locator("xpath=ancestor::form").get_by_role("button", name="Update").last.click()
        check_the_split(page)
    finally:
        context.close()


def test_a_served_day_shows_the_serving_inputs_and_splits_per_million_tokens(page: Page) -> None:
    """Llama 3.1 8B at 3,765 tokens/s a replica of 1 x H100 (the shipped benchmark's rate), 30,000 million
    tokens a month, three times the night's traffic by day: 2 to 5 replicas, a base of dedicated GPUs."""
    open_page(page)
    unfold(page, "job")
    htmx_response(page, lambda: page.select_option("#job", "split"))
    htmx_response(page, lambda: page.select_option("#demand", "serving"))
    expect(page.locator("#base_gpus")).to_be_hidden()
    expect(page.locator("#hours_up")).to_be_hidden()
    expect(page.locator("#output_tokens_m")).to_be_visible()
    expect(page.locator("#preset-error")).to_contain_text("a job needs its model")
    htmx_response(page, lambda: page.select_option("#preset", "llama-3.1-8b"))
    page.locator("#fold-job details.for-job > summary").click()
    htmx_response(page, lambda: page.fill("#measured_tps", "3765"))
    htmx_response(page, lambda: page.fill("#output_tokens_m", "30000"))
    htmx_response(page, lambda: page.fill("#daily", " ".join(["1"] * 8 + ["3"] * 10 + ["2"] * 6)))
    htmx_response(page, lambda: page.select_option("#split_burst", "on_demand"))
    check_the_split(page)
    expect(page.locator("#results p.split-answer")).to_contain_text("per million output tokens")
    expect(page.locator(".job-basis")).to_contain_text("from 2 in the quietest hour to 5 in the busiest")


SPLIT_PAGE = "/?job=split&gpu=H100&demand=simple&split_burst=on_demand&base_gpus=4&split_peak=16&peak_hours=60"


def test_a_split_the_server_is_too_busy_for_is_said_and_asked_again_once_with_the_newest_inputs(page: Page) -> None:
    """Each move of a split is heavy work: past the client's share the server answers 429 with Retry-After
    (here the first two moves, 1 s). The page keeps the inputs, says so, and a second after the last
    refusal asks once more with the form as it is then; then nothing more."""
    open_page(page, SPLIT_PAGE)
    expect(page.locator("#peak_hours")).to_be_visible()  # the job's fold is open: a split is no default
    asked: list[str] = []

    def refuse_two(route: Route) -> None:
        if route.request.headers.get("hx-request") != "true":
            route.continue_()
            return
        asked.append(route.request.url)
        if len(asked) <= 2:
            route.fulfill(status=429, headers={"Retry-After": "1"}, json={"detail": "busy"})
        else:
            route.continue_()

    page.route(re.compile(r"/\?"), refuse_two)
    for hours in ("61", "62"):
        with page.expect_response(is_htmx) as refused:
            page.fill("#peak_hours", hours)
        assert refused.value.status == 429
        expect(page.locator("#busy")).to_have_text("The server is busy: trying again in 1 s with your latest inputs.")
        expect(page.locator("#peak_hours")).to_have_value(hours)
    with page.expect_response(is_htmx, timeout=3_000) as answered:
        pass
    assert answered.value.status == 200 and "peak_hours=62" in answered.value.url
    expect(page.locator("#busy")).to_have_text("")
    expect(page.locator("#busy")).to_be_hidden()
    check_the_split(page)
    page.wait_for_timeout(1_500)
    assert len(asked) == 3, asked
