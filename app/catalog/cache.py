"""What the process keeps of the catalog, bounded by count and by the bytes it holds, the work derived
from each version included: asking for every version there is must not grow the process without end."""

from __future__ import annotations

import gc
import sys
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import Enum
from functools import partial
from threading import Lock
from types import FunctionType, ModuleType
from typing import Any, Generic, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_SHARED = (type, ModuleType, FunctionType, Enum)
"""Objects that outlive any one cached value: never counted as its own."""


def footprint(root: object, shared: tuple[type, ...] = ()) -> int:
    """An estimate of the bytes `root` reaches, each object counted once (sys.getsizeof), through every
    reference the collector sees: an instance's own dict and its slots too (a pydantic model's set of
    the fields it was given is a slot, and at the shipped size half of what a version holds). Objects
    shared by the whole process, and instances of `shared` (what `root` points to but does not hold),
    are left out."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    leave_out = _SHARED + shared
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, leave_out) or obj is None:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


class Meter:
    """Where the bytes of derived work are told: to what keeps its version (`watcher`), once it is kept."""

    def __init__(self) -> None:
        self.watcher: Callable[[int], None] | None = None

    def __call__(self, nbytes: int) -> None:
        if self.watcher is not None:
            self.watcher(nbytes)


class Derived:
    """Work derived from one catalog version (per set of inputs, what a move of the slider reuses; the
    explorer's rows), made on first use and kept with the version. Each piece is weighed as it is added
    and its bytes told to `grew`, which what keeps the version watches to keep to its budget.

    `shared`: the version's own records, which derived work points to but does not hold. What the
    pieces hold of this object is its meter and its weighing alone, so that the version and its work
    are freed as soon as nothing uses them (no reference cycle waits for the collector)."""

    def __init__(self, shared: tuple[type, ...] = ()) -> None:
        self.weigh: Callable[[object], int] = partial(footprint, shared=shared)
        self.grew = Meter()
        self._made: dict[Hashable, Any] = {}

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        found = self._made.get(key)
        if found is None:
            made = make()
            found = self._made.setdefault(key, made)
            if found is made:
                self.grew(self.weigh((key, made)))
        return found

    def holds(self, key: Hashable) -> bool:
        """Whether `key` was made already; neither makes it nor waits for it."""
        return key in self._made

    def memos(self, name: str, size: int, max_bytes: int) -> Memo[Any]:
        """A Memo of `size` entries and `max_bytes` whose parts are counted as they come and go."""
        return self.memo(name, lambda: Memo(size, max_bytes, self.weigh, self.grew))


_MISSING = object()


class Memo(Generic[K]):
    """Entries by key, the most recently used kept: at most `size` of them and `max_bytes` in all, but
    never the one in use. An entry holds parts, each made on its first use and weighed then, its bytes
    told to `grew`; an entry given up tells all of them back. So an entry is counted as it fills, not
    only when it is first put."""

    def __init__(self, size: int, max_bytes: int, weigh: Callable[[object], int], grew: Callable[[int], None]) -> None:
        self.size, self.max_bytes = size, max_bytes
        self._weigh, self._grew = weigh, grew
        self._entries: OrderedDict[K, dict[Hashable, Any]] = OrderedDict()
        self._bytes: dict[K, int] = {}
        self._lock = Lock()

    def entry(self, key: K) -> MemoEntry:
        """The entry at `key`, made empty if there is none."""
        with self._lock:
            parts = self._entries.get(key)
            if parts is not None:
                self._entries.move_to_end(key)
                return MemoEntry(self, key, parts)
        nbytes = self._weigh(key)
        with self._lock:
            parts = self._entries.setdefault(key, {})
            self._entries.move_to_end(key)
            change = 0
            if key not in self._bytes:
                self._bytes[key] = nbytes
                change = nbytes - self._give_up(key)
        self._grew(change)
        return MemoEntry(self, key, parts)

    def holds(self, key: K, name: Hashable) -> bool:
        """Whether the entry at `key` holds the part `name` already; neither makes nor moves it."""
        with self._lock:
            parts = self._entries.get(key)
            return parts is not None and name in parts

    def _add(self, key: K, parts: dict[Hashable, Any], name: Hashable, made: T) -> T:
        nbytes = self._weigh((name, made))
        change = 0
        with self._lock:
            found = parts.setdefault(name, made)
            if found is made and self._entries.get(key) is parts:  # an entry given up meanwhile is not counted
                self._bytes[key] += nbytes
                change = nbytes - self._give_up(key)
        if change:
            self._grew(change)
        return found

    def _give_up(self, using: K) -> int:
        """Gives up the least recently used entries but `using` while there are too many; their bytes."""
        freed = 0
        while len(self._entries) > 1 and (len(self._entries) > self.size or sum(self._bytes.values()) > self.max_bytes):
            gone = next(k for k in self._entries if k != using)
            del self._entries[gone]
            freed += self._bytes.pop(gone)
        return freed


class MemoEntry:
    """One entry of a Memo, as a request uses it: not kept by the memo, so that nothing refers back."""

    __slots__ = ("_memo", "_key", "_parts")

    def __init__(self, memo: Memo[Any], key: Hashable, parts: dict[Hashable, Any]) -> None:
        self._memo, self._key, self._parts = memo, key, parts

    def part(self, name: Hashable, make: Callable[[], T]) -> T:
        """The part `name`, made by `make` on first use: `name` also says what the part depends on
        beyond the entry's key (what was worked out for the request, such as the offers chosen)."""
        found = self._parts.get(name, _MISSING)
        return self._memo._add(self._key, self._parts, name, make()) if found is _MISSING else found


@dataclass
class _Entry(Generic[V]):
    value: V
    bytes: int


class Kept(Generic[V]):
    """Values by catalog version, the most recently used first given up: at most `count` of them and
    `max_bytes` in all, each counted by its footprint when put and what it grew by since, but never
    the one asked to be kept (the newest) or the one just put or grown (in use)."""

    def __init__(self, count: int, max_bytes: int) -> None:
        self.count = count
        self.max_bytes = max_bytes
        self._values: OrderedDict[int, _Entry[V]] = OrderedDict()
        self._lock = Lock()

    def get(self, version: int) -> V | None:
        with self._lock:
            found = self._values.get(version)
            if found is None:
                return None
            self._values.move_to_end(version)
            return found.value

    def put(self, version: int, value: V, keep: int) -> V:
        size = footprint(value)
        with self._lock:
            self._values[version] = _Entry(value, size)
            self._values.move_to_end(version)
            self._give_up(keep, version)
        return value

    def grew(self, version: int, value: V | None, nbytes: int, keep: int) -> None:
        """`value`, kept for `version`, holds `nbytes` more (or fewer); a value no longer kept is no concern."""
        with self._lock:
            found = self._values.get(version)
            if found is not None and found.value is value:
                found.bytes += nbytes
                self._give_up(keep, version)

    def _give_up(self, keep: int, using: int) -> None:
        for old in [v for v in self._values if v not in (using, keep)]:
            if len(self._values) <= self.count and self.bytes <= self.max_bytes:
                break
            del self._values[old]

    @property
    def bytes(self) -> int:
        return sum(entry.bytes for entry in self._values.values())

    def __len__(self) -> int:
        return len(self._values)
