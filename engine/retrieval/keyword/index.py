"""The keyword half of search: BM25 over chunk text in DuckDB, updated incrementally.

DuckDB's own `create_fts_index` is static (a 15 s rebuild to see one change), so we keep impact
postings ourselves: `postings(tid, chunk_id, tf, w)` with the BM25 weight `w` precomputed,
`terms(term, tid, df)` and `chunks(id, path, chunk_index, len, text)`. A query is `WHERE tid IN (...)
GROUP BY chunk ORDER BY sum(w)`: DESIGN §4 measured p50 9 ms over 8.6M postings with string terms,
and integer term ids halve the cost of that filter (measured here). Tokens come from
`tokenize.py` (DuckDB FTS's own pipeline) and weights use the extension's formulas (k1 1.2, b 0.75,
idf log((N − df + .5)/(df + .5) + 1)), so scores equal `match_bm25` on the same corpus.

New rows are weighted with the statistics current when they arrive; older weights drift as N, df
and the average length move. `stale_ratio()` says how much has changed since the last
`refresh_weights()`, which rewrites every weight in one statement (and re-sorts postings by term so
DuckDB's zone maps prune the scan). The engine calls it in the background.

The chunk text is kept here as well as in the vector store so a search returns the text of its hits
for snippets in the same query (fetching it from LanceDB afterwards cost ~5 ms a search at 100k
chunks); ART indexes make a query's term and chunk lookups point reads instead of table scans.

`KeywordIndex` is composed of its read side (`reading.py`: search, query terms, path words, texts,
counts) and its write side (`writing.py`: upsert, delete, rename, refresh, transactions), both built on
`base.py` (the open file, its cursors and in-memory state); the tables are in `schema.py`. The SQL of
inserting and removing chunks in bulk is in `writes.py` (a batch is split and counted before its
transaction, `batch.py`); small writes (a file, a flush of a few files) are planned in `point.py`
(docs/keyword-writes.md). A removed chunk's postings stay until `refresh_weights()`, masked out of
queries meanwhile (`chunk_filter.py`), so an update never scans the postings table. Queries run on one
DuckDB thread: they are point reads and small sums, and the query embedding runs beside them on one torch
thread (two cores); bulk inserts use every core.

Writes are serialised by a lock on one writer cursor; reads use a cursor per thread (DuckDB's MVCC
lets them run while a write is in progress).

**Unclean exits.** DuckDB 1.5.5 replays a WAL's index changes into *unbound* ART indexes and applies them
only when a client binds the index. The checkpoint a plain `close()` runs has no client, so it wrote the
pre-crash ART back to the file with the WAL's rows missing from it (duckdb/duckdb#23788, PR #23848): from
then on the rows are in the tables but not in the indexes, term lookups miss them and the first delete of
one is `FATAL Error: Failed to delete all rows from index`. So the index runs `CHECKPOINT` itself, with a
client, right after opening (folding any replayed WAL into the indexes and the file) and before closing
(the shutdown checkpoint then has nothing left to write). Format 4 empties indexes written before this,
which may already hold such a stale ART; the start-up repair refills them. Errors that mean the file is
damaged (fatal, internal, corruption, an unreadable file) raise `StoreDamaged`, which `keyword_store`
answers by setting the file aside and rebuilding.
"""

from __future__ import annotations

import contextlib
import logging

import duckdb

from engine.errors import StoreError
from engine.retrieval.keyword.base import QUERY_THREADS, READER_CURSORS_IDLE, close_cursor
from engine.retrieval.keyword.point import POINT_ROWS
from engine.retrieval.keyword.reading import KeywordReading
from engine.retrieval.keyword.schema import FORMAT
from engine.retrieval.keyword.writing import BULK_ROWS, POINT_FILES, KeywordWriting

__all__ = [
    "BULK_ROWS",
    "FORMAT",
    "POINT_FILES",
    "POINT_ROWS",
    "QUERY_THREADS",
    "READER_CURSORS_IDLE",
    "KeywordIndex",
]

log = logging.getLogger(__name__)


class KeywordIndex(KeywordWriting, KeywordReading):
    """BM25 keyword search over chunks keyed by (path, chunk_index); see the module docstring."""

    def close(self) -> None:
        """Write what point writes left in memory, checkpoint (so the next open replays no WAL) and close;
        a damaged file still closes (and the next open recovers what was unwritten, pending_writes.py)."""
        self._loading.stop()  # the background read of the postings (resident_postings.py)
        with self._write_lock:
            try:
                if self._state.pending.has_committed():
                    with self._transaction("write the keyword index's pending changes") as cur:
                        self._state.pending.write(cur)
            except StoreError as exc:
                log.warning("keyword index %s: pending changes left for the next open: %s", self.db_path, exc)
            try:
                self._writer.execute("CHECKPOINT")
            except duckdb.Error as exc:
                log.warning("keyword index %s: no checkpoint at close: %s", self.db_path, exc)
            self._readers.close()
            close_cursor(self._writer)
            with contextlib.suppress(duckdb.Error):
                self._root.close()
