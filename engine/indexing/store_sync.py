"""The indexer's sync side: the three stores (catalog, keyword rows, vectors) kept in step with the disk
when files move, vanish, come back or get a corrected sense, without reading or embedding anything.
This is the IndexSync protocol the action executor calls (txn/sync.py), and what the watcher and a
removed root use too. The keyword phase (indexer.py) builds on it: a file it finds gone is `deleted`
here, under the same lock, so a move can never interleave with the same file being written.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from engine.db import Database
from engine.indexing.catalog import Catalog
from engine.indexing.crawl import is_skipped
from engine.indexing.media_phase import MediaStore
from engine.indexing.ocr_phase import OcrStore
from engine.indexing.pathtext import is_text, to_store
from engine.indexing.queue import MANUAL, WorkQueue
from engine.indexing.rename_sense import follow_rename
from engine.paths import find_root, is_within

if TYPE_CHECKING:
    from engine.indexing.shadow import Shadow
    from engine.retrieval.keyword.healing import KeywordStore
    from engine.retrieval.keyword.index import KeywordIndex
    from engine.retrieval.vectors import VectorIndex

    # The keyword rows: the self-healing store in the app, a bare index in some tests and benches.
    Keywords: TypeAlias = KeywordIndex | KeywordStore


def _rename_many(store: Keywords | VectorIndex, pairs: list[tuple[str, str]]) -> None:
    """One batched rename where the store offers it, else one call per pair."""
    many = getattr(store, "rename_many", None)
    if many is not None:
        many(pairs)
    else:
        for old, new in pairs:
            store.rename(old, new)


class StoreSync:
    """Moves, deletions, senses and queueing over the three stores; one lock serialises them with the
    keyword phase's writes."""

    def __init__(
        self,
        db: Database,
        catalog: Catalog,
        queue: WorkQueue,
        keywords: Keywords,
        vectors: VectorIndex,
        roots: Callable[[], list[str]],
        ocr: OcrStore | None = None,
        media: MediaStore | None = None,
    ):
        self.db, self.catalog, self.queue = db, catalog, queue
        self.keywords, self.vectors = keywords, vectors
        self.roots = roots
        self.ocr = ocr if ocr is not None else OcrStore(db)  # scanned pages' text (ocr_phase.py)
        self.media = media if media is not None else MediaStore(db)  # captions, transcripts (media_phase.py)
        # One file is processed, moved or dropped at a time, so a move seen by the watcher or applied by
        # a plan can never interleave with the same file being written by the worker.
        self.lock = threading.RLock()
        self.shadow: Shadow | None = None  # a Shadow (shadow.py) while the embedding model is being switched
        self.changed: Callable[[], None] = lambda: None  # the worker publishes progress from here

    def drop_vectors(self, stored_paths: list[str]) -> None:
        """Remove these files' vector rows in one write per index (an empty upsert replaces them)."""
        empty = np.zeros((0, 1), np.float32)
        self.vectors.upsert_many([(p, [], empty) for p in stored_paths])
        if self.shadow is not None:
            self.shadow.vectors.upsert_many([(p, [], empty) for p in stored_paths])

    @contextlib.contextmanager
    def quiesced(self) -> Iterator[None]:
        """Hold the worker while a plan's files move and its index sync runs, then publish progress
        once: a send measured in the middle of the sync (a file back from the trash not catalogued yet)
        must not be the last the page hears while the worker is idle."""
        try:
            with self.lock:
                yield
        finally:
            self.changed()

    def moved(self, old: str, new: str) -> None:
        """`old` (a file or a folder) now lives at `new`: rewrite paths everywhere, embed nothing."""
        if old == new:
            return
        with self.lock:
            self._moved(old, new)
        self.changed()  # counts on the page follow a plan's moves at once

    def _moved(self, old: str, new: str) -> None:
        if not self.catalog.under(old, limit=1):
            if os.path.isfile(new) and find_root(new, self.roots()):
                self.enqueue(new, MANUAL)
            return
        if self.catalog.under(new, limit=1):
            self.deleted(new)  # whatever was recorded at the destination is gone now
        new_root = find_root(new, self.roots())
        if new_root is None or not is_text(new):  # out of every root, or to a name we cannot index
            self.deleted(old)
            if new_root is not None and os.path.isfile(new):
                self.enqueue(new, MANUAL)  # recorded failed with its reason
            return
        self.vectors.rename(to_store(old), to_store(new))
        self.keywords.rename(to_store(old), to_store(new))
        if self.shadow is not None:
            self.shadow.vectors.rename(to_store(old), to_store(new))
            self.shadow.rebase_written(old, new)
        with self.db.atomic():
            self.catalog.rename(old, new, new_root)
            follow_rename(self.catalog, old, new)
            self.queue.drop_deletions_under(new)  # before old's own jobs (true deletions) move there
            self.queue.rename(old, new)
            self.ocr.rename(old, new)
            self.media.rename(old, new)

    def moved_many(self, pairs: list[tuple[str, str]]) -> None:
        """Several independent moves (no pair touches another's paths) as one update per store."""
        with self.lock:
            roots = self.roots()
            simple: list[tuple[str, str, str]] = []
            for old, new in pairs:
                new_root = find_root(new, roots)
                if old == new:
                    continue
                if (
                    new_root is None
                    or not is_text(new)
                    or not self.catalog.under(old, limit=1)
                    or self.catalog.under(new, limit=1)
                ):
                    self._moved(old, new)  # the unusual cases keep their one-by-one handling
                else:
                    simple.append((old, new, new_root))
            if not simple:
                return
            renames = [(old, new) for old, new, _ in simple]
            stored = [(to_store(old), to_store(new)) for old, new in renames]
            _rename_many(self.vectors, stored)
            _rename_many(self.keywords, stored)
            if self.shadow is not None:
                _rename_many(self.shadow.vectors, stored)
                for old, new in renames:
                    self.shadow.rebase_written(old, new)
            with self.db.atomic():
                for old, new, new_root in simple:
                    self.catalog.rename(old, new, new_root)
                    follow_rename(self.catalog, old, new)
                    self.queue.drop_deletions_under(new)
                    self.queue.rename(old, new)
                    self.ocr.rename(old, new)
                    self.media.rename(old, new)

    def deleted(self, path: str) -> None:
        with self.lock:
            self.vectors.delete(to_store(path))
            self.keywords.delete(to_store(path))
            if self.shadow is not None:
                self.shadow.vectors.delete(to_store(path))
            with self.db.atomic():
                self.catalog.delete(path)
                self.queue.drop_under(path)
        self.changed()

    def sense_of(self, path: str) -> tuple[str | None, bool] | None:
        record = self.catalog.get(path)
        return (record.sense, record.pinned) if record else None

    def pin_sense(self, path: str, sense: str) -> None:
        root = find_root(path, self.roots()) or os.path.dirname(path)
        with self.db.atomic():
            self.catalog.ensure(path, root)
            self.catalog.set_sense(path, sense.strip(), pinned=True)
            self.catalog.forget_hash(path)
            self.queue.push(path, MANUAL)

    def restore_sense(self, path: str, sense: str | None, pinned: bool) -> None:
        with self.db.atomic():
            self.catalog.set_sense(path, sense, pinned=pinned)
            self.catalog.forget_hash(path)
            self.queue.push(path, MANUAL)

    def enqueue(self, path: str, priority: int) -> None:
        """Queue `path`, and catalogue a file inside a root at once (status queued, in the same write):
        a file an undo brings back from the trash then counts among the files the moment the undo
        returns, not only once it is read again (the sidebar read 173 of 174 files meanwhile)."""
        root = find_root(path, self.roots())
        with self.db.atomic():
            if root is not None and os.path.isfile(path) and is_text(path) and not is_skipped(path, root):
                self.catalog.ensure(path, root)
            self.queue.push(path, priority)

    # ---- roots --------------------------------------------------------------------------------
    def purge_root(self, root: str) -> None:
        """Forget a removed root: rows and vectors of every file beneath it (other roots inside stay)."""
        keep = [r for r in self.roots() if r != root and is_within(r, root)]
        if keep:
            for record in self.catalog.under(root):
                if not any(is_within(record.path, k) for k in keep):
                    self.deleted(record.path)
            return
        self.deleted(root)
