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

The SQL of inserting and removing chunks in bulk is in `keyword_writes.py` (a batch is split and counted
before its transaction, `keyword_batch.py`); small writes (a file, a flush of a few files) are planned in
`keyword_point.py` (docs/keyword-writes.md). A removed chunk's postings
stay until `refresh_weights()`, masked out of queries meanwhile (`chunk_filter.py`), so an update never
scans the postings table. Queries run on one DuckDB thread: they are point reads and small sums, and the query
embedding runs beside them on one torch thread (two cores); bulk inserts use every core.

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
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa

from engine.errors import StoreError
from engine.paths import subtree_range
from engine.per_thread import PerThread
from engine.retrieval.fusion import ChunkKey, Hit, scope_prefix
from engine.retrieval.keyword import point as keyword_point
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.batch import staged
from engine.retrieval.keyword.change_count import changed_sql, ensure_mark, marked_now_sql
from engine.retrieval.keyword.chunk_filter import ChunkFilter
from engine.retrieval.keyword.damage import is_damage, store_error
from engine.retrieval.keyword.pending import ensure_marker, recover_if_marked
from engine.retrieval.keyword.point import POINT_ROWS, WriteState
from engine.retrieval.keyword.postings_cache import PostingsCache, compact_ids, split_by_term, top_k
from engine.retrieval.keyword.query import (
    NO_TERMS,
    KeywordAnswer,
    QueryTermCache,
    QueryTerms,
    read_query_terms,
)
from engine.retrieval.keyword.query_words import TermLookup
from engine.retrieval.keyword.writes import (
    corpus_stats,
    insert_rows,
    live_df_sql,
    remove_rows,
    reweighted_postings_sql,
)
from engine.retrieval.names import NameIndex
from engine.retrieval.sql_literal import sql_string
from engine.retrieval.terms import shared_matcher

log = logging.getLogger(__name__)


# Bumped whenever tokenisation or the tables change: an index of another format is emptied at open,
# and the engine's start-up repair refills it from the chunk texts the vector store keeps (no embedding).
# 4: written with a checkpoint after opening (format 3 files may hold an ART that lost a WAL's rows).
# 5: single letters are indexed and query stop words dropped (tokenize.STOPWORDS).
FORMAT = 5.0

# Point lookups a query makes: its few terms among all terms, and its top chunks' paths among all chunks.
# Without these DuckDB scans both tables for every query (docs/search-latency.md has the figures).
_TERMS_INDEX = "CREATE INDEX IF NOT EXISTS terms_by_term ON terms(term)"
_CHUNKS_INDEX = "CREATE INDEX IF NOT EXISTS chunks_by_id ON chunks(id)"
# A one-file update finds the file's chunks by path (a scan of every path cost 5 ms at 100k chunks).
_PATHS_INDEX = "CREATE INDEX IF NOT EXISTS chunks_by_path ON chunks(path)"

_TABLES = ("chunks", "postings", "terms", "meta", "dead")

READER_CURSORS_IDLE = 4  # reader cursors kept for the next threads (HTTP serves a few requests at once)

_SCHEMA = [
    "CREATE SEQUENCE IF NOT EXISTS chunk_id_seq",
    "CREATE SEQUENCE IF NOT EXISTS term_id_seq",
    "CREATE TABLE IF NOT EXISTS chunks "
    "(id BIGINT, path VARCHAR, chunk_index INTEGER, len INTEGER, text VARCHAR)",
    "CREATE TABLE IF NOT EXISTS postings (tid INTEGER, chunk_id BIGINT, tf INTEGER, w FLOAT)",
    "CREATE TABLE IF NOT EXISTS terms (term VARCHAR, tid INTEGER, df BIGINT)",
    "CREATE TABLE IF NOT EXISTS meta (key VARCHAR, value DOUBLE)",
    # removed chunks whose postings are still in `postings` until refresh_weights (chunk_filter.py)
    "CREATE TABLE IF NOT EXISTS dead (chunk_id BIGINT)",
    _TERMS_INDEX,
    _CHUNKS_INDEX,
    _PATHS_INDEX,
]

