"""The rows (path, chunk index, text) of recently found chunks, kept until the next write.

A keyword query ends with one statement that reads its k winners back by id (reading.py). Measured on two
cores (bench/serve_latency.py's folder and a 20k-chunk index of real text, issue 30): that statement cost
1.2-1.6 ms of CPU whatever the table's size (`id IN (…50 literals…)`; a bound list parameter 6 ms), the
largest single part of a keyword-only query through `serve` (~3.5 ms). Queries typed one after another
("inv", "invo", "invoice") find mostly the same chunks, so a chunk's row is kept once read and a query
whose winners are all kept runs no statement at all.

Staleness is ruled out as the postings cache does it (postings_cache.py): the rows are kept for one write
generation (KeywordIndex.generation: every write transaction that ends moves it, renames included), rows
read at an older generation than the current one are never stored, and the first lookup at a newer
generation forgets every row. Memory is bounded by KEPT_ROWS (the oldest half goes when it fills).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

Row = tuple[str, int, str]  # path, chunk index, text
KEPT_ROWS = 4096  # ~4 MB of ~1 KB chunk texts: a few hundred queries' winners


class ChunkRows:
    """Chunk id → its row, for one write generation (module docstring)."""

    def __init__(self, kept: int = KEPT_ROWS):
        self._kept = kept
        self._lock = threading.Lock()
        self._rows: dict[int, Row] = {}
        self._generation = -1

    def get_many(self, ids: Iterable[int], generation: int) -> dict[int, Row]:
        """The kept rows of `ids` read at `generation` (none once a write has ended since)."""
        with self._lock:
            if generation != self._generation:
                if generation > self._generation:
                    self._rows, self._generation = {}, generation
                return {}
            rows = self._rows
            return {chunk_id: rows[chunk_id] for chunk_id in ids if chunk_id in rows}

    def put_many(self, rows: dict[int, Row], generation: int) -> None:
        """Keep rows read at `generation`, unless a write has ended since (then they may be stale)."""
        with self._lock:
            if generation > self._generation:
                self._rows, self._generation = {}, generation
            if generation != self._generation:
                return
            if len(self._rows) + len(rows) > self._kept:
                for old in list(self._rows)[: max(len(self._rows) // 2, len(rows))]:
                    del self._rows[old]
            self._rows.update(rows)
