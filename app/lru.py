"""A small bounded memory for the slider's hot path."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """Remembers the `size` most recently used entries; safe across the API's worker threads.

    Given `weigh` and `grew`, it weighs each entry put (key and value, in bytes) and tells `grew` what
    the entries it holds gained or lost, so that what holds it can count them."""

    def __init__(
        self,
        size: int = 256,
        weigh: Callable[[tuple[K, V]], int] | None = None,
        grew: Callable[[int], None] | None = None,
    ) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._weights: dict[K, int] = {}
        self._weigh, self._grew = weigh, grew
        self._lock = Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> V:
        weight = self._weigh((key, value)) if self._weigh is not None else 0
        with self._lock:
            change = weight - self._weights.get(key, 0)
            self._entries[key] = value
            self._entries.move_to_end(key)
            if len(self._entries) > self.size:
                gone, _ = self._entries.popitem(last=False)
                change -= self._weights.pop(gone, 0)
            if self._weigh is not None:
                self._weights[key] = weight
        if self._grew is not None and change:
            self._grew(change)
        return value
