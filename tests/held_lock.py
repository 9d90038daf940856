"""`held_elsewhere(lock)`: a lock held by another thread for the length of a `with` block, bounded waits."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager


@contextmanager
def held_elsewhere(lock: AbstractContextManager[object]) -> Iterator[None]:
    """Another thread takes `lock` and holds it until the block ends (what a busy worker or a write in
    progress looks like to the code under test)."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with lock:
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    try:
        yield
    finally:
        release.set()
        holder.join(10)
