"""Switching the embedding model without losing search while it happens.

The old vector index keeps serving searches while a new one is filled beside it. Every write the
indexer makes meanwhile (new files, moves, deletions) is mirrored into the new index (the *shadow*),
and a backfill copies the rest: chunk texts come from the old index and senses from the catalog, so
nothing is re-extracted or re-qualified. Only when the new index is complete is it swapped in and the
old one deleted. `ACTIVE` in the vectors folder names the index in force, so a crash mid-way resumes.
"""

from __future__ import annotations

import json
import logging
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.embed import Embedder
from engine.events import INDEXING_PROGRESS, EventBus
from engine.indexing.prepared import embed_inputs
from engine.indexing.shadow import Shadow

if TYPE_CHECKING:
    from engine.indexing.catalog import Catalog
    from engine.indexing.indexer import Indexer
    from engine.retrieval.hybrid import HybridSearch
    from engine.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)

BACKFILL_FILES = 16


def slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:80]


def read_active(vectors_dir: Path) -> str | None:
    try:
        name: str | None = json.loads((vectors_dir / "ACTIVE").read_text(encoding="utf-8"))["embedder"]
        return name
    except (OSError, ValueError, KeyError):
        return None


def write_active(vectors_dir: Path, embedder_name: str) -> None:
    vectors_dir.mkdir(parents=True, exist_ok=True)
    tmp = vectors_dir / "ACTIVE.tmp"
    tmp.write_text(json.dumps({"embedder": embedder_name}), encoding="utf-8")
    tmp.replace(vectors_dir / "ACTIVE")


class Reembedder:
    def __init__(
        self,
        indexer: Indexer,
        search: HybridSearch,
        catalog: Catalog,
        vectors_dir: Path,
        events: EventBus,
        open_vectors: Callable[[Embedder], VectorIndex],
    ):
        self.indexer, self.search, self.catalog = indexer, search, catalog
        self.vectors_dir, self.events, self.open_vectors = vectors_dir, events, open_vectors
        self.progress: dict[str, object] | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self, new: Embedder, *, background: bool = True) -> None:
        """Begin filling an index for `new`; searches keep using the current one until it is complete."""
        self.stop()
        self._stop.clear()
        with self.indexer.lock:
            self.indexer.shadow = Shadow(new, self.open_vectors(new), set())
        if background:
            self._thread = threading.Thread(target=self.run, name="sensetree-reembed", daemon=True)
            self._thread.start()
        else:
            self.run()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(60)
            self._thread = None

    def run(self) -> None:
        shadow = self.indexer.shadow
        if shadow is None:
            return
        try:
            self._backfill(shadow)
            if not self._stop.is_set():
                self._swap(shadow)
        except Exception:
            log.exception(
                "re-embedding with %s failed; the previous index stays in use", shadow.embedder.name
            )
            self.progress = {"model": shadow.embedder.name, "error": "re-embedding failed; see the log"}

    def _backfill(self, shadow: Shadow) -> None:
        paths = sorted(self.catalog.done_chunk_counts())
        total = len(paths)
        for start in range(0, total, BACKFILL_FILES):
            if self._stop.is_set():
                return
            with self.indexer.lock:  # nothing moves or changes under us while a batch is copied
                batch = [p for p in paths[start : start + BACKFILL_FILES] if p not in shadow.written]
                self._copy(batch, shadow)
            self.progress = {
                "model": shadow.embedder.name,
                "done": min(start + BACKFILL_FILES, total),
                "total": total,
            }
            self.events.publish(INDEXING_PROGRESS, {"reembedding": self.progress})

    def _copy(self, paths: list[str], shadow: Shadow) -> None:
        records = [r for r in (self.catalog.get(p) for p in paths) if r is not None]
        stored = self.indexer.vectors.texts([(r.path, i) for r in records for i in range(r.chunks)])
        rows: list[tuple[str, list[str], np.ndarray]] = []
        for record in records:
            path = record.path
            found = [stored.get((path, i)) for i in range(record.chunks)]
            texts = [t for t in found if t is not None]
            if len(texts) != len(found):
                continue  # the repair pass re-indexes files whose rows are incomplete
            rows.append(
                (path, texts, shadow.embedder.embed(embed_inputs(record.name, record.sense or "", texts)))
            )
        if rows:
            shadow.vectors.upsert_many(rows)

    def _swap(self, shadow: Shadow) -> None:
        with self.indexer.lock:
            old = self.indexer.vectors
            self.indexer.vectors, self.indexer.embedder, self.indexer.shadow = (
                shadow.vectors,
                shadow.embedder,
                None,
            )
            self.search.vectors, self.search.embedder = shadow.vectors, shadow.embedder
            write_active(self.vectors_dir, shadow.embedder.name)
        old_dir = getattr(old, "directory", None)
        if hasattr(old, "close"):
            old.close()
        if old_dir is not None and Path(old_dir) != Path(getattr(shadow.vectors, "directory", "")):
            shutil.rmtree(old_dir, ignore_errors=True)
        self.progress = {"model": shadow.embedder.name, "done": True}
        self.events.publish(INDEXING_PROGRESS, {"reembedding": self.progress})
        log.info("search now uses %s", shadow.embedder.name)
