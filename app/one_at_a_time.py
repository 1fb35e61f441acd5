"""Work by key done in a thread of its own, one piece at a time: whoever asks for a key while it is
being worked out, or waits to be, waits for that work rather than doing it again (a catalog version's
read, which takes a second at ten times the shipped catalog and holds hundreds of MB while it runs)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from threading import Lock
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class OneAtATime(Generic[K, V]):
    """`run` waits in the caller's thread (a worker thread, or the app's start); `run_off_loop` waits
    on the event loop without holding it or a worker thread; `start` does not wait. The thread starts
    with the first piece of work."""

    def __init__(self, name: str) -> None:
        self._thread = ThreadPoolExecutor(1, thread_name_prefix=name)
        self._running: dict[K, Future[V]] = {}
        self._lock = Lock()

    def run(self, key: K, work: Callable[[], V]) -> V:
        return self.start(key, work).result()

    async def run_off_loop(self, key: K, work: Callable[[], V]) -> V:
        # shielded: a request that gives up cancels nothing for the others waiting on the same work
        return await asyncio.shield(asyncio.wrap_future(self.start(key, work)))

    def start(self, key: K, work: Callable[[], V]) -> Future[V]:
        with self._lock:
            found = self._running.get(key)
            if found is None:
                found = self._running[key] = self._thread.submit(self._do, key, work)
            return found

    def _do(self, key: K, work: Callable[[], V]) -> V:
        try:
            return work()
        finally:
            with self._lock:
                del self._running[key]
