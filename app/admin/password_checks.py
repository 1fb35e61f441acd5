"""At most a few password checks at once in a process, and a bounded queue for them.

An argon2id check holds its memory (PASSWORD_HASH_MEMORY_KIB) for its whole run, so checks side by
side cost memory side by side: 150 guesses at once once took one process to 2.5 GB (issue 40). Here
at most `at_once` run, each in a worker thread; the others wait on the event loop, holding no thread
and no database connection; and one that would wait longer than `wait_max_s` is refused at once,
before any hashing, with how long the queue ahead of it would take to drain.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from typing import TypeVar

from anyio import Semaphore, to_thread

T = TypeVar("T")

FIRST_GUESS_S = 1.0
"""A check's time until one is measured (the app measures one at start: the dummy hash)."""
TIMES_KEPT = 8


class ChecksBusy(Exception):
    """So many checks are queued that this one would wait too long."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"Too many sign-ins at once. Try again in {retry_after_s} seconds.")
        self.retry_after_s = retry_after_s


class PasswordChecks:
    """Runs password checks `at_once` at most, each in a worker thread, refusing what would queue
    longer than `wait_max_s`."""

    def __init__(self, at_once: int, wait_max_s: float) -> None:
        self.at_once = at_once
        self.wait_max_s = wait_max_s
        self._slots = Semaphore(at_once)
        self._waiting = 0
        self.running = 0
        """Checks holding a slot now; the others asked and not refused are waiting for one."""
        self._times: deque[float] = deque(maxlen=TIMES_KEPT)
        """Seconds each of the latest checks held its slot, side by side with the others then running."""

    def check_s(self) -> float:
        """What one check takes now: the mean of the latest."""
        return sum(self._times) / len(self._times) if self._times else FIRST_GUESS_S

    def wait_s(self) -> float:
        """How long a check asked now would wait for a slot: one check's time for each round of
        `at_once` ahead of it."""
        ahead = self.running + self._waiting - self.at_once + 1
        return 0.0 if ahead <= 0 else math.ceil(ahead / self.at_once) * self.check_s()

    async def run(self, check: Callable[[], T]) -> T:
        """`check()` in a worker thread once a slot is free; ChecksBusy at once if that is too far off."""
        wait = self.wait_s()
        if wait > self.wait_max_s:
            raise ChecksBusy(math.ceil(wait))
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        self.running += 1
        started = time.perf_counter()
        try:
            return await to_thread.run_sync(check)
        finally:
            self._times.append(time.perf_counter() - started)
            self.running -= 1
            self._slots.release()
