"""At most a few password checks at once in a process, and a bounded queue for them.

An argon2id check holds its memory (PASSWORD_HASH_MEMORY_KIB) for its whole run, so checks side by
side cost memory side by side: 150 guesses at once once took one process to 2.5 GB (issue 40). Here
at most `at_once` run, each in a worker thread; the others wait on the event loop, holding no thread
and no database connection; and one that would wait longer than `wait_max_s` is refused at once,
before any hashing, with how long the queue ahead of it would take to drain. The queue serves first
the checks whose address has the fewest failures on record, so that an owner signing in from her own
address goes ahead of a storm of guesses however many addresses it comes from.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections import deque
from collections.abc import Callable
from typing import TypeVar

from anyio import Event, to_thread

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
    """Runs password checks `at_once` at most, each in a worker thread, the waiting ones fewest failures
    first (then first come), refusing what would queue longer than `wait_max_s`."""

    def __init__(self, at_once: int, wait_max_s: float) -> None:
        self.at_once = at_once
        self.wait_max_s = wait_max_s
        self.running = 0
        """Checks holding a slot now; the others asked and not refused are waiting for one."""
        self._waiting: list[tuple[int, int, Event]] = []
        """A heap of (failures of the address, order asked, woken with a slot) of each waiting check."""
        self._asked = itertools.count()
        self._times: deque[float] = deque(maxlen=TIMES_KEPT)
        """Seconds each of the latest checks held its slot, side by side with the others then running."""

    def check_s(self) -> float:
        """What one check takes now: the mean of the latest."""
        return sum(self._times) / len(self._times) if self._times else FIRST_GUESS_S

    def wait_s(self, failures: int = 0) -> float:
        """How long a check asked now for an address with `failures` on record would wait for a slot:
        one check's time for each round of `at_once` ahead of it."""
        ahead = self.running + sum(waiting[0] <= failures for waiting in self._waiting) - self.at_once + 1
        return 0.0 if ahead <= 0 else math.ceil(ahead / self.at_once) * self.check_s()

    async def run(self, check: Callable[[], T], failures: int = 0) -> T:
        """`check()` in a worker thread once a slot is free; ChecksBusy at once if that is too far off."""
        wait = self.wait_s(failures)
        if wait > self.wait_max_s:
            raise ChecksBusy(math.ceil(wait))
        await self._slot(failures)
        started = time.perf_counter()
        try:
            return await to_thread.run_sync(check)
        finally:
            self._times.append(time.perf_counter() - started)
            self._release()

    async def _slot(self, failures: int) -> None:
        if self.running < self.at_once and not self._waiting:
            self.running += 1
            return
        turn = (failures, next(self._asked), Event())
        heapq.heappush(self._waiting, turn)
        try:
            await turn[2].wait()
        except BaseException:  # given up while waiting: its place, or the slot it was just given, goes on
            if turn[2].is_set():
                self._release()
            else:
                self._waiting.remove(turn)
                heapq.heapify(self._waiting)
            raise

    def _release(self) -> None:
        """The slot to the first waiting check (counted as running from now), or free."""
        if self._waiting:
            heapq.heappop(self._waiting)[2].set()
        else:
            self.running -= 1
