"""Sizing in a real browser, on the shipped catalog: choose a preset and any GPU that fits, and the
page answers with what the model needs and, for GPU-hours, the cheapest GPU model for the same work:
the hours are of the first GPU model that fits until the buyer says which GPU model they are of."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.pages import htmx_response, open_page, unfold


def test_choosing_a_preset_and_any_gpu_ranks_gpu_models_on_the_work_of_the_hours(page: Page) -> None:
    """Llama 3.1 70B at the preset's 131,072 tokens: 140 GB + 42.95 GB of cache + 10% = 201.2 GB."""
    open_page(page)
    unfold(page, "model")
    htmx_response(page, lambda: page.select_option("#preset", "llama-3.1-70b"))
    expect(page.locator(".sizing-result .sentence")).to_contain_text("Llama 3.1 70B in BF16 for inference at 131,072")
    expect(page.locator(".sizing-result .sentence")).to_contain_text("needs about 201.2 GB")
    htmx_response(page, lambda: page.select_option("#gpu", "any"))
    first = page.locator("table.any-gpu tbody tr").first
    expect(first).to_be_visible()
    first_gpu = first.locator("th").inner_text().split("\n")[0]
    headline = page.locator("#results p.headline")
    expect(headline).to_contain_text(f"{first_gpu} at once (the work of 500 GPU-hours of ")
    expect(page.locator("#results p.equal-work")).to_contain_text("you asked for any GPU, so they are taken as")
    htmx_response(page, lambda: page.select_option("#hours_gpu", "H100"))
    expect(headline).to_contain_text("(the work of 500 GPU-hours of H100, on the cheapest GPU model for it)")
    assert "preset=llama-3.1-70b" in page.url and "gpu=any" in page.url and "hours_gpu=H100" in page.url
