"""Whether this process can read its database within a second: what /api/health tells a load balancer."""

from __future__ import annotations

import asyncio
import logging

from anyio import CapacityLimiter, to_thread
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import create_engine

from app.catalog.tables import CatalogVersion

PROBE_S = 1.0
"""How long /api/health waits for the database before it answers 503."""
NEWEST_VERSION = select(func.max(CatalogVersion.id))
"""What every quote needs read now and then; `SELECT 1` would not even open an SQLite file."""

log = logging.getLogger(__name__)


def probe_engine(url: str) -> Engine:
    """One connection of its own, so that a pool that a burst keeps busy (which answers 503 itself
    after its bounded wait) is not taken for a database out of reach. Every wait is bounded, so
    that a probe ends soon after it was given up: SQLite's wait for a lock; PostgreSQL's connect,
    statement and unacknowledged send."""
    if url.startswith("sqlite"):
        return create_engine(
            url, pool_size=1, max_overflow=0, connect_args={"check_same_thread": False, "timeout": PROBE_S}
        )
    timeouts = {"connect_timeout": 2, "options": f"-c statement_timeout={PROBE_S * 1000:.0f}", "tcp_user_timeout": 1000}
    return create_engine(url, pool_size=1, max_overflow=0, pool_pre_ping=True, connect_args=timeouts)


class DatabaseProbe:
    """Reads the newest catalog version off the event loop, one read at a time however many ask:
    a read under way answers everyone who asks meanwhile, and a database that hangs holds one
    thread, not one per check."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._one_at_a_time = CapacityLimiter(1)
        self._reading: asyncio.Task[bool] | None = None

    async def reachable(self) -> bool:
        """True if the database answered within PROBE_S."""
        if self._reading is None:
            self._reading = asyncio.create_task(self._read())
        try:
            return await asyncio.wait_for(asyncio.shield(self._reading), PROBE_S)
        except TimeoutError:
            return False

    async def _read(self) -> bool:
        try:
            return await to_thread.run_sync(self._read_newest, limiter=self._one_at_a_time)
        finally:
            self._reading = None

    def _read_newest(self) -> bool:
        try:
            with self.engine.connect() as connection:
                connection.execute(NEWEST_VERSION).one()
        except SQLAlchemyError as e:
            log.warning("the database did not answer the health check: %s", e)
            return False
        return True
