"""Re-scan a root: compare what is on disk with the catalog and queue only the difference.

An unchanged folder costs one stat per file and no reads (size and mtime match the catalog), which is
what keeps a re-scan of 10k files within seconds. Files that disappeared are queued for deletion.
A crawl never wipes the attempts of a pending job (a file that killed the process last time is still
on its count), and paths the OS refuses to open (deeper than PATH_MAX) are recorded failed with the
reason, so nothing under a root disappears from view without a word. Tool folders (node_modules, a
virtualenv, .git…) are listed as one entry each (descriptors.py), compared by the folder's own stat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.errors import NotFound
from engine.indexing.catalog import Catalog
from engine.indexing.crawl import FileEntry, crawl
from engine.indexing.descriptors import is_tool_folder
from engine.indexing.queue import CRAWL, DELETION, WorkQueue

BATCH = 500


@dataclass
class ScanReport:
    root: str
    seen: int = 0
    queued: int = 0
    removed: int = 0
    stopped: bool = False
    unavailable: str | None = None  # the root could not be read (an unplugged drive): nothing was removed
    refused: list[tuple[str, str]] = field(default_factory=list)  # (path, reason) recorded failed
    unqueued: list[tuple[str, str]] = field(default_factory=list)  # (path, reason) the database refused


def scan_root(
    root: str, catalog: Catalog, queue: WorkQueue, should_stop: Callable[[], bool] = lambda: False
) -> ScanReport:
    known = catalog.stat_map(root)
    report = ScanReport(root)
    batch: list[str] = []

    def refuse(path: str, reason: str) -> None:
        known.pop(path, None)
        with catalog.db.atomic():
            queue.refuse(path, CRAWL, reason)
            catalog.record_failure(path, root, reason, final=True)
        report.refused.append((path, reason))

    try:
        for entry in crawl(root, on_refused=refuse, blocks=is_tool_folder):
            if _visit(entry, known, report, batch, should_stop, queue):
                break
    except NotFound as exc:
        report.unavailable = exc.message
        return report  # never mistake a missing drive for every file being deleted
    _flush(batch, queue, report)
    if not report.stopped and known:
        queue.push_many(sorted(known), DELETION, action="delete")
        report.removed = len(known)
    return report


def _flush(batch: list[str], queue: WorkQueue, report: ScanReport) -> None:
    if batch:
        report.unqueued += queue.push_many(batch, CRAWL, fresh=False)
        report.queued += len(batch)
        batch.clear()


def _visit(
    entry: FileEntry,
    known: dict[str, tuple[int | None, float | None, str]],
    report: ScanReport,
    batch: list[str],
    should_stop: Callable[[], bool],
    queue: WorkQueue,
) -> bool:
    """Account for one file on disk; returns True when the scan must stop."""
    if should_stop():
        report.stopped = True
        return True
    report.seen += 1
    previous = known.pop(entry.path, None)
    if previous is not None and previous[0] == entry.size and previous[1] == entry.mtime:
        return False  # unchanged (including permanent failures: they wait for a person's Retry)
    batch.append(entry.path)
    if len(batch) >= BATCH:
        _flush(batch, queue, report)
    return False
