"""The allocator of a long-running table process, told to give memory back.

glibc's malloc gives each thread an arena of its own (up to eight per core) and raises the size it hands
to mmap after every large free, so a burst of requests on the page's two dozen threads (camera pictures of
hundreds of kilobytes each) leaves hundreds of megabytes held in fragmented arenas for ever. Two arenas and
a fixed mmap threshold (large blocks straight from the kernel and back to it when freed) keep the table
near its resting size after any burst (``benchmarks/bench_bursts.py`` measures it). The service's unit sets
the same through the environment; this applies it in-process where the environment did not."""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os

log = logging.getLogger(__name__)

#: mallopt's parameters (glibc's malloc.h)
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
ARENAS = 2
MMAP_THRESHOLD = 128 * 1024


def thrifty_allocator() -> bool:
    """Two arenas and a fixed mmap threshold for this process (before its threads start); False where
    the C library is not glibc or the environment already chose."""
    if "MALLOC_ARENA_MAX" in os.environ or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    name = ctypes.util.find_library("c")
    if not name:
        return False
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False  # not glibc (musl has no mallopt)
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    done = bool(mallopt(M_ARENA_MAX, ARENAS)) and bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    if not done:
        log.warning("the allocator kept its defaults: memory after a burst of requests may stay high")
    return done
