"""Sizing in a real browser, on the shipped catalog: choose a preset and any GPU that fits, and the
page answers with what the model needs and, for GPU-hours, the first GPU model that holds it: GPU-hours
of different GPU models are not equal work, so none is ranked the cheapest."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.pages import htmx_response, open_page, unfold


def test_choosing_a_preset_and_any_gpu_shows_the_first_gpu_that_fits(page: Page) -> None:
    """Llama 3.1 70B at the preset's 131,072 tokens: 140 GB + 42.95 GB of cache + 10% = 201.2 GB."""
    open_page(page)
    unfold(page, "model")
    htmx_response(page, lambda: page.select_option("#preset", "llama-3.1-70b"))
    expect(page.locator(".sizing-result .sentence")).to_contain_text("Llama 3.1 70B in BF16 for inference at 131,072")
    expect(page.locator(".sizing-result .sentence")).to_contain_text("needs about 201.2 GB")
    htmx_response(page, lambda: page.select_option("#gpu", "any"))
    first = page.locator("table.any-gpu tbody tr").first
    expect(first).to_be_visible()
    first_gpu = first.locator("th").inner_text()
    expect(page.locator("#results p.headline")).to_contain_text(f"{first_gpu} at once, the first GPU model that fits")
    why = page.locator("#results p.not-ranked")
    expect(why).to_contain_text("GPU-hours of different GPU models are not equal work")
    assert "preset=llama-3.1-70b" in page.url and "gpu=any" in page.url
