"""Stored script in every text field an admin or a visitor can write, rendered in a real browser:
nothing may run. Each payload would set window.__xss if it ran."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser
from sqlmodel import Session, select

from app.admin.accounts import create_admin
from app.catalog.changes import Change, add_offer
from app.catalog.fabric_changes import save_fabric
from app.catalog.provider_changes import add_provider
from app.catalog.tables import GpuModel, OfferVersion, Provenance
from app.platform.db import make_engine

PAYLOADS = [
    "<script>window.__xss = 1</script>",
    '<img src=x onerror="window.__xss = 2">',
    '"><svg onload="window.__xss = 3">',
]
PASSWORD = "correct horse battery"
KEY = "evil:xss:H100:r:on_demand"


@pytest.fixture(scope="module")
def database_url(new_database: Callable[[], str]) -> str:
    """This module's database, planted before its server starts: an admin, and a provider whose name,
    offer product, notes and source URL carry payloads, as do its product's fabric and its source."""
    url = new_database()
    with Session(make_engine(url)) as session:
        create_admin(session, "xss-admin", PASSWORD)
        provider = add_provider(session, "evil", PAYLOADS[0], "DE", "https://example.test/hq", "xss-admin")
        gpu = session.exec(select(GpuModel).where(GpuModel.name == "H100")).one()
        offer = OfferVersion(
            key=KEY, provider_id=provider.id, gpu_model_id=gpu.id, product=PAYLOADS[1],
            tenancy="virtualized", billing="on_demand", gpus_per_unit=1, price=Decimal("0.01"),
            price_period="hour", region=PAYLOADS[2], source_url="javascript:window.__xss = 4",
            as_of=date(2026, 11, 1), notes=PAYLOADS[2], valid_from=0,
        )  # fmt: skip
        add_offer(session, offer, PAYLOADS[0], "xss-admin")
        fabric = {"gpus_per_node": 1, "intra_node": PAYLOADS[0], "inter_node": PAYLOADS[2], "inter_node_kind": "roce",
                  "inter_node_gbps": None, "min_cluster_gpus": None, "max_cluster_gpus": None}  # fmt: skip
        provenance = Provenance(source="javascript:window.__xss = 5", quote=PAYLOADS[1], notes=PAYLOADS[0])
        save_fabric(session, "evil", PAYLOADS[1], fabric, provenance, Change(PAYLOADS[2], "xss-admin"))
    return url


def test_stored_script_in_text_fields_stays_inert(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url)
    context.set_default_timeout(5_000)
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

    page.goto("/?gpu=H100&gpu_hours=10&checkpoints_out=0")
    assert page.locator("table.options").get_by_text("window.__xss = 1", exact=False).count() >= 1, (
        "payload shown as text"
    )
    saved = page.request.post(
        "/api/scenarios", data={"name": PAYLOADS[1], "note": PAYLOADS[2], "params": {"gpu_hours": 10}}
    )
    pages = ["/", f"/s/{saved.json()['slug']}"]

    page.goto("/admin/login")
    page.fill("#username", "xss-admin")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/admin")
    pages += [
        "/admin",
        "/admin/offers?provider=evil",
        "/admin/history?" + urlencode({"key": KEY}),
        "/admin/audit",
        "/admin/providers",
        "/admin/fabrics",
        "/admin/fabrics?" + urlencode({"provider": "evil", "product": PAYLOADS[1]}),
    ]
    for path in pages:
        page.goto(path)
        assert page.evaluate("window.__xss") is None, path
        assert not page.locator('a[href^="javascript:"]').count(), path
    assert dialogs == []
    context.close()
