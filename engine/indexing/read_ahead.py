"""Read-ahead for the keyword phase: the next files of a batch are hashed and extracted on one background
thread while the indexer qualifies, chunks and writes the files before them.

Why: on two cores the keyword phase spent a third of its time in store writes (DuckDB's statements and
commit, SQLite's commit) during which nothing was read, so a folder became searchable 1.7× slower than
extraction alone. DuckDB and SQLite release the GIL while they work, so reading the next files meanwhile
hides most of that time — as long as the write really runs inside DuckDB: that is why a keyword-phase
group takes the bulk SQL path (bm25.POINT_FILES), not the point path that tokenises in Python. Python work
on both threads still takes turns on the GIL; measured on 1,000 files, keyword-searchable went from 1.66×
to 1.20× the time of extraction alone (bench/index_throughput.py, quiet).

What is shared is only what a file's bytes determine (its hash and its `Extracted`): the read-ahead never
writes a store, never decides what a file is, and every result is stamped with the file's identity (size,
mtime in ns, inode, device) taken before and after reading. The indexer uses a result only when its own
`stat` at the moment of use gives the same stamp; anything else (a file changed, replaced, moved, or a
result not ready yet) is read again on the indexer's thread, exactly as without read-ahead. Errors are
carried over as they were raised, so a bad file is failed with the same reason, and read only once.
"""

from __future__ import annotations

import functools
import logging
import os
import queue
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from engine.indexing.extract import Extracted
from engine.indexing.extract_process import ReadHere
from engine.indexing.file_hash import stamp

log = logging.getLogger(__name__)

# Files read ahead at most: a keyword write (~0.25 s) is ~50 files of reading; memory ≤ 64 × max_chars.
AHEAD_FILES = 64


@dataclass
class Read:
    """One file's bytes-derived results, read ahead: its stamp, hash and extraction (or the error);
    `extracted` is None where the content was already indexed (same hash) or the file is over the size
    limit."""

    stamp: tuple[int, int, int, int]
    max_chars: int  # the extraction limit it was read with (a changed setting reads again)
    digest: str | None = None
    extracted: Extracted | None = None
    error: BaseException | None = None
    pending: Future[Extracted] | None = None  # the extraction, read by the second process (`finish`)


# The reading function: path → Read, or None when the file needs no reading (unchanged, gone, too big).
Reader = Callable[[str], "Read | None"]


class ReadAhead:
    """Schedules `reader(path)` for the next paths of a batch on one daemon thread (`begin`), and hands
    each result to the indexer when it reaches that file (`take`)."""

    def __init__(self, depth: int = AHEAD_FILES):
        self.depth = depth
        self._work: queue.SimpleQueue[tuple[Future[Read | None], str, Reader] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._scheduled: deque[tuple[str, Future[Read | None]]] = deque()
        self._waiting: deque[str] = deque()
        self._reader: Reader | None = None

    def begin(self, paths: list[str], reader: Reader) -> None:
        """Read these paths ahead, in order (what an earlier batch left scheduled is dropped)."""
        self.cancel()
        with self._lock:
            self._reader = reader
            self._waiting = deque(paths)
        self._top_up()

    def take(self, path: str) -> Read | None:
        """The read-ahead result for `path`, waiting for it if it is being read now; None when it was not
        scheduled or not started yet (the caller reads the file itself, and nobody reads it twice)."""
        found: Future[Read | None] | None = None
        with self._lock:
            while any(scheduled == path for scheduled, _ in self._scheduled):
                scheduled, future = self._scheduled.popleft()
                if scheduled == path:
                    found = future
                    break
                future.cancel()  # a path the indexer skipped (or handled otherwise) is not read
            if found is None and self._waiting and self._waiting[0] == path:
                self._waiting.popleft()
        self._top_up()
        if found is None or found.cancel():
            return None
        try:
            return found.result()
        except BaseException:  # the reader catches what a file raises; anything else: read it again
            log.exception("read-ahead of a file failed")
            return None

    def cancel(self) -> None:
        """Forget everything scheduled (a stopped batch): what is being read now finishes unused."""
        with self._lock:
            while self._scheduled:
                self._scheduled.popleft()[1].cancel()
            self._waiting.clear()
            self._reader = None

    def _top_up(self) -> None:
        with self._lock:
            reader = self._reader
            while reader is not None and self._waiting and len(self._scheduled) < self.depth:
                path = self._waiting.popleft()
                future: Future[Read | None] = Future()
                self._scheduled.append((path, future))
                self._ensure_thread()
                self._work.put((future, path, reader))

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="index-read-ahead", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while (item := self._work.get()) is not None:
            future, path, reader = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                read = reader(path)
            except BaseException as exc:  # noqa: BLE001 - handed to the indexer's thread as it was
                future.set_exception(exc)
                continue
            if read is not None and read.pending is not None:  # this thread reads on meanwhile
                read.pending.add_done_callback(functools.partial(_finished, future, path, read))
            else:
                future.set_result(read)

    def close(self) -> None:
        """Stop the thread after what it is reading now."""
        self.cancel()
        self._work.put(None)


def read_file(
    path: str,
    max_chars: int,
    extract: Callable[[str], Extracted],
    digest: Callable[[str], str],
    wanted: Callable[[str, os.stat_result, str], bool],
    submit: Callable[[str], Future[Extracted] | None] = lambda _path: None,
) -> Read | None:
    """The read-ahead reader: hash a regular file and, when `wanted(path, stat, digest)` says its content
    is new to the index, extract it; stamped before and after. None where there is nothing to share (not a
    regular file, gone, or changed while it was read: the indexer reads it itself). Errors travel in the
    result. Where `submit(path)` hands the extraction to the second process, the result is `pending`
    and `finish` stamps it once the answer is in."""
    try:
        before = os.stat(path)
        if not os.path.isfile(path):
            return None
    except (OSError, ValueError):
        return None
    result = Read(stamp(before), max_chars)
    try:
        result.digest = digest(path)
        if wanted(path, before, result.digest):
            result.pending = submit(path)
            if result.pending is None:
                result.extracted = extract(path)
    except Exception as exc:  # carried to the indexer, which fails the file with this reason
        result.error = exc
    return result if result.pending is not None else _unchanged_since(path, result)


def finish(path: str, result: Read) -> Read | None:
    """A read whose extraction the second process did: its answer (or error) in, stamped after."""
    answer, result.pending = result.pending, None
    assert answer is not None
    try:
        result.extracted = answer.result()
    except ReadHere:  # the second process did not read it: the indexer reads it itself
        pass
    except Exception as exc:  # carried to the indexer, as when it was raised on this thread
        result.error = exc
    return _unchanged_since(path, result)


def _unchanged_since(path: str, result: Read) -> Read | None:
    """The result, if the file still has the stamp it had before it was read."""
    try:
        after = os.stat(path)
    except (OSError, ValueError):
        return None
    return result if stamp(after) == result.stamp else None


def _finished(future: Future[Read | None], path: str, result: Read, _done: Future[Extracted]) -> None:
    try:
        future.set_result(finish(path, result))
    except BaseException as exc:  # noqa: BLE001 - handed to the indexer's thread as it was
        future.set_exception(exc)
