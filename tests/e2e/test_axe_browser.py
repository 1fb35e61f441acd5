"""axe-core in a real Chromium finds no accessibility violation, of any impact, on any page: the
calculator, a saved scenario, a comparison, the offers explorer, the API docs, the admin area signed in
and out, and the error pages, on a desktop and on a phone."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from sqlmodel import Session

from app.admin.accounts import create_admin
from app.platform.db import make_engine

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core-4.14.1" / "axe.min.js"
SIZES = [(1280, 800), (390, 844)]
ADMIN, PASSWORD = "axe-admin", "correct horse battery"
TRIED = [
    "#operations-api-api_offers_api_offers_get",
    "#operations-scenarios-import_from_page_s_import_post",
    "#operations-api-api_save_api_scenarios_post",
    "#operations-api-health_api_health_get",
]
"""Operations with each kind of field Swagger UI renders: text, selects, a file, a checkbox, a JSON body."""

PAGES = [
    "/",
    "/?gpu=any&preset=llama-3.1-70b",
    "/?job=serve&preset=llama-3.1-70b&gpu=any",
    "/?job=serve&preset=llama-3.1-70b&gpu=H200",
    "/?gpu_hours=500&checkpoints_out=4&providers=egress&providers_dir=desc",
    "/?gpu_hours=3000&peak_gpus=8&months=12&own_server=custom&own_price=296644&own_power_kw=10.2",
    "/?job=split&demand=hourly&hourly_key=0123456789abcdef",
    "/?job=split&demand=weekly&weekly=1",
    "/s/{saved}",
    "/compare?s={saved},{other}",
    "/compare?s={saved}",
    "/s/{saved}/versions",
    "/history/H100?provider=aws",
    "/history/A100?billing=spot",
    "/offers",
    "/offers?gpu=H100&provider=aws&workload=gpu_hours%3D500%26checkpoints_out%3D4",
    "/offers?cols=provider&cols=product&cols=gpu&cols=total_memory&cols=vcpus&cols=ram&cols=per_hour&cols=hq&cols=source&sort=per_month&dir=desc",
    "/docs",
    "/admin/login",
    "/s/AAAAAAAAAAAAAAAA",
    "/no-such-page",
    "/admin",
    "/admin/offers",
    "/admin/offers/{offer}",
    "/admin/history?key={offer_key}",
    "/admin/new-offer",
    "/admin/providers",
    "/admin/providers/{provider}",
    "/admin/gpus",
    "/admin/import",
    "/admin/refresh",
    "/admin/rates",
    "/admin/presets",
    "/admin/throughput",
    "/admin/throughput?key=llama-3.1-70b/h200x1/fp8/trt-llm-1.0/offline/1000-1000&gpu=H100&precision=bf16&bandwidth=H100",
    "/admin/fabrics?provider=nebius&product=gpu-h200-sxm_8gpu-128vcpu-1600gb",
    "/admin/servers?key=dgx-h100/viperatech-2025-03",
    "/admin/audit",
]


def _swagger_rendered(page: Page) -> None:
    page.locator(".opblock").first.wait_for()


def _operations_tried(page: Page) -> None:
    """Swagger UI renders most of its markup only once an operation is opened, tried and answered; opening
    all of them takes Chromium half a minute, so these are the ones with every kind of field, one answer,
    and a schema with Markdown in it."""
    for operation in TRIED:
        page.locator(f"{operation} .opblock-summary-control").click()
        page.locator(f"{operation} .try-out__btn").click()
    page.locator(f"{TRIED[-1]} .execute").click()
    page.locator(f"{TRIED[-1]} .live-responses-table").wait_for()
    schema = page.locator('.models article[data-json-schema-level="0"]').filter(has_text="QuoteParams")
    schema.locator(".json-schema-2020-12-expand-deep-button").first.click()


def _wrong_password(page: Page) -> None:
    page.fill("#username", ADMIN)
    page.fill("#password", "not the password")
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()
    page.get_by_role("alert").wait_for()


def _long_tables_cut(page: Page) -> None:
    """Rows past the twentieth come from the same template as the first twenty; axe takes Chromium
    twenty seconds over each of the admin's 800-row tables, and a second without them."""
    page.evaluate('document.querySelectorAll("tbody > tr:nth-child(n+21)").forEach(row => row.remove())')


