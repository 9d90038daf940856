"""One handle per live thread (a SQLite connection, a DuckDB cursor), never one per thread ever seen.

The HTTP server starts a thread per connection and pywebview one per call, so a cache keyed by thread
grows with the requests served unless a thread's handle goes when the thread does (issue 30: keeping
every thread's SQLite connection cost 2 file descriptors and up to 1.9 MB per `indexing_stats` call,
and a `serve` that polled progress while indexing reached 5.6 GB). A thread's handle is held by a
`_Lease` in thread-local storage, which Python drops when the thread ends; the lease then hands the
handle to a small idle pool, where the next new thread takes it instead of opening another (closed
beyond `idle`). Open handles are bounded by the threads alive now plus the pool.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class _Pool(Generic[T]):
    """Idle handles of threads that ended, handed to new threads; closes what it cannot keep."""

    def __init__(
        self, opener: Callable[[], T], closer: Callable[[T], None], reset: Callable[[T], None], keep: int
    ):
        self._open, self._close, self._reset, self._keep = opener, closer, reset, keep
        self._idle: list[T] = []
        self._lock = threading.Lock()
        self.closed = False

    def take(self) -> T:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return self._open()

    def give_back(self, handle: T) -> None:
        """`reset` first (a transaction a dead thread left open is rolled back), so the next thread
        starts clean; a handle that cannot be reset is closed."""
        try:
            self._reset(handle)
            with self._lock:
                if not self.closed and len(self._idle) < self._keep:
                    self._idle.append(handle)
                    return
        except Exception:  # noqa: BLE001 - a broken handle is closed, not pooled
            pass
        self._close_quietly(handle)

    def idle_count(self) -> int:
        with self._lock:
            return len(self._idle)

    def close(self) -> None:
        with self._lock:
            idle, self._idle, self.closed = self._idle, [], True
        for handle in idle:
            self._close_quietly(handle)

    def _close_quietly(self, handle: T) -> None:
        try:
            self._close(handle)
        except Exception:  # noqa: BLE001 - closing what may already be closed
            pass


class _Lease(Generic[T]):
    """One thread's handle; dropped with the thread's local storage, it returns the handle."""

    __slots__ = ("__weakref__", "depth", "handle", "pool")

    def __init__(self, pool: _Pool[T]):
        self.pool = pool
        self.handle: T | None = pool.take()
        self.depth = 0  # the owner's own per-thread counter (Database.atomic's nesting)

    def release(self) -> None:
        handle, self.handle = self.handle, None
        if handle is not None:
            self.pool.give_back(handle)

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:  # noqa: BLE001 - at interpreter exit the pool's modules may be gone
            pass


def _nothing(_handle: object) -> None:
    return None


class PerThread(Generic[T]):
    """This thread's handle from `opener`; `closer` closes one; `reset` readies one for reuse."""

    def __init__(
        self,
        opener: Callable[[], T],
        closer: Callable[[T], None],
        *,
        idle: int = 4,
        reset: Callable[[T], None] = _nothing,
    ):
        self._pool: _Pool[T] = _Pool(opener, closer, reset, idle)
        self._local = threading.local()
        self._leases: weakref.WeakSet[_Lease[T]] = weakref.WeakSet()  # the live threads', for close()
        self._lock = threading.Lock()

    def lease(self) -> _Lease[T]:
        """This thread's lease (its handle and its depth counter), taken on first use."""
        lease: _Lease[T] | None = getattr(self._local, "lease", None)
        if lease is None or lease.handle is None:
            lease = _Lease(self._pool)
            self._local.lease = lease
            with self._lock:
                self._leases.add(lease)
        return lease

    def get(self) -> T:
        handle = self.lease().handle
        assert handle is not None  # a fresh lease always holds one
        return handle

    def open_count(self) -> int:
        """Handles open now: live threads' plus idle ones (what the leak test and bench watch)."""
        with self._lock:
            live = sum(1 for lease in self._leases if lease.handle is not None)
        return live + self._pool.idle_count()

    def close(self) -> None:
        """Close every handle, live threads' included; a thread that calls in afterwards opens a fresh
        one that closes with it (so a late call fails on its own terms, not on a closed handle)."""
        self._pool.close()
        with self._lock:
            leases = list(self._leases)
        for lease in leases:
            lease.release()  # the pool is closed: this closes the handle
        self._local = threading.local()
