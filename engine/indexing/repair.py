"""Start-up repair: make the catalog, the keyword store and the vector store agree again.

The catalog vouches for a file's keyword rows once the keyword phase committed (status done), and for
its vectors once the semantic phase committed (`semantic = 'done'`; see indexer.py and semantic.py).
So: store rows of files the catalog does not know are dropped; vectors of a file still `pending` are
dropped (a crash between the vector write and its commit; the semantic phase embeds it again); keyword
rows lost beside complete vectors are refilled from the vectors' texts; vectors lost beside complete
keyword rows (a vector store set aside as damaged, a crash) are embedded again from the keyword rows' text
by the semantic phase, so the file stays searchable by keyword meanwhile (issue 31, N12: purging it
left search empty until a re-index); a catalogued file whose counts disagree otherwise is purged and
re-queued; catalog rows outside every configured root are forgotten.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.indexing.catalog import Catalog, FileStatus
from engine.indexing.pathtext import to_store
from engine.indexing.queue import MANUAL, WorkQueue
from engine.paths import is_within, normalize

if TYPE_CHECKING:
    from engine.indexing.store_sync import Keywords
    from engine.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)


@dataclass
class RepairReport:
    orphans_dropped: list[str] = field(default_factory=list)
    requeued: list[str] = field(default_factory=list)
    keywords_refilled: list[str] = field(default_factory=list)
    outside_roots: list[str] = field(default_factory=list)
    pending_vectors_dropped: list[str] = field(default_factory=list)
    reembedding: list[str] = field(default_factory=list)  # keyword rows whole, vectors embedded again

    @property
    def changed(self) -> bool:
        return bool(
            self.orphans_dropped
            or self.requeued
            or self.outside_roots
            or self.keywords_refilled
            or self.pending_vectors_dropped
            or self.reembedding
        )


def repair(
    catalog: Catalog,
    queue: WorkQueue,
    keywords: Keywords,
    vectors: VectorIndex,
    roots: list[str],
    roots_trusted: bool = True,
) -> RepairReport:
    """`roots_trusted=False` (the settings file could not be read) keeps files outside the roots: the
    person may put their settings back, and an index must not be thrown away over a torn file."""
    report = RepairReport()
    normalized = [normalize(r) for r in roots]
    for path in sorted(catalog.all_paths()) if roots_trusted else []:
        if not any(is_within(path, r) for r in normalized):
            keywords.delete(to_store(path))  # the stores hold the stored spelling (see pathtext)
            vectors.delete(to_store(path))
            with catalog.db.atomic():
                catalog.delete(path)
                queue.drop_under(path)
            report.outside_roots.append(path)
    vouched = catalog.done_chunk_counts()
    embedded = catalog.semantic_chunk_counts()
    keyword_counts = keywords.chunk_counts()
    vector_counts = vectors.chunk_counts()
    for path in sorted((set(keyword_counts) | set(vector_counts)) - set(vouched)):
        keywords.delete(path)
        vectors.delete(path)
        report.orphans_dropped.append(path)
    for path in sorted(set(vector_counts) & (set(vouched) - set(embedded))):
        vectors.delete(path)
        report.pending_vectors_dropped.append(path)
    refill = [p for p, n in embedded.items() if vector_counts.get(p) == n and keyword_counts.get(p) != n]
    report.keywords_refilled = _refill_keywords(refill, embedded, keywords, vectors)
    for path, n in vouched.items():
        if path in report.keywords_refilled:
            continue
        if keyword_counts.get(path) == n and path in embedded and vector_counts.get(path) != n:
            if path in vector_counts:
                vectors.delete(path)
            catalog.mark_semantic_pending(path)
            report.reembedding.append(path)
            continue
        if keyword_counts.get(path) != n or (path in embedded and vector_counts.get(path) != n):
            keywords.delete(path)
            vectors.delete(path)
            with catalog.db.atomic():
                catalog.forget_hash(path)
                catalog.db.execute(
                    f"UPDATE files SET status = '{FileStatus.QUEUED.value}', chunks = 0 WHERE path = ?",
                    (to_store(path),),
                )
                queue.push(path, MANUAL)
            report.requeued.append(path)
    if report.changed:
        log.warning(
            "index repair: %d orphan(s) dropped, %d file(s) re-queued, %d to embed again, "
            "%d keyword rows rebuilt, %d outside roots, %d uncommitted vector sets dropped",
            len(report.orphans_dropped),
            len(report.requeued),
            len(report.reembedding),
            len(report.keywords_refilled),
            len(report.outside_roots),
            len(report.pending_vectors_dropped),
        )
    return report


def _refill_keywords(
    paths: list[str], counts: dict[str, int], keywords: Keywords, vectors: VectorIndex, batch: int = 200
) -> list[str]:
    """Rebuild keyword rows from the chunk texts the vector store keeps: a keyword index lost in a crash
    (or replaced by a new format) costs no re-extraction and no embedding."""
    done: list[str] = []
    for start in range(0, len(paths), batch):
        chunk_paths = paths[start : start + batch]
        texts = vectors.texts([(p, i) for p in chunk_paths for i in range(counts[p])])
        rows: list[tuple[str, list[str]]] = []
        for path in chunk_paths:
            chunks = [texts.get((path, i)) for i in range(counts[path])]
            kept = [t for t in chunks if t is not None]
            if len(kept) == len(chunks):
                rows.append((path, kept))
        keywords.upsert_many(rows)
        done.extend(path for path, _ in rows)
    return done
