"""The background pass: every root checked 45 s after start, then every 5 minutes and whenever the
roots change; the reports cached in SQLite and `gardener-report` published when one changes.

It stays out of the way: a pass waits while the index has work queued or a plan is being applied
(`busy`), and pauses between two roots when the engine turns busy meanwhile — the roots left are
checked once it is idle again, and only then does the round count as run. Its thread runs at the lowest
CPU priority the OS gives a thread, and each root's listing and catalog read stop at the entries cap
(settings `gardener.max_entries`). The schedule is a small pure object so it is tested without
waiting."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable

from engine import native_memory
from engine.errors import EngineError
from engine.events import EventBus
from engine.gardener.model import FolderReport
from engine.gardener.store import ReportCache

log = logging.getLogger(__name__)

GARDENER_REPORT = "gardener-report"
FIRST_DELAY_S = 45.0
EVERY_S = 300.0
TICK_S = 5.0  # how often the thread looks at the roots, the clock and whether the engine is busy


class Schedule:
    """When the next pass is due: `first` seconds after start, then `every`, or at once on new roots."""

    def __init__(self, start: float, first: float = FIRST_DELAY_S, every: float = EVERY_S):
        self.next_at = start + first
        self.every = every
        self.roots: tuple[str, ...] | None = None

    def due(self, now: float, roots: list[str]) -> bool:
        current = tuple(sorted(roots))
        changed = self.roots is not None and current != self.roots
        return changed or now >= self.next_at

    def ran(self, now: float, roots: list[str]) -> None:
        self.roots = tuple(sorted(roots))
        self.next_at = now + self.every


class BackgroundPass:
    def __init__(
        self,
        analyze: Callable[[str], FolderReport],
        roots: Callable[[], list[str]],
        cache: ReportCache,
        events: EventBus,
        busy: Callable[[], bool],
        clock: Callable[[], float] = time.monotonic,
    ):
        self._analyze, self._roots, self._cache, self._events = analyze, roots, cache, events
        self._busy, self._clock = busy, clock
        self.schedule = Schedule(clock())
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._checked: set[str] = set()  # roots this round has checked so far
        self._paused = False

    @property
    def paused(self) -> bool:
        """A round stopped part-way because the engine turned busy; the loop resumes it when idle."""
        return self._paused

    def run_once(self) -> list[FolderReport]:
        """Check every root this round has not checked yet; publish `gardener-report` for each root whose
        findings changed. Stops before a root while the engine is busy (the round stays `paused`)."""
        roots = self._roots()
        reports: list[FolderReport] = []
        for root in roots:
            if root in self._checked:
                continue
            if self._stop.is_set() or self._busy():
                self._paused = True
                return reports
            self._checked.add(root)
            try:
                report = self._analyze(root)
            except EngineError as exc:  # a root that vanished or went out of bounds meanwhile
                log.info("gardener skipped %s: %s", root, exc.message)
                continue
            reports.append(report)
            if self._cache.save(report):
                self._events.publish(
                    GARDENER_REPORT,
                    {"path": root, "severity": report.severity, "headline": report.headline},
                )
        for gone in set(self._cache.roots()) - set(roots):
            self._cache.forget(gone)
        self._checked.clear()
        self._paused = False
        self.schedule.ran(self._clock(), roots)
        native_memory.trim()  # what the pass held (a big tree's pairs and texts) goes back to the system
        return reports

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="sensetree-gardener", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def _loop(self) -> None:
        _lowest_priority()
        while not self._stop.wait(TICK_S):
            try:
                if not self._busy() and (self.paused or self.schedule.due(self._clock(), self._roots())):
                    self.run_once()
            except Exception:  # the audit must never take the app down
                log.exception("gardener pass failed")
                self._checked.clear()
                self._paused = False
                self.schedule.ran(self._clock(), self._roots())


def _lowest_priority() -> None:
    """Idle CPU priority for this thread (Linux sets niceness per thread; elsewhere left as is)."""
    if sys.platform.startswith("linux"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        except (OSError, AttributeError):
            pass
