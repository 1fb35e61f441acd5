"""Steps shared by the browser tests: open a page, and act and wait for htmx's answer."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, Response


def is_htmx(response: Response) -> bool:
    return response.request.headers.get("hx-request") == "true"


def htmx_response(page: Page, action: Callable[[], None]) -> Response:
    """Run a user action and return htmx's answer, so a server error fails at once and says so."""
    with page.expect_response(is_htmx) as info:
        action()
    response = info.value
    assert response.status == 200, f"htmx got {response.status} from {response.url}"
    return response


def open_page(page: Page, url: str = "/") -> None:
    response = page.goto(url)
    assert response is not None and response.status == 200, f"{url} answered {response and response.status}"


def unfold(page: Page, group: str) -> None:
    """Open one of the calculator's folded groups (the job, data, model, filters, assumptions) by its summary."""
    page.locator(f"#fold-{group} > summary").click()
