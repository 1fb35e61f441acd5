"""Whether this process can read its database within a second: what /api/health tells a load balancer."""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
import time
from typing import Any
from urllib.parse import quote

from anyio import CapacityLimiter, to_thread
from sqlalchemy import Engine, event, func, make_url, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool
from sqlmodel import create_engine

from app.catalog.tables import CatalogVersion

PROBE_S = 1.0
"""How recent the database's last answer must be, and how long /api/health gives it to answer."""
LAG_S = 0.5
"""How much longer than PROBE_S a check may take, when its read started late: a busy process (heavy
answers in their threads, the event loop) is no database out of reach."""
STARTED_YET_S = 0.05
"""How often a check looks whether its read has reached the database yet."""
NEWEST_VERSION = select(func.max(CatalogVersion.id))
"""What every quote needs read now and then; `SELECT 1` would not even open an SQLite file."""

log = logging.getLogger(__name__)


def probe_engine(url: str) -> Engine:
    """A new connection for each read, apart from the app's pool: a pool that a burst keeps busy
    (which answers 503 itself after its bounded wait) is not taken for a database out of reach,
    and a database file that is gone or a server that refuses connections is seen at once. Every
    wait is bounded, so that a read ends soon after it was given up: SQLite's wait for a lock
    (the file opened read-write, never created); PostgreSQL's connect, statement and unanswered send."""
    if url.startswith("sqlite"):
        path = quote(make_url(url).database or "")

        def connect() -> sqlite3.Connection:
            return sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=PROBE_S, check_same_thread=False)

        return create_engine("sqlite://", creator=connect, poolclass=NullPool)
    timeouts = {"connect_timeout": 2, "options": f"-c statement_timeout={PROBE_S * 1000:.0f}", "tcp_user_timeout": 1000}
    return create_engine(url, poolclass=NullPool, connect_args=timeouts)


class DatabaseProbe:
    """Whether the database answered within the last PROBE_S: any query of the engines it watches
    (the app's own, and its own) tells it so; else it reads the newest catalog version in a thread
    of its own (its own limiter: it never queues behind worker threads or heavy answers) and gives
    the database PROBE_S from when the read reached it, not from when it was asked for: the time a
    busy process takes to start the read is not the database's. So a burst, which keeps the
    database answering, costs it nothing and cannot starve it into a false "not ready". One read at
    a time however many ask: a read under way answers everyone who asks meanwhile, and a database
    that hangs holds one thread, not one per check."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._answered_at = -math.inf
        self._read_at: float | None = None
        """When the read under way asked the database, by time.monotonic; None before it has."""
        self._one_at_a_time = CapacityLimiter(1)
        self._reading: asyncio.Task[bool] | None = None
        self.watch(engine)

    def watch(self, engine: Engine) -> None:
        event.listen(engine, "after_cursor_execute", self._answered)

    def _answered(self, *_: Any) -> None:
        self._answered_at = time.monotonic()

    async def reachable(self) -> bool:
        """True if the database answered within the last PROBE_S, or does within PROBE_S now."""
        if time.monotonic() - self._answered_at < PROBE_S:
            return True
        if self._reading is None:
            self._reading = asyncio.create_task(self._read())
        reading, latest = self._reading, time.monotonic() + PROBE_S + LAG_S
        while True:
            read_at, now = self._read_at, time.monotonic()
            given = latest if read_at is None else min(latest, read_at + PROBE_S)
            step = given - now if read_at is not None else min(given - now, STARTED_YET_S)
            try:
                return await asyncio.wait_for(asyncio.shield(reading), max(0.0, step))
            except TimeoutError:
                if time.monotonic() >= given:
                    return False

    async def _read(self) -> bool:
        try:
            return await to_thread.run_sync(self._read_newest, limiter=self._one_at_a_time)
        finally:
            self._reading = self._read_at = None

    def _read_newest(self) -> bool:
        self._read_at = time.monotonic()
        try:
            with self.engine.connect() as connection:
                connection.execute(NEWEST_VERSION).one()
        except SQLAlchemyError as e:
            log.warning("the database did not answer the health check: %s", e)
            return False
        return True
