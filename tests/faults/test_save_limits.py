"""Save limits under a burst: saves sent at once to two processes on one database count each
other, so exactly the limit is stored (issue 18: 60 at once against 20 stored up to 51)."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
from sqlmodel import Session, func, select

from app.platform.db import make_engine
from app.scenarios.tables import Scenario
from tests.faults.servers import serving

BURST = 60
LIMIT = 20


def _saved_at_once(urls: list[str], addresses: int) -> list[int]:
    """BURST saves released together, spread over the servers and over `addresses` client
    addresses (the servers believe 127.0.0.1's X-Forwarded-For); their statuses."""
    ready = threading.Barrier(BURST)

    def save(n: int) -> int:
        with httpx.Client(timeout=60) as client:
            headers = {"X-Forwarded-For": f"198.51.100.{n % addresses}"}
            ready.wait()
            return client.post(
                f"{urls[n % len(urls)]}/api/scenarios", json={"params": {"gpu_hours": 100 + n}}, headers=headers
            ).status_code

    with ThreadPoolExecutor(BURST) as pool:
        return list(pool.map(save, range(BURST)))


def _stored(database_url: str) -> int:
    engine = make_engine(database_url)
    with Session(engine) as session:
        count = session.exec(select(func.count()).select_from(Scenario)).one()
    engine.dispose()
    return count


def test_60_saves_at_once_from_one_client_store_exactly_its_limit(shipped_database: str) -> None:
    limits = {"SAVES_PER_CLIENT_PER_10_MIN": str(LIMIT), "TRUSTED_PROXIES": "127.0.0.1"}
    with serving(shipped_database, **limits) as one, serving(shipped_database, **limits) as other:
        statuses = _saved_at_once([one.url, other.url], addresses=1)
    assert Counter(statuses) == {201: LIMIT, 429: BURST - LIMIT}
    assert _stored(shipped_database) == LIMIT


def test_60_saves_at_once_from_60_clients_store_exactly_the_hourly_limit(shipped_database: str) -> None:
    limits = {"SAVES_PER_HOUR": str(LIMIT), "TRUSTED_PROXIES": "127.0.0.1"}
    with serving(shipped_database, **limits) as one, serving(shipped_database, **limits) as other:
        statuses = _saved_at_once([one.url, other.url], addresses=BURST)
    assert Counter(statuses) == {201: LIMIT, 429: BURST - LIMIT}
    assert _stored(shipped_database) == LIMIT
