"""What the keyword index's read side and write side share: the open file, its cursors and the state
kept in memory between statements (`KeywordIndex` in index.py is composed of `KeywordReading` and
`KeywordWriting`, both built on this).

Writes are serialised by a lock on one writer cursor; reads use a cursor per thread (DuckDB's MVCC
lets them run while a write is in progress). Queries run on one DuckDB thread: they are point reads and
small sums, and the query embedding runs beside them on one torch thread (two cores); bulk inserts use
every core (writing.py).

The file is checkpointed right after opening, with a client, so a WAL replayed after an unclean exit is
folded into the ART indexes (index.py's docstring tells the DuckDB bug this avoids).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path

import duckdb
import numpy as np

from engine.errors import StoreError
from engine.per_thread import PerThread
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.checkpoints import BulkCheckpoints
from engine.retrieval.keyword.chunk_filter import ChunkFilter
from engine.retrieval.keyword.chunk_rows import ChunkRows
from engine.retrieval.keyword.damage import is_damage, store_error
from engine.retrieval.keyword.pending import recover_if_marked
from engine.retrieval.keyword.point import WriteState
from engine.retrieval.keyword.postings_cache import PostingsCache
from engine.retrieval.keyword.query import QueryTermCache
from engine.retrieval.keyword.query_words import TermLookup
from engine.retrieval.keyword.resident_postings import ResidentLoader
from engine.retrieval.keyword.schema import prepare_tables
from engine.retrieval.names import NameIndex
from engine.retrieval.terms import shared_matcher

log = logging.getLogger(__name__)

# Queries are point reads and small sums: one DuckDB thread each, so a search does not fight the query
# embedding (one torch thread) for the two cores; bulk inserts (writing.BULK_ROWS) use them all.
QUERY_THREADS = 1

READER_CURSORS_IDLE = 4  # reader cursors kept for the next threads (HTTP serves a few requests at once)
# Chunk text is stored without FSST. When a commit adds rows to a table with ART indexes, DuckDB 1.5.5
# reads back every column of the 2,048-row vector the new rows start in (DataTable::ScanTableSegment) to
# index them, so a one-file update decoded up to ~2k old chunks' FSST text in its COMMIT: ~1.5 of its ~2
# ms of commit CPU at 100k chunks (a commit whose rows start a fresh vector: 0.3 ms). Without FSST a
# one-file update took 3.5-3.6 ms of CPU against 4.4 (same store built both ways, 100 updates, load 4.5)
# and the bulk build's commits less; the file is ~22 % larger (207 against 170 MB at 100k real chunks).
# The postings' weights are stored without ALP / ALP-RD: BM25 weights are not decimals, so every bulk
# commit's checkpoint tried ALP, fell back to ALP-RD and compressed 4-byte floats to ~3.5 bytes; without
# both the 100k real-text build's commits took 0.69 CPU-s against 1.21-1.27 and the build 6.95 against
# 7.83-8.38 CPU-s (statement-timed, load 4.1-4.3); the file is 6 % larger (220 against 207 MB).
NO_COMPRESSION = "fsst,alp,alprd"


class KeywordBase:
    """The open keyword index: its connection, cursors, write lock and in-memory state."""

    def __init__(self, db_path: Path):
        self.db_path = Path(db_path)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        root, dead = _open(self.db_path)
        self._root = root
        self._write_lock = threading.RLock()
        # readers: one cursor per live thread, pooled when the thread ends (per_thread.py, issue 30)
        self._readers = PerThread(root.cursor, close_cursor, idle=READER_CURSORS_IDLE)
        self._writer = root.cursor()
        self._postings = PostingsCache()  # queried terms' postings in memory (postings_cache.py)
        self._loading = ResidentLoader(self._postings.install)  # and the rarer terms' (resident_postings.py)
        self._rows = ChunkRows()  # the rows of recently found chunks (chunk_rows.py)
        self._filter = ChunkFilter(dead)  # dead ids, scope ids (chunk_filter.py)
        self._writes = 0  # write transactions ended: the generation of the scope ids kept in _filter
        self._after_commit: list[Callable[[], None]] = []
        self._changed_tids: set[int] | None = set()  # this write's terms; None: every weight changed
        self._terms_of = QueryTermCache()  # query -> its terms, ids and reference (keyword_query.py)
        self._words = TermLookup()  # word -> stem, term -> id and df, without SQL (query_words.py)
        self._state = WriteState()  # corpus statistics and term ids between writes (keyword_point.py)
        self._names = NameIndex(shared_matcher().stems)  # path words, filled by the first search (names.py)
        self._checkpoints = BulkCheckpoints(self.db_path)  # bulk writes checkpoint once a run

    def _reader(self) -> duckdb.DuckDBPyConnection:
        return self._readers.get()

    def stemming_connection(self) -> duckdb.DuckDBPyConnection:
        """The connection with the FTS extension and the stop words loaded, for a process that stems
        nothing else (terms.TermMatcher.borrowing; engine/keyword_peek.py)."""
        return self._root

    def open_cursors(self) -> int:
        """Reader cursors open now, live threads' and idle (what the leak test watches)."""
        return self._readers.open_count()


def _open(db_path: Path) -> tuple[duckdb.DuckDBPyConnection, np.ndarray]:
    """The connection, checkpointed and with its tables ready, and the ids of the removed chunks whose
    postings are still stored; a file another process holds raises a StoreError that says so."""
    root = None
    try:
        root = duckdb.connect(str(db_path))
        root.execute(f"SET disabled_compression_methods = '{NO_COMPRESSION}'")  # connect's config is ignored
        root.execute("CHECKPOINT")  # with a client: replayed WAL index changes are bound, then written
        tokenize.install(root)
        root.execute(f"SET threads = {QUERY_THREADS}")
        prepare_tables(root)
        if recover_if_marked(root):
            log.warning(
                "keyword index %s: removed chunks and document frequencies recounted after an unclean exit",
                db_path,
            )
        dead = root.execute("SELECT chunk_id FROM dead").fetchnumpy()["chunk_id"]
    except duckdb.Error as exc:
        if root is not None:
            with contextlib.suppress(duckdb.Error):
                root.close()
        if "lock" in str(exc).lower() and not is_damage(exc):
            raise StoreError(
                "SenseTree is already running and has the index open; a second process cannot use it "
                "at the same time. Use the open SenseTree window (or its `sensetree serve` page), or "
                "quit it first."
            ) from exc
        raise store_error(f"open the keyword index at {db_path}", exc) from exc
    return root, np.asarray(dead, dtype=np.int64)


def close_cursor(cursor: duckdb.DuckDBPyConnection) -> None:
    with contextlib.suppress(duckdb.Error):
        cursor.close()
