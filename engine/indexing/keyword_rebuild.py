"""Refill a fresh keyword index from the vector store while the app runs (the rebuilder `KeywordStore`
starts after it set a damaged file aside).

The start-up repair refills keywords before anything else runs; this one runs beside the worker, the
watcher and plan applies, so it works in batches under the indexer's lock and reads each batch's catalog
rows inside it: a file that is re-indexed, moved or deleted meanwhile is either written by its own job
after the batch (newer, and kept) or seen by the batch as it is then, never half of each.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.indexing.catalog import SEARCHABLE
from engine.indexing.indexer import Indexer
from engine.indexing.repair import _refill_keywords

if TYPE_CHECKING:
    from engine.indexing.store_sync import Keywords

log = logging.getLogger(__name__)

BATCH = 200


def rebuild_keywords(
    indexer: Indexer, keywords: Keywords, should_stop: Callable[[], bool] = lambda: False
) -> int:
    """Write the chunk texts of every catalogued file into `keywords`; returns how many files it refilled.
    Files whose vector rows are incomplete are left to the next start's repair (it re-queues them)."""
    paths = sorted(indexer.catalog.done_chunk_counts())
    refilled = 0
    for start in range(0, len(paths), BATCH):
        if should_stop():
            log.info("keyword rebuild stopped after %d of %d file(s)", refilled, len(paths))
            break
        with indexer.lock:
            counts: dict[str, int] = {}
            for path in paths[start : start + BATCH]:
                record = indexer.catalog.get(path)
                if record is not None and record.status in SEARCHABLE:
                    counts[path] = record.chunks
            refilled += len(_refill_keywords(list(counts), counts, keywords, indexer.vectors))
    return refilled
