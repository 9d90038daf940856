"""glibc's malloc, told to keep fewer arenas and to hand freed pages back to the system.

Most of what indexing allocates is native (LanceDB's Rust, DuckDB, Arrow), through the C library's
malloc, and glibc gives each thread that meets contention an arena of its own, up to eight per core.
Indexing runs on the worker thread, LanceDB's and DuckDB's pools and the read-ahead thread, so the freed
space of one batch sat in arenas other threads never reused: 46 MB of free malloc space after 10,000
tiny files, growing with the run (bench/index_memory.py, issue 30). Two arenas and a trim after
indexing batches keep it near 10 MB. A trim also hands back the model's freed activations, which the
next forward faults in again: trimmed after every batch, end-to-end / raw forward fell from 0.94 to 0.83
(bench/index_throughput.py --busy, beside main's code), so a trim runs at most every TRIM_EVERY_S.

Elsewhere (macOS, Windows, musl) both calls do nothing.
"""

from __future__ import annotations

import ctypes
import logging
import sys
import threading
import time
from functools import cache

log = logging.getLogger(__name__)

M_ARENA_MAX = -8  # mallopt's parameter number (malloc.h)
ARENAS = 2
TRIM_EVERY_S = 10.0
_last_trim = [float("-inf")]
_trim_lock = threading.Lock()


@cache
def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # glibc's soname on every Linux it runs on: ctypes.util.find_library would run `ldconfig -p` in a
        # child process, and its import cost ~13 ms of CPU on every command's start (the cold CLI's too)
        libc = ctypes.CDLL("libc.so.6")
        libc.gnu_get_libc_version.restype = ctypes.c_char_p  # absent in musl: AttributeError
        libc.gnu_get_libc_version()
    except (OSError, AttributeError):
        return None
    return libc


def limit_arenas(arenas: int = ARENAS) -> bool:
    """At most `arenas` malloc arenas from now on (call before threads start); True when glibc took it."""
    libc = _glibc()
    if libc is None:
        return False
    done = bool(libc.mallopt(M_ARENA_MAX, arenas))
    if not done:
        log.info("malloc kept its own arena limit")
    return done


def trim(*, now: bool = False) -> None:
    """Give the free pages inside malloc's arenas back to the system: after a batch of indexing at most
    every TRIM_EVERY_S; `now` after a one-off job that held much (a Gardener analysis), whatever the
    last batch's trim."""
    libc = _glibc()
    if libc is None:
        return
    with _trim_lock:
        when = time.monotonic()
        if not now and when - _last_trim[0] < TRIM_EVERY_S:
            return
        _last_trim[0] = when
    libc.malloc_trim(0)
