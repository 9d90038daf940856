"""Start-up repair: make the catalog, the keyword store and the vector store agree again.

The catalog vouches for a file only after both stores were written (see indexer's write order). So:
store rows the catalog does not vouch for are dropped; a catalogued file whose chunk counts disagree in
either store is purged and re-queued; catalog rows outside every configured root are forgotten.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from engine.indexing.catalog import Catalog
from engine.indexing.queue import MANUAL, WorkQueue
from engine.paths import is_within, normalize

log = logging.getLogger(__name__)


@dataclass
class RepairReport:
    orphans_dropped: list[str] = field(default_factory=list)
    requeued: list[str] = field(default_factory=list)
    outside_roots: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.orphans_dropped or self.requeued or self.outside_roots)


def repair(catalog: Catalog, queue: WorkQueue, keywords, vectors, roots: list[str]) -> RepairReport:
    report = RepairReport()
    normalized = [normalize(r) for r in roots]
    for path in sorted(catalog.all_paths()):
        if not any(is_within(path, r) for r in normalized):
            keywords.delete(path)
            vectors.delete(path)
            with catalog.db.atomic():
                catalog.delete(path)
                queue.drop_under(path)
            report.outside_roots.append(path)
    vouched = catalog.done_chunk_counts()
    keyword_counts = keywords.chunk_counts()
    vector_counts = vectors.chunk_counts()
    for path in sorted((set(keyword_counts) | set(vector_counts)) - set(vouched)):
        keywords.delete(path)
        vectors.delete(path)
        report.orphans_dropped.append(path)
    for path, n in vouched.items():
        if keyword_counts.get(path) != n or vector_counts.get(path) != n:
            keywords.delete(path)
            vectors.delete(path)
            with catalog.db.atomic():
                catalog.forget_hash(path)
                catalog.db.execute("UPDATE files SET status = 'queued', chunks = 0 WHERE path = ?", (path,))
                queue.push(path, MANUAL)
            report.requeued.append(path)
    if report.changed:
        log.warning("index repair: %d orphan(s) dropped, %d file(s) re-queued, %d outside roots",
                    len(report.orphans_dropped), len(report.requeued), len(report.outside_roots))
    return report
