"""The background worker: one thread that runs root purges and scans, then the keyword phase of queue
jobs by priority, then — when no job is due — the semantic phase batch by batch, pausing on request
and publishing progress; when nothing waits for embedding either, the OCR of one scanned page at a
time (ocr_phase.py). Everything that writes the index goes through the Indexer, the SemanticPhase and
the OcrPhase, so the thread is only about *when* work happens, never *how*.

Pause, Remove and Quit set a flag both phases check between files and between model slices: the
running batch stops within about a second, the files it had not written stay queued (or pending)."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable

from engine import native_memory
from engine.errors import is_disk_full
from engine.events import INDEXING_PROGRESS, NOTICE, EventBus
from engine.indexing.indexer import INTERRUPTED_STATUS, Indexer
from engine.indexing.media_phase import Endpoints, MediaPhase
from engine.indexing.ocr_phase import OcrPhase
from engine.indexing.pathtext import printable
from engine.indexing.progress import IndexingProgress, ProgressPublisher
from engine.indexing.queue import Job, WorkQueue
from engine.indexing.scan import scan_root
from engine.indexing.semantic import SemanticPhase

log = logging.getLogger(__name__)

DISK_FULL_RETRY_S = 30.0  # how often indexing paused by a full disk tries again
KEYWORD_BATCH = (
    256  # files claimed at once for the keyword phase (written in groups, see indexer.flush_after)
)


class IndexWorker:
    def __init__(
        self,
        indexer: Indexer,
        queue: WorkQueue,
        events: EventBus,
        stats: Callable[[], IndexingProgress],
        maintenance: Callable[[], None],
        media: Callable[[], Endpoints] | None = None,
    ):
        self.indexer, self.queue, self.events = indexer, queue, events
        self.stats, self.maintenance = stats, maintenance
        self.semantic = SemanticPhase(indexer)
        self.ocr = OcrPhase(indexer)
        # the configured caption and transcript endpoints, read without building a reasoning model
        self.media = MediaPhase(indexer, media or (lambda: indexer.options().media))
        self._wake = threading.Condition()
        self._scans: deque[str] = deque()
        self._purges: deque[str] = deque()
        self._paused = False
        self._stopping = False
        self._interrupt = False  # a removal asked the running batch to stop
        self._thread: threading.Thread | None = None
        self._disk_full = False  # paused by a full disk, told once (`_wait_for_space`)
        self._dirty = False
        self.current: str | None = None
        self._scanning: str | None = None
        self._keyword_idled = False  # the keyword phase has once had nothing due (`when_keyword_idle`)
        self._on_keyword_idle: list[Callable[[], None]] = []
        self.publisher = ProgressPublisher(
            stats, lambda progress: events.publish(INDEXING_PROGRESS, progress.to_dict())
        )
        indexer.changed = self.publish

    # ---- control ------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sensetree-indexer", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self.publisher.close()
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
        self.publish()  # the page says "looking for files" at once, never "Up to date" before the scan

    def set_paused(self, paused: bool) -> None:
        with self._wake:
            self._paused = paused
            self._wake.notify_all()
        self.publish()

    def request_purge(self, root: str) -> None:
        """Forget a removed root in the background: the running batch is interrupted now, and the purge
        runs before any further work (at once, on this thread, when no worker thread runs)."""
        if self._thread is None:
            self.indexer.purge_root(root)
            self.publish()
            return
        with self._wake:
            self._purges.append(root)
            self._interrupt = True
            self._wake.notify_all()
        self.publish()

    def when_keyword_idle(self, callback: Callable[[], None]) -> None:
        """Run `callback()` once, the first time the keyword phase has nothing due or indexing is paused
        (at once if that has happened). The query model loads then: loading it beside a folder's keyword
        phase cost that phase a third more CPU (torch's import holds the interpreter), while the page
        and the CLI answer from the keyword arm meanwhile (issue 30, bench/recoll.py)."""
        with self._wake:
            if not self._keyword_idled:
                self._on_keyword_idle.append(callback)
                return
        callback()

    def _keyword_idle(self) -> None:
        with self._wake:
            if self._keyword_idled:
                return
            self._keyword_idled = True
            callbacks, self._on_keyword_idle = self._on_keyword_idle, []
        for callback in callbacks:
            try:
                callback()
            except Exception:  # a warm-up that fails must not cost the indexer its pass
                log.warning("a keyword-idle callback failed", exc_info=True)

    @property
    def scanning(self) -> list[str]:
        """Roots being scanned or waiting for a scan (their files are not counted yet)."""
        running = [self._scanning] if self._scanning else []
        return running + [printable(r) for r in self._scans if printable(r) not in running]

    @property
    def removing(self) -> list[str]:
        return [printable(r) for r in self._purges]

    def _run_purges(self) -> None:
        while self._purges:
            root = self._purges[0]
            self.indexer.purge_root(root)
            with self._wake:
                self._purges.popleft()
            self.publish()

    @property
    def paused(self) -> bool:
        return self._paused

    # ---- work ---------------------------------------------------------------------------------
    def run_pending(self, should_stop: Callable[[], bool] = lambda: False) -> int:
        """Run queued scans and jobs until none is ready now; returns how many jobs ran."""
        ran = 0
        stop = lambda: should_stop() or self._interrupt  # noqa: E731
        while not should_stop():
            self._interrupt = False
            if self._purges:
                self._run_purges()
                continue
            if self._scans:
                root = self._scans.popleft()
                self.current = self._scanning = printable(root)
                try:
                    report = scan_root(root, self.indexer.catalog, self.queue, should_stop)
                finally:
                    self._scanning = None
                log.info(
                    "scanned %s: %d files seen, %d queued, %d gone, %d refused",
                    printable(root),
                    report.seen,
                    report.queued,
                    report.removed,
                    len(report.refused) + len(report.unqueued),
                )
                self.publish()
                continue
            jobs = self.queue.claim_batch(KEYWORD_BATCH)  # counts an attempt for each before reading it
            if jobs:
                ran += self._keyword_batch(jobs, stop)
                native_memory.trim()  # what the batch freed goes back to the system (native_memory.py)
                continue
            self.current = None
            self.indexer.extraction.stop()  # nothing due: no second process held while idle
            self._keyword_idle()
            embedded = self.semantic.run_batch(stop)
            native_memory.trim()
            if not embedded:
                # one scanned page, or one caption or transcript, then look for due jobs again
                if not self.ocr.run_page(stop) and not self.media.run_one(stop):
                    break
                continue
            self._dirty = True
            ran += embedded
        self.current = None
        self.indexer.tracker.idle()
        if self._dirty and not should_stop():
            self._dirty = False
            self.maintenance()
        self.publish()
        return ran

    def _keyword_batch(self, jobs: list[Job], stop: Callable[[], bool]) -> int:
        self.current = printable(jobs[0].path)
        statuses: list[str] = []
        try:
            statuses = self.indexer.process_batch(jobs, stop)
        finally:  # only a process that dies leaves a claim behind (see queue)
            unreached = [j.path for j, s in zip(jobs, statuses, strict=False) if s == INTERRUPTED_STATUS]
            self.queue.give_back(unreached)  # not read: the attempt does not count
            self.queue.release([job.path for job in jobs])
        self._dirty = True
        self.publish()
        return sum(1 for s in statuses if s != INTERRUPTED_STATUS)

    def _run(self) -> None:
        while True:
            if self._paused:
                self._keyword_idle()  # nothing will be indexed until resumed: the model may load now
            with self._wake:
                while self._paused and not self._stopping and not self._purges:
                    self._wake.wait()
                if self._stopping:
                    return
            try:
                self.run_pending(lambda: self._stopping or self._paused)
                if self._purges and (self._stopping or self._paused):
                    self._run_purges()  # a removal is carried out even while paused
            except Exception as exc:  # the loop must survive anything a store throws; the job is retried
                if is_disk_full(exc):
                    self._wait_for_space(exc)
                    continue
                log.exception("indexing worker error")
            else:
                self._space_back()
            with self._wake:
                if self._stopping:
                    return
                if not self._paused and not self._scans and not self._purges:
                    retry_at = self.queue.earliest_retry()
                    timeout = None if retry_at is None else max(0.05, retry_at - time.time())
                    timeout = self.media.wake_in(timeout)  # an endpoint's back-off ends by itself
                    self._wake.wait(timeout)

    def _wait_for_space(self, exc: Exception) -> None:
        """A full disk pauses indexing with one notice (not a traceback per try: 4,948 in 90 s, issue 31,
        N7) and tries again every DISK_FULL_RETRY_S, so it resumes by itself once space is freed."""
        if not self._disk_full:
            self._disk_full = True
            log.warning("indexing paused: the data folder's disk is full (%s)", exc)
            self.events.publish(
                NOTICE,
                {
                    "message": "Indexing is paused: the disk that holds SenseTree's data folder is full. "
                    "It resumes by itself once some space is freed.",
                    "level": "warning",
                },
            )
        with self._wake:
            if not self._stopping:
                self._wake.wait(DISK_FULL_RETRY_S)

    def _space_back(self) -> None:
        if self._disk_full:
            self._disk_full = False
            log.info("indexing resumed: the data folder's disk has space again")
            resumed = {"message": "Indexing resumed: there is space again.", "level": "info"}
            self.events.publish(NOTICE, resumed)

    def publish(self) -> None:
        """Progress now, or within `progress.PUBLISH_EVERY_S` (the last state is always delivered)."""
        self.publisher.publish()
