"""One progress model for indexing, so every view (the page, the CLI bar, `indexing_stats`) tells the
same story.

Indexing runs in two phases (see indexer.py and semantic.py): `keyword` (a file is findable by name and
words) and `semantic` (its vectors landed). Each phase reports `{done, total, current, rate, eta_s}`:
`rate` is files per second over the last minute, `eta_s` the remaining files at that rate, both None
while nothing has been measured. Every snapshot carries a strictly increasing `seq`, so a view that
receives an event and a poll answer out of order keeps the newer and drops the older.

`ProgressPublisher` sends at most 4 snapshots a second on `indexing-progress` and never loses the last
one: a change that arrives inside the quiet interval is sent when the interval ends.

JSON edge: the `indexing-progress` event's payload (`to_dict`), which the page receives as JSON.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

log = logging.getLogger(__name__)

RATE_WINDOW_S = 60.0
PUBLISH_EVERY_S = 0.25
PHASES = ("keyword", "semantic")

Clock = Callable[[], float]
Schedule = Callable[[float, Callable[[], None]], None]


@dataclass
class PhaseProgress:
    done: int = 0
    total: int = 0
    current: str | None = None
    rate: float | None = None  # files per second over the last minute
    eta_s: float | None = None


@dataclass
class RootProgress:
    path: str
    files: int = 0
    searchable: int = 0  # keyword phase done (or catalogued by name only)
    semantic_done: int = 0
    queued: int = 0
    failed: int = 0


@dataclass
class IndexingProgress:
    """What `indexing_stats` returns (`bridge.to_jsonable` serialises it) and `indexing-progress`
    carries (as `to_dict()`: events are plain dicts). The flat keys (files … paused) are the earlier
    shape, kept so older callers read the same numbers."""

    seq: int
    keyword: PhaseProgress
    semantic: PhaseProgress
    roots: list[RootProgress]
    files: int
    chunks: int
    queued: int
    done: int
    failed: int
    skipped: int
    paused: bool
    current: str | None = None
    removing: list[str] = field(default_factory=list)  # roots whose rows are being purged
    scanning: list[str] = field(default_factory=list)  # roots being (or about to be) scanned

    def to_dict(self) -> dict[str, Any]:
        """The `indexing-progress` event's payload."""
        return asdict(self)


def measure(
    catalog: Any,
    queue: Any,
    roots: list[str],
    tracker: ProgressTracker,
    *,
    paused: bool,
    current: str | None = None,
    removing: list[str] | None = None,
    scanning: list[str] | None = None,
) -> IndexingProgress:
    """The progress model from the catalog and queue tables (and the tracker's live rates): one
    computation for the running indexer and for `sensetree status` reading the database alone."""
    counts = catalog.counts()
    searchable = counts["done"] + counts["skipped"]
    to_add = queue.pending_new()
    per_root = catalog.root_counts()
    return IndexingProgress(
        seq=tracker.next_seq(),
        keyword=tracker.phase("keyword", searchable, searchable + to_add),
        semantic=tracker.phase("semantic", searchable - counts["semantic_pending"], searchable + to_add),
        roots=[
            RootProgress(path=root, queued=queue.pending_under(root), **per_root.get(root, {}))
            for root in roots
        ],
        files=counts["done"] + counts["failed"] + counts["skipped"] + counts["queued"],
        chunks=counts["chunks"],
        queued=queue.pending(),
        done=counts["done"],
        failed=counts["failed"],
        skipped=counts["skipped"],
        paused=paused,
        current=tracker.current["keyword"] or tracker.current["semantic"] or current,
        removing=list(removing or []),
        scanning=list(scanning or []),
    )


class RateMeter:
    """Completions per second over a sliding window, from an injectable clock."""

    def __init__(self, clock: Clock = time.monotonic, window_s: float = RATE_WINDOW_S):
        self.clock, self.window_s = clock, window_s
        self._events: deque[tuple[float, int]] = deque()
        self._started: float | None = None

    def add(self, n: int = 1) -> None:
        now = self.clock()
        if self._started is None:
            self._started = now
        self._events.append((now, n))
        self._trim(now)

    def start(self) -> None:
        """Work began now (the first file's time counts towards the rate)."""
        if self._started is None or not self._events:
            self._started = self.clock()

    def _trim(self, now: float) -> None:
        while self._events and self._events[0][0] < now - self.window_s:
            self._events.popleft()

    def rate(self) -> float | None:
        now = self.clock()
        self._trim(now)
        if not self._events or self._started is None:
            return None
        span = min(self.window_s, now - max(self._started, now - self.window_s))
        if span <= 0:
            return None
        return sum(n for _, n in self._events) / span


def eta(remaining: int, rate: float | None) -> float | None:
    if remaining <= 0:
        return 0.0
    if not rate:
        return None
    return round(remaining / rate, 1)


class ProgressTracker:
    """Live per-phase state the counts in the database cannot give: the current file and the rates."""

    def __init__(self, clock: Clock = time.monotonic):
        self.clock = clock
        self.meters = {phase: RateMeter(clock) for phase in PHASES}
        self.current: dict[str, str | None] = dict.fromkeys(PHASES)
        self._seq = itertools.count(1)
        self._lock = threading.Lock()

    def working(self, phase: str, path: str | None) -> None:
        self.current[phase] = path
        if path is not None:
            self.meters[phase].start()

    def finished(self, phase: str, n: int = 1) -> None:
        if n > 0:
            self.meters[phase].add(n)

    def idle(self) -> None:
        self.current = dict.fromkeys(PHASES)

    def phase(self, name: str, done: int, total: int) -> PhaseProgress:
        rate = self.meters[name].rate()
        return PhaseProgress(
            done=done,
            total=total,
            current=self.current[name],
            rate=None if rate is None else round(rate, 2),
            eta_s=eta(total - done, rate),
        )

    def next_seq(self) -> int:
        with self._lock:
            return next(self._seq)


def _timer(delay: float, fn: Callable[[], None]) -> None:
    timer = threading.Timer(delay, fn)
    timer.daemon = True
    timer.start()


class ProgressPublisher:
    """Throttles `emit(snapshot())` to one call per `interval`; the last change is always delivered."""

    def __init__(
        self,
        snapshot: Callable[[], Any],
        emit: Callable[[Any], None],
        clock: Clock = time.monotonic,
        schedule: Schedule = _timer,
        interval: float = PUBLISH_EVERY_S,
    ):
        self.snapshot, self.emit, self.clock, self.schedule = snapshot, emit, clock, schedule
        self.interval = interval
        self._last = float("-inf")
        self._trailing = False
        self._closed = False
        self._lock = threading.Lock()

    def close(self) -> None:
        """No more sends (the stores behind `snapshot` are closing); a pending trailing send is dropped."""
        with self._lock:
            self._closed = True

    def publish(self) -> None:
        with self._lock:
            if self._closed:
                return
            now = self.clock()
            wait = self._last + self.interval - now
            if wait > 0:
                if not self._trailing:
                    self._trailing = True
                    self.schedule(wait, self._flush)
                return
            self._last = now
        self.emit(self.snapshot())

    def _flush(self) -> None:
        with self._lock:
            self._trailing = False
            if self._closed:
                return
            self._last = self.clock()
        try:  # on a timer thread: an error here must not escape into the void
            self.emit(self.snapshot())
        except Exception:
            log.exception("could not publish indexing progress")
