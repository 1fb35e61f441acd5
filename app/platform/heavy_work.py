"""The lane for CPU-heavy answers (the split's search, history worked out afresh, any GPU on a large
catalog, an import's plan): a few at once per process in threads of their own, a bounded queue,
and a bounded share of it per client, so that the event loop (the slider's partial, /api/health)
and everyone else keep their turn. Past a bound, a refusal with Retry-After at once."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TypeVar

from anyio import CapacityLimiter, Semaphore, to_thread
from starlette.exceptions import HTTPException

T = TypeVar("T")

FIRST_GUESS_S = 1.0
"""What a piece of heavy work is taken to cost until one is timed: a year of hours split up to 1,024 GPUs."""
RETRY_AFTER_MAX_S = 60
TOO_MANY_OF_YOURS = "You have {} heavy answers under way already; try again in a moment."
SERVER_BUSY = "The server is busy working out other heavy answers; try again in a moment."


class HeavyWork:
    """`at_once` pieces run at once, each in a thread of its own (the event loop only awaits them);
    `waiting` more wait their turn without holding a thread; one client address holds at most
    `per_client` of either. Past a bound: 429 for the client over its share, 503 when the queue is
    full, each with Retry-After, the time the queue ahead would take at the recent pace."""

    def __init__(self, at_once: int, waiting: int, per_client: int) -> None:
        self.at_once, self.waiting, self.per_client = at_once, waiting, per_client
        self._turns = Semaphore(at_once)
        self._threads = CapacityLimiter(at_once)
        self._by_client: Counter[str] = Counter()
        self._took_s = FIRST_GUESS_S

    @property
    def admitted(self) -> int:
        """Under way or waiting."""
        return sum(self._by_client.values())

    def retry_after(self) -> int:
        """Seconds until the work admitted now would be done, at the recent pace."""
        rounds = math.ceil(max(self.admitted, 1) / self.at_once)
        return min(RETRY_AFTER_MAX_S, max(1, math.ceil(rounds * self._took_s)))

    def _refusal(self, client: str) -> HTTPException | None:
        if self._by_client[client] >= self.per_client:
            status, why = 429, TOO_MANY_OF_YOURS.format(self._by_client[client])
        elif self.admitted >= self.at_once + self.waiting:
            status, why = 503, SERVER_BUSY
        else:
            return None
        return HTTPException(status, why, headers={"Retry-After": str(self.retry_after())})

    @asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """A place in the queue for `client`, held until the block ends, or a refusal at once."""
        refused = self._refusal(client)
        if refused is not None:
            raise refused
        self._by_client[client] += 1
        try:
            yield
        finally:
            self._by_client[client] -= 1
            if not self._by_client[client]:
                del self._by_client[client]

    async def run(self, work: Callable[[], T]) -> T:
        """`work` in a thread once its turn comes, inside a `turn`; it runs to its end even if the
        request is given up, so that the bound holds."""
        async with self._turns:
            started = time.monotonic()
            try:
                return await to_thread.run_sync(work, limiter=self._threads)
            finally:
                self._took_s = 0.8 * self._took_s + 0.2 * (time.monotonic() - started)

    async def answer(self, client: str, work: Callable[[], T]) -> T:
        """`work` run in its turn for `client`, or the refusal."""
        async with self.turn(client):
            return await self.run(work)
