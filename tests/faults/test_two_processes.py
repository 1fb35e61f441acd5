"""Two app processes on one database, as two replicas behind a proxy: what one changes, the other
quotes within its cache's second, and saves from both land once each."""

from __future__ import annotations

import re
import time

import httpx
from sqlmodel import Session, col, func, select

from app.admin.accounts import create_admin
from app.catalog.tables import GpuModel, OfferVersion
from app.platform.db import make_engine
from app.scenarios.tables import Scenario
from tests.faults.servers import serving

PASSWORD = "correct horse battery"


def _signed_in(client: httpx.Client) -> None:
    page = client.get("/admin/login").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, "the sign-in form carries a CSRF token"
    form = {"csrf_token": token.group(1), "username": "ops", "password": PASSWORD, "next": "/admin"}
    assert client.post("/admin/login", data=form).status_code == 303


def _quoted_compute(client: httpx.Client, gpu: str, key: str) -> float:
    """The pinned offer's compute at 100 GPU-hours, with no throughput lost: 100 x its hourly price."""
    params = {"gpu": gpu, "gpu_hours": 100, "offer": key, "virt_tax": 0}
    return client.get("/api/quote", params=params).json()["options"][0]["compute"]


def test_a_price_changed_through_one_process_is_quoted_by_the_other_within_its_second(shipped_database: str) -> None:
    """A one-GPU hourly offer changed to 123.45 an hour: 100 GPU-hours of it, 12,345.00."""
    engine = make_engine(shipped_database)
    with Session(engine) as session:
        create_admin(session, "ops", PASSWORD)
        offer, gpu = session.exec(
            select(OfferVersion, GpuModel.name)
            .join(GpuModel)
            .where(col(OfferVersion.valid_to).is_(None), OfferVersion.price_period == "hour")
            .where(OfferVersion.gpus_per_unit == 1)
        ).first()
        row_id, key = offer.id, offer.key
    with serving(shipped_database) as one, serving(shipped_database) as other:
        with (
            httpx.Client(base_url=one.url, timeout=10) as admin,
            httpx.Client(base_url=other.url, timeout=10) as reader,
        ):
            before = _quoted_compute(reader, gpu, key)
            _signed_in(admin)
            form = admin.get(f"/admin/offers/{row_id}").text
            token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
            change = {
                "csrf_token": token,
                "price": "123.45",
                "source_url": "https://example.test/new",
                "as_of": "2026-11-29",
                "note": "raised for the two-process test",
            }
            saved = admin.post(f"/admin/offers/{row_id}", data=change)
            assert saved.status_code == 303, re.findall(r'class="error"[^>]*>([^<]+)<', saved.text)
            changed_at = time.monotonic()
            while (total := _quoted_compute(reader, gpu, key)) == before and time.monotonic() - changed_at < 5:
                time.sleep(0.05)
            seen_after = time.monotonic() - changed_at
    assert total == 12345.00
    assert seen_after < 1.5, f"the other process quoted the new price {seen_after:.2f} s later"


def test_saves_from_both_processes_land_once_each(shipped_database: str) -> None:
    slugs = []
    with serving(shipped_database) as one, serving(shipped_database) as other:
        with httpx.Client(timeout=10) as client:
            for n in range(40):
                server = (one, other)[n % 2]
                response = client.post(f"{server.url}/api/scenarios", json={"params": {"gpu_hours": 200 + n}})
                assert response.status_code == 201
                slugs.append(response.json()["slug"])
            for n, slug in enumerate(slugs):
                server = (other, one)[n % 2]
                assert client.get(f"{server.url}/api/scenarios/{slug}").json()["params"]["gpu_hours"] == 200 + n
    with Session(make_engine(shipped_database)) as session:
        assert session.exec(select(func.count()).select_from(Scenario)).one() == 40
    assert len(set(slugs)) == 40
