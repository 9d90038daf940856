"""The semantic phase: vectors (and model-written senses) for files the keyword phase already made
searchable.

It picks the oldest `semantic = 'pending'` files, embeds the chunk texts the keyword store holds (so
nothing is extracted twice), and writes in this order: vectors (and, with a model-written sense, the
file's keyword rows), then the catalog's `semantic = 'done'` in one transaction. A crash before that
commit leaves vectors for a file the catalog calls pending: start-up repair drops them and the file is
embedded again.

The model runs outside the indexer's lock, in slices of the embedder's batch size, checking
`should_stop()` between slices: Pause, Remove and Quit wait at most one slice, and an interrupted batch
writes nothing (its files stay pending). A file moved, changed or removed while it was being embedded
is left to its own next visit: the write is re-checked against the catalog under the lock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.embed import Embedder
from engine.indexing.catalog import PENDING, FileRecord, FileStatus
from engine.indexing.file_hash import file_hash
from engine.indexing.indexer import Indexer
from engine.indexing.pathtext import printable, to_store
from engine.indexing.prepared import IndexOptions, embed_inputs
from engine.indexing.queue import MANUAL

log = logging.getLogger(__name__)

BATCH_FILES = 64  # files per batch: enough chunks (~120) for length-sorted model batches with little padding
BATCH_CHUNKS = 256


@dataclass
class _Pending:
    record: FileRecord
    stored: list[str]
    inputs: list[str]
    sense_changed: bool


class SemanticPhase:
    def __init__(self, indexer: Indexer):
        self.indexer = indexer

    def run_batch(self, should_stop: Callable[[], bool] = lambda: False) -> int:
        """Embed one batch of pending files; returns how many got their vectors (0: none pending, or
        the batch was interrupted)."""
        ix = self.indexer
        with ix.lock:
            records = ix.catalog.semantic_pending(BATCH_FILES)
            if not records:
                return 0
            records = _within_chunks(records, BATCH_CHUNKS)
            texts = ix.keywords.texts([to_store(r.path) for r in records])
            embedder, shadow = ix.embedder, ix.shadow
        items = [item for item in (self._inputs(r, texts) for r in records) if item is not None]
        if not items:
            return 0
        ix.tracker.working("semantic", printable(items[0].record.path))
        inputs = [text for item in items for text in item.inputs]
        vectors = embed_interruptibly(embedder, inputs, should_stop)
        mirrored = (
            embed_interruptibly(shadow.embedder, inputs, should_stop)
            if shadow is not None and vectors is not None
            else None
        )
        if vectors is None or (shadow is not None and mirrored is None):
            return 0
        with ix.lock:
            if ix.embedder is not embedder:  # a model switch completed meanwhile: embed again later
                return 0
            written = self._write(items, vectors, mirrored if ix.shadow is shadow else None)
        ix.tracker.finished("semantic", written)
        ix.changed()
        return written

    def _inputs(self, record: FileRecord, texts: dict[tuple[str, int], str]) -> _Pending | None:
        """The file's embedding inputs, from its keyword rows (or freshly read with a model's sense)."""
        ix = self.indexer
        stored = [texts.get((to_store(record.path), i)) for i in range(record.chunks)]
        opts = ix.options()
        if opts.complete is not None and not record.pinned and record.status == FileStatus.DONE:
            fresh = self._with_model_sense(record, opts)
            if fresh is not None:
                return fresh
        if any(t is None for t in stored):  # keyword rows lost: the keyword phase writes them again
            self._requeue(record)
            return None
        clean = [t for t in stored if t is not None]
        return _Pending(record, clean, embed_inputs(record.name, record.sense or "", clean), False)

    def _with_model_sense(self, record: FileRecord, opts: IndexOptions) -> _Pending | None:
        """Ask the reasoning model for the sense (slow, so after the file is already searchable)."""
        ix = self.indexer
        try:
            if file_hash(record.path) != record.hash:
                self._requeue(record)
                return None
            extracted = ix._extract(record.path, record.size or 0, opts)
            extracted = ix.ocr.with_ocr(record.path, record.hash or "", extracted, opts.max_chars)
            extracted = ix.media.with_media(record.path, record.hash or "", extracted, opts.media)
            sense, _doc_type, stored = ix.chunks_for(record.path, extracted, opts, None, opts.complete)
        except Exception as exc:  # the extractive sense stays; the vectors still come
            log.warning("no model-written sense for %s: %s", printable(record.path), exc)
            return None
        changed = sense != (record.sense or "")
        record = _with_sense(record, sense, len(stored))
        return _Pending(record, stored, embed_inputs(record.name, sense, stored), changed)

    def _requeue(self, record: FileRecord) -> None:
        ix = self.indexer
        with ix.lock, ix.db.atomic():
            ix.catalog.forget_hash(record.path)
            ix.queue.push(record.path, MANUAL)

    def _write(self, items: list[_Pending], vectors: np.ndarray, mirrored: np.ndarray | None) -> int:
        ix = self.indexer
        rows: list[tuple[str, list[str], np.ndarray]] = []
        mirror_rows: list[tuple[str, list[str], np.ndarray]] = []
        resensed: list[tuple[str, list[str]]] = []
        keep: list[_Pending] = []
        start = 0
        for item in items:
            end = start + len(item.inputs)
            now = ix.catalog.get(item.record.path)
            if now is not None and now.semantic == PENDING and now.hash == item.record.hash:
                key = to_store(item.record.path)
                rows.append((key, item.stored, vectors[start:end]))
                if mirrored is not None:
                    mirror_rows.append((key, item.stored, mirrored[start:end]))
                if item.sense_changed:
                    resensed.append((key, item.stored))
                keep.append(item)
            start = end
        if not keep:
            return 0
        ix.vectors.upsert_many(rows)
        if mirror_rows and ix.shadow is not None:
            ix.shadow.vectors.upsert_many(mirror_rows)
            ix.shadow.written.update(item.record.path for item in keep)
        if resensed:
            ix.keywords.upsert_many(resensed)
        with ix.db.atomic():
            for item in keep:
                if item.sense_changed:
                    ix.catalog.set_sense(item.record.path, item.record.sense, pinned=False)
                    ix.db.execute(
                        "UPDATE files SET chunks = ? WHERE path = ?",
                        (len(item.stored), to_store(item.record.path)),
                    )
                ix.catalog.mark_semantic_done(item.record.path, ix.embedder.name)
        return len(keep)


def embed_interruptibly(
    embedder: Embedder, inputs: list[str], should_stop: Callable[[], bool]
) -> np.ndarray | None:
    """Embed length-sorted slices of the embedder's batch size (one call when it has none), checking
    `should_stop()` before each; None when stopped."""
    size = int(getattr(embedder, "batch_size", 0) or 0) or len(inputs)
    order = sorted(range(len(inputs)), key=lambda i: len(inputs[i]))
    out: np.ndarray | None = None
    for begin in range(0, len(order), max(size, 1)):
        if should_stop():
            return None
        idx = order[begin : begin + size]
        got = np.asarray(embedder.embed([inputs[i] for i in idx]), dtype=np.float32)
        if out is None:
            out = np.zeros((len(inputs), got.shape[1]), np.float32)
        out[idx] = got
    return out if out is not None else np.zeros((0, getattr(embedder, "dim", 1)), np.float32)


def _within_chunks(records: list[FileRecord], limit: int) -> list[FileRecord]:
    """The leading records whose chunks fit `limit` (always at least one)."""
    kept: list[FileRecord] = []
    total = 0
    for record in records:
        if kept and total + record.chunks > limit:
            break
        kept.append(record)
        total += record.chunks
    return kept


def _with_sense(record: FileRecord, sense: str, chunks: int) -> FileRecord:
    from dataclasses import replace

    return replace(record, sense=sense, chunks=chunks)
