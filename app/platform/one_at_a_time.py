"""Work by key done in a thread of its own, one piece at a time: whoever asks for a key while it is
being worked out, or waits to be, waits for that work rather than doing it again (a catalog version's
read, which takes a second at ten times the shipped catalog and holds hundreds of MB while it runs)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class OneAtATime(Generic[K, V]):
    """`run` waits in the caller's thread (a worker thread, or the app's start); `run_off_loop` waits
    on the event loop without holding it or a worker thread; `start` does not wait. Each piece of work
    gets a thread that ends with it, so nothing is left running between them."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._running: dict[K, Future[V]] = {}
        self._lock = threading.Lock()
        self._one_at_a_time = threading.Lock()

    def run(self, key: K, work: Callable[[], V]) -> V:
        return self.start(key, work).result()

    async def run_off_loop(self, key: K, work: Callable[[], V]) -> V:
        return await asyncio.wrap_future(self.start(key, work))

    def start(self, key: K, work: Callable[[], V]) -> Future[V]:
        with self._lock:
            found = self._running.get(key)
            if found is None:
                found = self._running[key] = Future()
                found.set_running_or_notify_cancel()  # a request that gives up cancels it for no one
                threading.Thread(target=self._do, args=(key, work, found), name=self.name, daemon=True).start()
            return found

    def _do(self, key: K, work: Callable[[], V], future: Future[V]) -> None:
        with self._one_at_a_time:
            try:
                future.set_result(work())
            except BaseException as e:  # every waiter gets it
                future.set_exception(e)
            finally:
                with self._lock:
                    del self._running[key]
