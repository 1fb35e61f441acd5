"""Hourly demand uploaded for the hybrid split in a real browser: the job group shows each way of
stating demand its own inputs, and the upload is a plain form post, with or without a script."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.e2e.pages import htmx_response, open_page, unfold

JANUARY = "hour,gpus\n" + "\n".join(
    f"2026-01-{1 + h // 24:02}T{h % 24:02}:00,{2 if h % 24 < 8 else 6}" for h in range(744)
)


def _open_job(page: Page) -> None:
    if page.locator("#fold-job").get_attribute("open") is None:
        unfold(page, "job")


def test_each_way_of_stating_demand_shows_its_own_inputs_and_an_upload_splits_the_month(
    page: Page, tmp_path: Path
) -> None:
    open_page(page, "/?job=split")
    _open_job(page)
    expect(page.locator("#base_gpus")).to_be_visible()
    expect(page.locator("#weekly")).to_be_hidden()
    expect(page.locator("#upload-file")).to_be_hidden()
    expect(page.locator("#output_tokens_m"), "a served job's inputs mean nothing to the split").to_be_hidden()
    htmx_response(page, lambda: page.select_option("#demand", "weekly"))
    expect(page.locator("#weekly")).to_be_visible()
    expect(page.locator("#base_gpus")).to_be_hidden()
    htmx_response(page, lambda: page.select_option("#demand", "hourly"))
    expect(page.locator("#upload-file")).to_be_visible()
    expect(page.locator("#weekly")).to_be_hidden()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.headers.get("hx-request") else None)
    page.fill("#upload-text", "2\n2")
    page.wait_for_timeout(400)
    assert asked == [], "what is pasted for the upload asks the calculator for nothing"
    page.fill("#upload-text", "")
    (tmp_path / "january.csv").write_text(JANUARY)
    page.set_input_files("#upload-file", tmp_path / "january.csv")
    with page.expect_navigation():
        page.get_by_role("button", name="Upload and split").click()
    expect(page.locator(".upload .uploaded")).to_have_text("Uploaded: 744 hours, peak 6 GPUs")
    assert "hourly_key=" in page.url and "demand=hourly" in page.url and "hourly=" not in page.url


def test_hours_pasted_without_a_script_are_uploaded_and_a_bad_line_is_named(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    page = context.new_page()
    open_page(page, "/?job=split&demand=hourly")
    _open_job(page)
    page.fill("#upload-text", "\n".join(["3"] * 20 + ["three"] + ["3"] * 700))
    with page.expect_navigation():
        page.get_by_role("button", name="Upload and split").click()
    expect(page.locator("#hourly_key-error")).to_have_text("line 21: 'three' is not a whole number of GPUs in use")
    _open_job(page)
    page.fill("#upload-text", "\n".join(["3"] * 720))
    with page.expect_navigation():
        page.get_by_role("button", name="Upload and split").click()
    expect(page.locator(".upload .uploaded")).to_have_text("Uploaded: 720 hours, peak 3 GPUs")
    context.close()
