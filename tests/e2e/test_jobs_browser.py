"""A job in a real browser, on the shipped catalog: serve a preset at a token volume on any GPU, and
the headline names the cheapest GPU for that job with its cost per million output tokens."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.pages import htmx_response, open_page, unfold


def test_serving_a_preset_at_a_token_volume_names_the_cheapest_gpu_for_the_job(page: Page) -> None:
    """Llama 3.1 70B in FP8 at 300 million output tokens a month, 1000/1000 tokens, offline: each GPU
    model with a benchmark at its own GPU-hours, the cheapest job first, as the headline says."""
    open_page(page)
    unfold(page, "job")
    expect(page.locator("#output_tokens_m")).to_be_hidden()
    htmx_response(page, lambda: page.select_option("#job", "serve"))
    expect(page.locator("#gpu_hours")).to_be_hidden()
    expect(page.locator("#fold-model"), "a job needs a model: its group opens").to_have_attribute("open", "")
    htmx_response(page, lambda: page.select_option("#preset", "llama-3.1-70b"))
    htmx_response(page, lambda: page.select_option("#weights", "fp8"))
    htmx_response(page, lambda: page.select_option("#gpu", "any"))
    htmx_response(page, lambda: page.fill("#output_tokens_m", "300"))
    first = page.locator("table.any-gpu tbody tr").first
    cheapest = first.locator("th").inner_text().splitlines()[0]
    headline = page.locator("#results p.headline")
    expect(headline).to_contain_text("Serving 300 million output tokens a month of Llama 3.1 70B at offline maximum")
    expect(headline).to_contain_text(f"{cheapest},")
    expect(headline).to_contain_text("per million output tokens")
    expect(page.locator(".job-basis")).to_contain_text("TensorRT-LLM")
    assert "job=serve" in page.url and "output_tokens_m=300" in page.url
