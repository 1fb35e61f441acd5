"""A server killed with SIGKILL in the middle of saves loses no save it acknowledged."""

from __future__ import annotations

import threading
import time

import httpx

from tests.faults.servers import serving, start


def _keep_saving(url: str, acknowledged: list[tuple[str, float]], stop: threading.Event) -> None:
    """Saves until the server dies, remembering each save the server answered 201 to."""
    n = 0
    with httpx.Client(timeout=5) as client:
        while not stop.is_set():
            n += 1
            hours = 100 + n + threading.get_ident() % 1000 / 1000
            try:
                response = client.post(f"{url}/api/scenarios", json={"params": {"gpu": "H100", "gpu_hours": hours}})
            except httpx.TransportError:
                return
            if response.status_code == 201:
                acknowledged.append((response.json()["slug"], hours))


def test_every_acknowledged_save_survives_three_kills_mid_save(shipped_database: str) -> None:
    acknowledged: list[tuple[str, float]] = []
    for _ in range(3):
        server = start(shipped_database)
        stop = threading.Event()
        savers = [threading.Thread(target=_keep_saving, args=(server.url, acknowledged, stop)) for _ in range(4)]
        for saver in savers:
            saver.start()
        before = len(acknowledged)
        deadline = time.monotonic() + 20
        while len(acknowledged) < before + 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        server.kill()
        stop.set()
        for saver in savers:
            saver.join(timeout=10)
    assert len(acknowledged) >= 60, f"only {len(acknowledged)} saves were acknowledged before the kills"

    with serving(shipped_database) as server, httpx.Client(timeout=5) as client:
        for slug, hours in acknowledged:
            response = client.get(f"{server.url}/api/scenarios/{slug}")
            assert response.status_code == 200, f"acknowledged save {slug} is gone after the kills"
            assert response.json()["params"]["gpu_hours"] == hours