def _compare_form_open(page: Page) -> None:
    """The saved page's compare form open, with a scenario this browser remembers as a checkbox."""
    page.evaluate("""localStorage.setItem("gpucost.scenarios", '[{"slug": "AAAAAAAAAAAAAAAA", "name": "Another"}]')""")
    page.reload()
    page.get_by_text("Compare with another scenario").click()
    page.get_by_role("checkbox", name="Another").wait_for()


AS_OPENED: tuple[str, Callable[[Page], None]] = ("as opened", lambda page: None)
STEPS = {
    "/admin": [("as opened", _long_tables_cut)],
    "/admin/offers": [("as opened", _long_tables_cut)],
    "/docs": [("as opened", _swagger_rendered), ("with operations tried", _operations_tried)],
    "/admin/login": [AS_OPENED, ("after a wrong password", _wrong_password)],
    "/s/{saved}": [AS_OPENED, ("with the compare form open", _compare_form_open)],
}
"""What is done on a page before each check, in turn; a page not named here is checked as opened."""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe's violations on the page as shown, each with its nodes' selectors and markup."""
    return page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({target: n.target.flat().join(" >>> "), html: n.html})),
        }))"""
    )


def _described(where: str, violations: list[dict[str, Any]]) -> str:
    lines = [f"{where}:"]
    for v in violations:
        lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
        lines += [f"    {n['target']}  {' '.join(n['html'].split())[:120]}" for n in v["nodes"]]
    return "\n".join(lines)


def _sign_in(page: Page) -> None:
    page.goto("/admin/login")
    page.fill("#username", ADMIN)
    page.fill("#password", PASSWORD)
    with page.expect_navigation(url="**/admin"):
        page.get_by_role("button", name="Sign in").click()


def _first_link(page: Page, path: str, prefix: str) -> str:
    page.goto(path)
    href = page.locator(f'a[href^="{prefix}"]').first.get_attribute("href")
    assert href, f"{path} links to nothing under {prefix}"
    return href.removeprefix(prefix)


def _saved(page: Page, gpu_hours: int) -> str:
    response = page.request.post("/api/scenarios", data={"params": {"gpu": "H100", "gpu_hours": gpu_hours}})
    assert response.status == 201, f"saving a scenario answered {response.status}"
    return response.json()["slug"]


@pytest.fixture(scope="module")
def signed_in(browser: Browser, base_url: str, database_url: str) -> Iterator[tuple[Page, dict[str, str]]]:
    """One admin's browser page, with axe loaded into every document, and the records the pages are about.

    axe comes in as an init script: the app's CSP (script-src 'self') refuses the inline script tag that
    `add_script_tag` would add, and loosening the CSP would check a page other than the one users get."""
    engine = make_engine(database_url)
    with Session(engine) as session:
        create_admin(session, ADMIN, PASSWORD)
    engine.dispose()
    context = browser.new_context(base_url=base_url)
    context.set_default_timeout(5_000)
    context.add_init_script(path=AXE)
    page = context.new_page()
    _sign_in(page)
    offer = _first_link(page, "/admin/offers", "/admin/offers/")
    records = {
        "offer": offer,
        "offer_key": _first_link(page, f"/admin/offers/{offer}", "/admin/history?key="),
        "provider": _first_link(page, "/admin/providers", "/admin/providers/"),
        "saved": _saved(page, 400),
        "other": _saved(page, 800),
    }
    yield page, records
    context.close()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["desktop", "phone"])
def test_axe_finds_no_violation_on_any_page(signed_in: tuple[Page, dict[str, str]], width: int, height: int) -> None:
    page, records = signed_in
    page.set_viewport_size({"width": width, "height": height})
    found = []
    for path in PAGES:
        page.goto(path.format(**records))
        for state, step in STEPS.get(path, [AS_OPENED]):
            step(page)
            if violations := axe_violations(page):
                found.append(_described(f"{path} {state} at {width}x{height}", violations))
    if found:
        pytest.fail("axe-core found violations:\n" + "\n".join(found), pytrace=False)
