"""The C allocator held to a few arenas and a fixed size past which it maps memory of its own, so
that what one request frees is there for the next, or given back.

glibc gives a thread that allocates while another holds the arena an arena of its own, up to eight a
core, and what is freed in one stays with it: a process whose worker threads, heavy answers and
catalog reads each touched one held 50 MB more under bench/bench_budget.py's mix. And each large
block it frees (an 8 MB upload, a CSV answer) raises the size from which it maps blocks of their own
to that block's size, up to 32 MB, so the next such block is carved from an arena and kept after it is
freed. Python runs one thread at a time, so few threads ever allocate at once."""

from __future__ import annotations

import ctypes
import os

M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
"""mallopt's parameter numbers (glibc's malloc.h)."""
ARENAS = 2
MAPPED_FROM_BYTES = 1024 * 1024


def settle_allocator() -> bool:
    """At most ARENAS arenas, and every block of MAPPED_FROM_BYTES or more mapped and given back
    once freed, unless MALLOC_ARENA_MAX or MALLOC_MMAP_THRESHOLD_ says otherwise; whether the
    allocator took it (not glibc: nothing to do)."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is None:
        return False
    took = True
    if "MALLOC_ARENA_MAX" not in os.environ:
        took &= mallopt(M_ARENA_MAX, ARENAS) == 1
    if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
        took &= mallopt(M_MMAP_THRESHOLD, MAPPED_FROM_BYTES) == 1
    return took
