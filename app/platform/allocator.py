"""The C allocator held to a few arenas, so that memory freed by one thread is there for the next.

glibc gives a thread that allocates while another holds the arena an arena of its own, up to eight a
core, and what is freed in one stays with it: a process whose worker threads, heavy answers and
catalog reads each touched one held 50 MB more under bench/bench_budget.py's mix (357 MB at its peak
against 412 MB at two). Python runs one thread at a time, so few threads ever allocate at once."""

from __future__ import annotations

import ctypes
import os

M_ARENA_MAX = -8
"""mallopt's parameter number for the most arenas (glibc's malloc.h)."""
ARENAS = 2


def hold_arenas(arenas: int = ARENAS) -> bool:
    """At most `arenas` from now on, unless MALLOC_ARENA_MAX says otherwise; whether the allocator took
    it (not glibc: nothing to do)."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    return mallopt is not None and mallopt(M_ARENA_MAX, arenas) == 1
