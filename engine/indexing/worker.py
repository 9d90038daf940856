"""The background worker: one thread that runs root scans, then queue jobs by priority, pausing on
request and publishing progress. Everything that writes the index goes through `Indexer.process`, so
the thread is only about *when* work happens, never *how*."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable

from engine.events import INDEXING_PROGRESS, EventBus
from engine.indexing.indexer import Indexer
from engine.indexing.pathtext import printable
from engine.indexing.queue import WorkQueue
from engine.indexing.scan import scan_root

log = logging.getLogger(__name__)

PROGRESS_EVERY_S = 0.25
BATCH_FILES = (
    64  # files per embedding call: enough chunks (~120) for length-sorted model batches with little padding
)


class IndexWorker:
    def __init__(
        self,
        indexer: Indexer,
        queue: WorkQueue,
        events: EventBus,
        stats: Callable[[], dict],
        maintenance: Callable[[], None],
    ):
        self.indexer, self.queue, self.events = indexer, queue, events
        self.stats, self.maintenance = stats, maintenance
        self._wake = threading.Condition()
        self._scans: deque[str] = deque()
        self._paused = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._last_progress = 0.0
        self._dirty = False
        self.current: str | None = None

    # ---- control ------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sensetree-indexer", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def notify(self) -> None:
        with self._wake:
            self._wake.notify_all()

    def request_scan(self, root: str) -> None:
        with self._wake:
            if root not in self._scans:
                self._scans.append(root)
            self._wake.notify_all()

    def set_paused(self, paused: bool) -> None:
        with self._wake:
            self._paused = paused
            self._wake.notify_all()
        self.publish(force=True)

    @property
    def paused(self) -> bool:
        return self._paused

    # ---- work ---------------------------------------------------------------------------------
    def run_pending(self, should_stop: Callable[[], bool] = lambda: False) -> int:
        """Run queued scans and jobs until none is ready now; returns how many jobs ran."""
        ran = 0
        while not should_stop():
            if self._scans:
                root = self._scans.popleft()
                self.current = printable(root)
                report = scan_root(root, self.indexer.catalog, self.queue, should_stop)
                log.info(
                    "scanned %s: %d files seen, %d queued, %d gone, %d refused",
                    printable(root),
                    report.seen,
                    report.queued,
                    report.removed,
                    len(report.refused) + len(report.unqueued),
                )
                self.publish(force=True)
                continue
            jobs = self.queue.claim_batch(BATCH_FILES)  # counts an attempt for each before reading it
            if not jobs:
                break
            self.current = printable(jobs[0].path)
            try:
                self.indexer.process_batch(jobs)
            finally:  # only a process that dies leaves a claim behind (see queue)
                self.queue.release([job.path for job in jobs])
            self._dirty = True
            ran += len(jobs)
            self.publish()
        self.current = None
        if self._dirty and not should_stop():
            self._dirty = False
            self.maintenance()
        self.publish(force=True)
        return ran

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._paused and not self._stopping:
                    self._wake.wait()
                if self._stopping:
                    return
            try:
                self.run_pending(lambda: self._stopping or self._paused)
            except Exception:  # the loop must survive anything a store throws; the job is retried
                log.exception("indexing worker error")
            with self._wake:
                if self._stopping:
                    return
                if not self._paused and not self._scans:
                    retry_at = self.queue.earliest_retry()
                    timeout = None if retry_at is None else max(0.05, retry_at - time.time())
                    self._wake.wait(timeout)

    def publish(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last_progress < PROGRESS_EVERY_S:
            return
        self._last_progress = now
        payload = dict(self.stats())
        payload["current"] = self.current
        self.events.publish(INDEXING_PROGRESS, payload)