# Queries are point reads and small sums: one DuckDB thread each, so a search does not fight the query
# embedding (one torch thread) for the two cores; bulk inserts of at least BULK_ROWS chunks use them all.
QUERY_THREADS = 1
BULK_ROWS = 5_000
# An upsert of at most this many files (and fewer than POINT_ROWS chunks) is a point write (keyword_point.py).
# More files (a keyword-phase group) take the bulk SQL path: its work runs inside DuckDB without the GIL,
# so the indexer's read-ahead thread keeps extracting meanwhile, where the point path tokenises in Python.
# 1,000 files: keyword-searchable 1.26x extraction alone with bulk groups, 1.38x with point groups.
POINT_FILES = 4


class KeywordIndex:
    """BM25 keyword search over chunks keyed by (path, chunk_index); see the module docstring."""

    def __init__(self, db_path: Path):
        self.db_path = Path(db_path)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        root = None
        try:
            root = duckdb.connect(str(self.db_path))
            root.execute("CHECKPOINT")  # with a client: replayed WAL index changes are bound, then written
            tokenize.install(root)
            root.execute(f"SET threads = {QUERY_THREADS}")
            self._root = root
            self._prepare_tables()
            if recover_if_marked(root):
                log.warning(
                    "keyword index %s: removed chunks and document frequencies recounted after an "
                    "unclean exit",
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
            raise store_error(f"open the keyword index at {self.db_path}", exc) from exc
        self._write_lock = threading.RLock()
        # readers: one cursor per live thread, pooled when the thread ends (per_thread.py, issue 30)
        self._readers = PerThread(root.cursor, _close_cursor, idle=READER_CURSORS_IDLE)
        self._writer = root.cursor()
        self._postings = PostingsCache()  # queried terms' postings in memory (postings_cache.py)
        self._filter = ChunkFilter(np.asarray(dead, dtype=np.int64))  # dead ids, scope ids (chunk_filter.py)
        self._writes = 0  # write transactions ended: the generation of the scope ids kept in _filter
        self._after_commit: list[Callable[[], None]] = []
        self._changed_tids: set[int] | None = set()  # this write's terms; None: every weight changed
        self._terms_of = QueryTermCache()  # query -> its terms, ids and reference (keyword_query.py)
        self._words = TermLookup()  # word -> stem, term -> id and df, without SQL (query_words.py)
        self._state = WriteState()  # corpus statistics and term ids between writes (keyword_point.py)
        self._names = NameIndex(shared_matcher().stems)  # path words, filled by the first search (names.py)

    # ---- connections -------------------------------------------------------------------------

    def _reader(self) -> duckdb.DuckDBPyConnection:
        return self._readers.get()

    def open_cursors(self) -> int:
        """Reader cursors open now, live threads' and idle (what the leak test watches)."""
        return self._readers.open_count()

    def close(self) -> None:
        """Write what point writes left in memory, checkpoint (so the next open replays no WAL) and close;
        a damaged file still closes (and the next open recovers what was unwritten, pending_writes.py)."""
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
            _close_cursor(self._writer)
            with contextlib.suppress(duckdb.Error):
                self._root.close()

    def _prepare_tables(self) -> None:
        """Create the tables; an index written in another format is dropped first (recreated empty)."""
        existing = {
            row[0]
            for row in self._root.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
            ).fetchall()
        }
        stored = None
        if "meta" in existing:
            row = self._root.execute("SELECT max(value) FROM meta WHERE key = 'format'").fetchone()
            stored = row[0] if row else None
        if stored != FORMAT and existing & set(_TABLES):
            log.warning(
                "keyword index format %s replaced by %s; it is rebuilt from the stored chunks", stored, FORMAT
            )
            for table in _TABLES:
                if table in existing:
                    self._root.execute(f"DROP TABLE {table}")
        for statement in _SCHEMA:
            self._root.execute(statement)
        if stored != FORMAT:
            self._root.execute("DELETE FROM meta WHERE key = 'format'")
            self._root.execute("INSERT INTO meta VALUES ('format', ?)", [FORMAT])
        ensure_mark(self._root)  # what stale_ratio counts from (change_count.py)
        ensure_marker(self._root)

    # ---- writes ------------------------------------------------------------------------------

    def upsert(self, path: str, chunks: Sequence[str]) -> None:
        """Replace the chunks of one file; they are searchable when this returns."""
        self.upsert_many([(path, chunks)])

    def upsert_many(self, files: Iterable[tuple[str, Sequence[str]]]) -> None:
        """Replace the chunks of several files in one transaction (bulk loads, benchmarks)."""
        paths, indexes, texts = [], [], []
        replaced: list[str] = []
        kept: list[str] = []
        for path, chunks in files:
            replaced.append(path)
            if chunks:
                kept.append(path)
            for i, text in enumerate(chunks):
                paths.append(path)
                indexes.append(i)
                texts.append(text)
        if len(paths) < POINT_ROWS and len(replaced) <= POINT_FILES:
            with self._transaction("update the keyword index") as cur:
                self._name_change(lambda names: names.replace(replaced, kept))
                self._point_replace(cur, replaced, list(zip(paths, indexes, texts, strict=True)))
            return
        incoming = pa.table(
            {
                "path": pa.array(paths, pa.string()),
                "chunk_index": pa.array(indexes, pa.int32()),
                "text": pa.array(texts, pa.string()),
            }
        )
        # the batch is split and counted before the transaction begins (keyword_batch.py says why)
        with self._write_lock, self._all_threads(self._writer, incoming.num_rows), self._staged(incoming):
            with self._transaction("update the keyword index") as cur:
                self._name_change(lambda names: names.replace(replaced, kept))
                if replaced:
                    # The replaced paths travel as Arrow, not a list parameter (10k strings took seconds)
                    cur.register("replaced", pa.table({"path": pa.array(replaced, pa.string())}))
                    try:
                        self._remove(cur, "path IN (SELECT path FROM replaced)", [])
                    finally:
                        cur.unregister("replaced")
                if incoming.num_rows:
                    self._insert(cur, incoming.num_rows)

    def delete(self, path: str) -> None:
        """Remove a file, or a folder and everything beneath it (segment-exact)."""
        with self._transaction(f"remove {path} from the keyword index") as cur:
            self._name_change(lambda names: names.remove([path], subtrees=True))
            self._point(cur, "path = ? OR starts_with(path, ?)", [path, scope_prefix(path)], [])

    def rename(self, old: str, new: str) -> None:
        """Point a file's or folder's chunks at their new path; postings stay as they are."""
        self.rename_many([(old, new)])

    def rename_many(self, pairs: Sequence[tuple[str, str]]) -> None:
        """Several independent renames in one transaction; whatever sat at a target is replaced, and
        targets are cleared only where rows exist."""
        with self._transaction("rename files in the keyword index") as cur:
            occupied = {
                row[0]
                for row in cur.execute(
                    "SELECT DISTINCT t FROM unnest(?) AS u(t) JOIN chunks c "
                    "ON c.path = t OR starts_with(c.path, t || '/')",
                    [[new for _, new in pairs]],
                ).fetchall()
            }
            self._name_change(lambda names: _rename_names(names, pairs, occupied))
            for old, new in pairs:
                if new in occupied:
                    self._point(cur, "path = ? OR starts_with(path, ?)", [new, scope_prefix(new)], [])
                cur.execute(
                    "UPDATE chunks SET path = ? || substr(path, ?) WHERE path = ? OR starts_with(path, ?)",
                    [new, len(old) + 1, old, scope_prefix(old)],
                )

    def refresh_weights(self) -> None:
        """Recompute df and every weight from the current corpus, and re-sort postings by term. Runs on
        every core (on one it took three times the CPU). The join with `chunks` drops the postings of
        removed chunks, so they need no DELETE of their own."""
        with self._transaction("refresh keyword weights") as cur, self._all_threads(cur):
            self._state.pending.write(cur)  # `dead` complete for the live counts below
            n, avgdl = corpus_stats(cur)
            # before `terms` is rebuilt: see reweighted_postings_sql for the plan that order avoids
            cur.execute(f"CREATE TABLE postings_fresh AS {reweighted_postings_sql(n, avgdl)}")
            cur.execute(f"""
                CREATE OR REPLACE TABLE terms AS
                SELECT t.term, t.tid, n.df FROM terms t JOIN ({live_df_sql()}) n USING (tid)
                ORDER BY t.term""")
            cur.execute(_TERMS_INDEX)
            cur.execute("DROP TABLE postings")
            cur.execute("ALTER TABLE postings_fresh RENAME TO postings")
            cur.execute("DELETE FROM dead")
            self._after_commit.append(self._filter.compacted)
            for statement in marked_now_sql():
                cur.execute(statement)
            self._state.pending.recounted(cur)
            self._changed_tids = None
            self._state.forget()  # terms whose df fell to 0 are gone

    @contextmanager
    def _transaction(self, what: str) -> Iterator[duckdb.DuckDBPyConnection]:
        """A write transaction; once it has ended, the postings cache forgets the terms it changed."""
        with self._write_lock:  # held until the cache is told, so no other write's terms mix in
            committed = False
            try:
                with _Transaction(self, what) as cur:
                    yield cur
                committed = True
            finally:
                if not committed:
                    self._state.forget()  # it may hold this transaction's statistics and term ids
                changed, self._changed_tids = self._changed_tids, set()
                after, self._after_commit = self._after_commit, []
                self._writes += 1
                if committed:
                    for action in after:
                        action()
                if changed is None or changed:
                    self._postings.changed(changed)

    @contextmanager
    def _all_threads(self, cur: duckdb.DuckDBPyConnection, rows: int | None = None) -> Iterator[None]:
        """Every core for a bulk statement (at least BULK_ROWS rows, or always when `rows` is None)."""
        bulk = rows is None or rows >= BULK_ROWS
        if bulk:
            cur.execute(f"SET threads = {max(os.cpu_count() or 1, QUERY_THREADS)}")
        try:
            yield
        finally:
            if bulk:
                cur.execute(f"SET threads = {QUERY_THREADS}")

    @contextmanager
    def _staged(self, incoming: pa.Table) -> Iterator[None]:
        """The batch split and counted on the writer cursor outside a transaction (keyword_batch.py)."""
        if not incoming.num_rows:
            yield
            return
        try:
            with staged(self._writer, incoming):
                yield
        except duckdb.Error as exc:
            raise store_error(f"prepare a batch for the keyword index ({self.db_path})", exc) from exc

    def _insert(self, cur: duckdb.DuckDBPyConnection, rows: int) -> None:
        """Add the staged batch in bulk SQL (keyword_writes.insert_rows), which reads `terms.df`."""
        self._state.pending.write(cur)
        changed = insert_rows(cur, rows)
        self._state.forget()  # SQL added terms and chunks behind the dictionary's back
        self._changed(changed)

    def _remove(self, cur: duckdb.DuckDBPyConnection, where: str, params: list[object]) -> None:
        """Remove the chunks `where` selects in bulk SQL; their ids are masked from the commit on."""
        self._state.pending.write(cur)
        ids = remove_rows(cur, where, params)
        self._state.forget()
        self._bury(ids)

    def _point(
        self,
        cur: duckdb.DuckDBPyConnection,
        where: str | None,
        params: list[object],
        incoming: Sequence[tuple[str, int, str]],
    ) -> None:
        """Remove what `where` selects and add `incoming` in a few statements (keyword_point.py)."""
        if self._state.pending.wants_writing():
            self._state.pending.write(cur)
        done = keyword_point.write(cur, where, params, incoming, self._state)
        self._bury(done.removed)
        self._changed(done.changed)

    def _point_replace(
        self, cur: duckdb.DuckDBPyConnection, replaced: list[str], incoming: list[tuple[str, int, str]]
    ) -> None:
        """`_point` for an upsert of a few files: their old chunks are found through the path index."""
        if not replaced:
            self._point(cur, None, [], incoming)
            return
        if len(replaced) == 1:
            # a literal, not a bound parameter: each statement with parameters costs the client a failed
            # pandas import (find_spec over sys.path), ~0.4 ms of a one-file update's CPU
            self._point(cur, f"path = {sql_string(replaced[0])}", [], incoming)
            return
        # as SQL string literals: binding one parameter per path cost ~0.3 ms each (28 ms for 83 paths)
        literals = ", ".join(sql_string(path) for path in replaced)
        self._point(cur, f"path IN ({literals})", [], incoming)

    def _bury(self, ids: np.ndarray) -> None:
        if len(ids):
            self._after_commit.append(lambda: self._filter.bury(ids))

    def _name_change(self, change: Callable[[NameIndex], None]) -> None:
        """Apply `change` to the path words once this write commits (none kept yet: the fill reads it)."""
        names = self._names
        if names.filled:
            self._after_commit.append(lambda: change(names))

    def name_scores(self, terms: frozenset[str], scope: str | None = None) -> dict[str, float]:
        """path -> its name score for these stemmed query terms (names.py)."""
        return self._filled_names().scores(terms, scope)

    def folders(self, scope: str | None = None) -> list[str]:
        """The folders that tell indexed files apart (names.NameIndex.folders; folder_names.py)."""
        return self._filled_names().folders(scope)

    def beneath(self, scores: dict[str, float], scope: str | None = None) -> dict[str, float]:
        """path -> the best score of the folders above it (names.NameIndex.beneath)."""
        return self._filled_names().beneath(scores, scope)

    def _filled_names(self) -> NameIndex:
        """The path words; the first call reads every indexed path, under the write lock so no write
        falls between the read and the hooks."""
        if not self._names.filled:
            with self._write_lock:
                if not self._names.filled:
                    try:
                        rows = self._reader().execute("SELECT DISTINCT path FROM chunks").fetchall()
                    except duckdb.Error as exc:
                        raise store_error("read the indexed paths for name search", exc) from exc
                    self._names.fill(row[0] for row in rows)
        return self._names

    def _changed(self, tids: np.ndarray) -> None:
        if self._changed_tids is not None:
            self._changed_tids.update(tids.tolist())

    # ---- reads -------------------------------------------------------------------------------

    def search(self, query: str, k: int = 50, scope: str | None = None) -> list[Hit]:
        """The k best chunks for `query` by BM25, optionally only under the folder (or file) `scope`."""
        return self.search_with_text(query, k, scope)[0]

    def search_with_text(
        self, query: str, k: int = 50, scope: str | None = None
    ) -> tuple[list[Hit], dict[ChunkKey, str]]:
        """`search`, plus the text of every hit."""
        answer = self.answer(query, k, scope)
        return answer.hits, answer.texts

    def answer(self, query: str, k: int = 50, scope: str | None = None) -> KeywordAnswer:
        """The k best chunks with their text, and the query's terms and reference score (what hybrid
        search fuses and marks in snippets). The sum and top-k run over the terms' postings in memory
        (postings_cache.py); only the k winners are read back, with their text, for snippets."""
        cur = self._reader()
        try:
            terms = self._query_terms(cur, query)
            hits, texts = self._best(cur, list(terms.tids), k, scope)
        except duckdb.Error as exc:
            raise store_error(f"search the keyword index for {query[:80]!r}", exc) from exc
        return KeywordAnswer(hits, texts, terms)

    def _best(
        self, cur: duckdb.DuckDBPyConnection, tids: list[int], k: int, scope: str | None
    ) -> tuple[list[Hit], dict[ChunkKey, str]]:
        if not tids or k <= 0:
            return [], {}
        postings = self._term_postings(cur, tids)
        inside = None if scope is None else self._scope_ids(cur, scope)
        best = top_k(postings, k, self._filter.scope_mask(inside), self._filter.dead)
        if not best:
            return [], {}
        rows = self._winners(cur, [chunk_id for chunk_id, _ in best])
        hits, texts = [], {}
        for chunk_id, score in best:
            if chunk_id in rows:  # a chunk removed since its postings were read is skipped
                path, index, text = rows[chunk_id]
                hit = Hit(path, int(index), score)
                hits.append(hit)
                texts[hit.key] = text or ""
        return hits, texts

    @staticmethod
    def _winners(cur: duckdb.DuckDBPyConnection, ids: list[int]) -> dict[int, tuple[str, int, str]]:
        """Chunk id -> (path, chunk index, text) of the top-k's chunks (a removed one is absent)."""
        wanted = ", ".join(str(chunk_id) for chunk_id in ids)  # integers from our own table
        sql = f"SELECT id, path, chunk_index, text FROM chunks WHERE id IN ({wanted})"
        return {row[0]: row[1:] for row in cur.execute(sql).fetchall()}

    def _term_postings(
        self, cur: duckdb.DuckDBPyConnection, tids: list[int]
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Each term's (chunk ids, impacts): from the cache, the rest in one read (then cached)."""
        read_at = self._postings.generation()
        found = self._postings.get_many(tids)
        missing = [tid for tid in tids if tid not in found]
        if missing:
            got = cur.execute(postings_sql(missing)).fetchnumpy()
            fetched = split_by_term(
                np.asarray(got["tid"]),
                compact_ids(np.asarray(got["chunk_id"], dtype=np.int64)),
                np.asarray(got["w"], dtype=np.float32),
            )
            for tid in missing:
                entry = fetched.get(tid, (np.zeros(0, np.int64), np.zeros(0, np.float32)))
                self._postings.put(tid, entry, read_at)
                found[tid] = entry
        return [found[tid] for tid in tids]

    def _scope_ids(self, cur: duckdb.DuckDBPyConnection, scope: str) -> np.ndarray:
        """The chunk ids under `scope`, sorted: kept from an earlier query if no write ended since."""
        generation = self._writes
        inside = self._filter.scope_ids(scope, generation)
        if inside is None:
            inside = self._filter.keep_scope(scope, generation, self._chunk_ids_under(cur, scope))
        return inside

    @staticmethod
    def _chunk_ids_under(cur: duckdb.DuckDBPyConnection, scope: str) -> np.ndarray:
        """The ids of the chunks in `scope` (the file, or the folder and everything beneath it)."""
        low, high = subtree_range(scope)
        got = cur.execute(
            "SELECT id FROM chunks WHERE path = ? OR (path >= ? AND path < ?)", [scope, low, high]
        ).fetchnumpy()
        return np.asarray(got["id"], dtype=np.int64)

    def query_terms(self, query: str) -> QueryTerms:
        """The query's stemmed terms, their ids and its reference score, read in one statement and kept
        until the next write (keyword_query.py)."""
        try:
            return self._query_terms(self._reader(), query)
        except duckdb.Error as exc:
            raise store_error(f"read the terms of {query[:80]!r} from the keyword index", exc) from exc

    def _query_terms(self, cur: duckdb.DuckDBPyConnection, query: str) -> QueryTerms:
        if not query.strip():
            return NO_TERMS
        generation = self._writes
        known = self._terms_of.get(query, generation)
        if known is None:
            pending = self._state.pending
            with pending.lock:  # the df the table lacks, of the commit its statement reads
                unwritten = pending.committed_df
                known = self._words.query_terms(cur, query, generation, unwritten) or read_query_terms(
                    cur, query, unwritten
                )
            self._terms_of.put(query, generation, known)
        return known

    def query_reference(self, query: str) -> float:
        """The BM25 score of a chunk that holds each of the query's terms once at average length: the sum
        of their idfs, a term absent from the corpus counting at df 0. Dividing a hit's score by it gives
        a keyword score on a scale that means the same on any collection (1 = every term matched once;
        words the corpus lacks pull it down), which fusion and the relevance floor need (fusion.py).
        0 when the query has no terms."""
        return self.query_terms(query).reference

    def _read(self, what: str, sql: str) -> list[tuple]:
        try:
            return self._reader().execute(sql).fetchall()
        except duckdb.Error as exc:
            raise store_error(what, exc) from exc

    def texts(self, paths: Sequence[str]) -> dict[ChunkKey, str]:
        """Every stored chunk text of these files (the semantic phase embeds what the keyword phase
        stored, so nothing is extracted twice)."""
        if not paths:
            return {}
        cur = self._reader()
        try:
            rows = cur.execute(
                "SELECT path, chunk_index, text FROM chunks WHERE path IN (SELECT unnest(?))", [list(paths)]
            ).fetchall()
        except duckdb.Error as exc:
            raise store_error("read chunk text from the keyword index", exc) from exc
        return {(path, int(index)): text or "" for path, index, text in rows}

    def chunk_counts(self) -> dict[str, int]:
        rows = self._read(
            "count the keyword index's chunks", "SELECT path, count(*) FROM chunks GROUP BY path"
        )
        return {path: int(n) for path, n in rows}

    def stale_ratio(self) -> float:
        """Chunks added or removed since the last refresh, over the chunks indexed now (0 when fresh)."""
        pending = self._state.pending
        self._reader()  # made before taking the lock: close() takes the cursor lock, then this one
        with pending.lock:  # removed ids still in memory count as well (pending_writes.py)
            changed, total, mark = self._read("read the keyword index's statistics", changed_sql())[0]
            dead = pending.committed_dead()
        changed = int(changed or 0) + int(dead.size) + int(np.count_nonzero(dead > (mark or 0)))
        return float(changed) / max(int(total or 0), 1)

    def document_frequencies(self) -> dict[str, int]:
        """Every term's df as queries see it: the table's plus the committed changes it does not hold yet
        (pending_writes.py). For checks and benchmarks; a query reads only its own terms'."""
        pending = self._state.pending
        self._reader()  # made before the lock, as in stale_ratio
        with pending.lock:
            rows = self._read("read the keyword index's terms", "SELECT term, tid, df FROM terms")
            return {term: int(df) + pending.committed_df(int(tid)) for term, tid, df in rows}

    def stats(self) -> dict[str, float]:
        rows = self._read(
            "read the keyword index's statistics",
            "SELECT count(*), coalesce(sum(len), 0), (SELECT count(*) FROM postings) FROM chunks",
        )
        n, total_len, postings = rows[0]
        return {"chunks": int(n), "total_len": int(total_len), "postings": int(postings)}


class _Transaction:
    """`with index._transaction(what) as cur:` — the write lock, BEGIN/COMMIT, rollback + StoreError."""

    def __init__(self, index: KeywordIndex, what: str):
        self._index = index
        self._what = what

    def __enter__(self) -> duckdb.DuckDBPyConnection:
        self._index._write_lock.acquire()
        self._index._writer.execute("BEGIN TRANSACTION")
        return self._index._writer

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        writer = self._index._writer
        pending = self._index._state.pending
        try:
            if exc_type is None:
                try:
                    with pending.lock:  # readers see the table and the changes it lacks of one commit
                        writer.execute("COMMIT")
                        pending.committed()
                    return
                except duckdb.Error as commit_error:
                    exc = commit_error
            pending.rolled_back()
            try:
                writer.execute("ROLLBACK")
            except (
                duckdb.Error
            ) as rollback_error:  # a fatal error invalidates the database: nothing to roll back
                log.debug("keyword index rollback failed: %s", rollback_error)
            if isinstance(exc, duckdb.Error):
                raise store_error(f"{self._what} ({self._index.db_path})", exc) from exc
        finally:
            self._index._write_lock.release()


def postings_sql(tids: Sequence[int]) -> str:
    """The postings of these terms, as one equality scan per term. `tid IN (...)` reads every row group
    between the smallest and the largest id (DuckDB prunes an IN list by its min and max only): a query's
    terms lie far apart in the term-sorted table, so three terms read 374k rows for 1k postings at 100k
    chunks, ~10 ms; `tid = x` prunes to the term's own row groups (~1.6 ms for the same reads)."""
    return " UNION ALL ".join(f"SELECT tid, chunk_id, w FROM postings WHERE tid = {int(tid)}" for tid in tids)


def _close_cursor(cursor: duckdb.DuckDBPyConnection) -> None:
    with contextlib.suppress(duckdb.Error):
        cursor.close()


def _rename_names(names: NameIndex, pairs: Sequence[tuple[str, str]], occupied: set[str]) -> None:
    """rename_many's effect on the path words: an occupied target is replaced, then each pair moves."""
    names.remove([new for _, new in pairs if new in occupied], subtrees=True)
    for old, new in pairs:
        names.rename(old, new)
