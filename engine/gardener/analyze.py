"""`Gardener.analyze(folder)`: every check over one folder, as a `FolderReport`.

The Gardener only reads — the catalog, the stored vectors and the folder listing — and never changes
anything: a fix is a draft plan the person reviews (engine/gardener/fixes.py).

A pass over a big tree is dominated by the vector-based checks (near-duplicates, versions, misplaced
files). Their findings depend only on the catalog rows and the vectors stored for them, so they are
kept per folder with the catalog's digest (engine/gardener/inputs.py) and reused while it is unchanged;
the listing, the names, the stale-file check and the exact duplicates are read afresh every time (the
disk can change without the catalog, and staleness moves with the clock). `timings` keeps how long
each step of the last analysis took, for bench/gardener.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from engine import native_memory
from engine.config import GardenerSettings
from engine.gardener import duplicates, layout, misplaced, names, stale
from engine.gardener.inputs import (
    FileInfo,
    LeadVectors,
    bodies,
    read_catalog,
    with_vectors,
    without_vectors,
)
from engine.gardener.model import Finding, FolderReport, pending_note, summarise
from engine.indexing.catalog import Catalog
from engine.roots import Roots

Memo = tuple[tuple[object, ...], list[Finding]]


class Gardener:
    def __init__(
        self,
        catalog: Catalog,
        vectors: Callable[[], LeadVectors],
        roots: Roots,
        settings: Callable[[], GardenerSettings],
        now: Callable[[], float] = time.time,
    ):
        self._catalog, self._vectors, self._roots = catalog, vectors, roots
        self._settings, self._now = settings, now
        self._memo: dict[str, Memo] = {}
        self._lock = threading.Lock()
        self.timings: dict[str, float] = {}  # seconds per step of the last analysis ("reused": 1.0 if so)

    def analyze(self, folder: str) -> FolderReport:
        """All findings under `folder` (which must lie inside an indexed root)."""
        target = self._roots.require(folder)
        s = self._settings()
        timings: dict[str, float] = {}
        with _timed(timings, "listing"):
            tree = layout.read_tree(self._roots, target, s.max_entries)
        with _timed(timings, "catalog"):
            catalogued = read_catalog(self._catalog, target, s.max_entries)
            files = without_vectors(catalogued.files)
        with _timed(timings, "exact"):
            exact = duplicates.exact_duplicates(files)
        key = (catalogued.digest, s.near_duplicate_cosine, s.misplaced_margin, s.misplaced_min_cosine)
        with self._lock:
            memo = self._memo.get(target)
        if memo is not None and memo[0] == key:
            similar = memo[1]
            timings["reused"] = 1.0
        else:
            similar = self._similar(catalogued.files, target, exact, s, timings)
            with self._lock:
                self._memo[target] = (key, similar)
            # the comparison's vectors, texts and pairs (hundreds of MB on a big template series) are
            # freed now: handed back to the system at once, not whenever an indexing batch next trims
            # (bench/serve_memory.py: kept +25 % after the Tidy view's first analysis, returned minutes later)
            native_memory.trim(now=True)
        findings: list[Finding] = [*exact, *similar]
        with _timed(timings, "names"):
            findings += names.unhelpful_names(files, lambda chosen: bodies(chosen, self._vectors()))
        with _timed(timings, "stale"):
            findings += stale.stale_large(files, s.large_file_mb, s.stale_days, self._now())
        with _timed(timings, "clutter"):
            findings += layout.clutter(tree, s.clutter_files)
        with _timed(timings, "empty"):
            findings += layout.empty_folders(tree, self._roots)
        with _timed(timings, "depth"):
            findings += layout.too_deep(tree, s.max_depth)
        self.timings = timings
        severity, headline, counts = summarise(findings)
        return FolderReport(
            target,
            severity,
            headline,
            counts,
            findings,
            self._now(),
            len(files.files),
            tree.truncated,
            pending_note(catalogued.waiting),
        )

    def _similar(
        self,
        files: list[FileInfo],
        target: str,
        exact: list[Finding],
        s: GardenerSettings,
        timings: dict[str, float],
    ) -> list[Finding]:
        """Near-duplicates, versions and misplaced files, from the stored vectors."""
        store = self._vectors()
        with _timed(timings, "vectors"):
            inputs = with_vectors(files, store, target)
        copies = {p for f in exact for p in f.paths if p != f.keep}
        with _timed(timings, "near"):
            found = duplicates.similar_groups(
                inputs, s.near_duplicate_cosine, copies, lambda chosen: bodies(chosen, store)
            )
        with _timed(timings, "misplaced"):
            copies |= {p for f in found for p in f.paths if p != f.keep}  # to the trash, not moved
            found += misplaced.misplaced(inputs, s.misplaced_margin, s.misplaced_min_cosine, copies)
        return found


@contextmanager
def _timed(timings: dict[str, float], step: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        timings[step] = timings.get(step, 0.0) + time.perf_counter() - started
