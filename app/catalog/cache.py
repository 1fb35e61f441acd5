"""What the process keeps of the catalog, bounded by count and by the bytes it holds: asking for every
version there is must not grow the process without end."""

from __future__ import annotations

import sys
from collections import OrderedDict
from enum import Enum
from threading import Lock
from types import FunctionType, ModuleType
from typing import Generic, TypeVar

V = TypeVar("V")

_SHARED = (type, ModuleType, FunctionType, Enum)
"""Objects that outlive any one cached value: never counted as its own."""


def footprint(root: object) -> int:
    """An estimate of the bytes `root` reaches through containers, dataclass fields and attributes,
    each object counted once (sys.getsizeof); objects shared by the whole process are left out."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _SHARED) or obj is None:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
        elif hasattr(obj, "__dict__"):
            stack.extend(vars(obj).values())
        elif hasattr(obj, "__slots__"):
            stack.extend(getattr(obj, name) for name in obj.__slots__ if hasattr(obj, name))
    return total


class Kept(Generic[V]):
    """Values by catalog version, the most recently used first given up: at most `count` of them and
    `max_bytes` by footprint in all, but never the one asked to be kept (the newest)."""

    def __init__(self, count: int, max_bytes: int) -> None:
        self.count = count
        self.max_bytes = max_bytes
        self._values: OrderedDict[int, tuple[V, int]] = OrderedDict()
        self._lock = Lock()

    def get(self, version: int) -> V | None:
        with self._lock:
            found = self._values.get(version)
            if found is None:
                return None
            self._values.move_to_end(version)
            return found[0]

    def put(self, version: int, value: V, keep: int) -> V:
        size = footprint(value)
        with self._lock:
            self._values[version] = value, size
            self._values.move_to_end(version)
            for old in [v for v in self._values if v not in (version, keep)]:
                if len(self._values) <= self.count and self.bytes <= self.max_bytes:
                    break
                del self._values[old]
        return value

    @property
    def bytes(self) -> int:
        return sum(size for _, size in self._values.values())

    def __len__(self) -> int:
        return len(self._values)
