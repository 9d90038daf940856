"""Watch roots with watchdog and feed changes to the index, debounced: a burst of saves becomes one job
per file a couple of seconds after the burst ends. Moves become path updates (no re-embedding);
deletions become deletion jobs; everything else becomes a high-priority index job."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import ObservedWatch

from engine.indexing.crawl import crawl, is_skipped
from engine.indexing.queue import DELETION, WATCHER, WorkQueue
from engine.paths import find_root

log = logging.getLogger(__name__)

MAX_HOLD = 5.0  # flush even during an endless burst, after this many debounce periods
# The events `_Handler` acts on, and only those: watchdog's default also asks inotify for every open and
# every close of a file read (IN_OPEN, IN_CLOSE_NOWRITE), so indexing a root woke the watcher's threads
# twice a file, each event parsed and dispatched in Python beside the indexer (bench/recoll.py).
# A folder's own "modified" (a file created in it) is left out too: the handler ignores it.
WATCHED_EVENTS = (
    FileCreatedEvent,
    DirCreatedEvent,
    FileModifiedEvent,
    FileClosedEvent,
    FileDeletedEvent,
    DirDeletedEvent,
    FileMovedEvent,
    DirMovedEvent,
)


class RootWatcher:
    def __init__(
        self,
        queue: WorkQueue,
        moved: Callable[[str, str], None],
        roots: Callable[[], list[str]],
        notify: Callable[[], None],
        debounce_s: float = 2.0,
    ):
        self.queue, self.moved, self.roots, self.notify = queue, moved, roots, notify
        self.debounce_s = debounce_s
        self._observer = Observer()
        self._watches: dict[str, ObservedWatch] = {}
        self._lock = threading.Lock()
        self._pending: list[tuple[str, str, str | None]] = []
        self._first_at: float | None = None
        self._timer: threading.Timer | None = None
        self._started = False

    def start(self) -> None:
        if not self._started:
            self._observer.start()
            self._started = True

    def stop(self) -> None:
        with self._lock:
            if self._timer:
                self._timer.cancel()
        if self._started:
            self._observer.stop()
            self._observer.join(10)
            self._started = False
        else:
            # watchdog opens its inotify instance when the observer is built: give it back (limit: 128 a user)
            self._observer.stop()

    def watch(self, root: str) -> None:
        if root in self._watches or not os.path.isdir(root):
            return
        handler = _Handler(self, root)
        self._watches[root] = self._observer.schedule(
            handler, root, recursive=True, event_filter=list(WATCHED_EVENTS)
        )

    def unwatch(self, root: str) -> None:
        watch = self._watches.pop(root, None)
        if watch is not None:
            self._observer.unschedule(watch)

    # ---- debouncing ---------------------------------------------------------------------------
    def record(self, kind: str, src: str, dest: str | None) -> None:
        with self._lock:
            self._pending.append((kind, src, dest))
            now = time.monotonic()
            self._first_at = self._first_at or now
            if self._timer:
                self._timer.cancel()
            held = now - self._first_at
            delay = 0.0 if held > MAX_HOLD * self.debounce_s else self.debounce_s
            self._timer = threading.Timer(delay, self.flush)
            self._timer.daemon = True
            self._timer.start()

    def flush(self) -> None:
        with self._lock:
            events, self._pending, self._first_at = self._pending, [], None
        for kind, src, dest in events:
            try:
                self._apply(kind, src, dest)
            except Exception:
                log.exception("could not apply a file-system event for %s", src)
        if events:
            self.notify()

    def _apply(self, kind: str, src: str, dest: str | None) -> None:
        roots = self.roots()
        if kind == "moved" and dest is not None:
            if find_root(dest, roots) and not _skipped(dest, roots):
                self.moved(src, dest)
            else:
                self.queue.push(src, DELETION, action="delete")
        elif kind == "deleted":
            self.queue.push(src, DELETION, action="delete")
        elif os.path.isdir(src):  # a folder appeared (moved in from outside): index what it holds
            root = find_root(src, roots)
            if root:
                self.queue.push_many([e.path for e in crawl(src) if not is_skipped(e.path, root)], WATCHER)
        elif os.path.isfile(src):
            self.queue.push(src, WATCHER)


def _skipped(path: str, roots: list[str]) -> bool:
    root = find_root(path, roots)
    return root is None or is_skipped(path, root)


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: RootWatcher, root: str):
        self.watcher, self.root = watcher, root

    def on_any_event(self, event: FileSystemEvent) -> None:
        kind = event.event_type
        if kind not in ("created", "modified", "deleted", "moved", "closed"):
            return
        src = os.fsdecode(event.src_path)
        dest = os.fsdecode(event.dest_path) if getattr(event, "dest_path", None) else None
        if kind == "moved":
            self.watcher.record("moved", src, dest)
        elif kind == "deleted":
            self.watcher.record("deleted", src, None)
        elif is_skipped(src, self.root):
            return
        elif not event.is_directory or kind == "created":
            self.watcher.record("changed", src, None)
