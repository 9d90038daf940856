"""The keyword index's write side: upsert, delete, rename and the weight refresh, each one transaction.

A write of a few files is planned in Python (`point.py`, docs/keyword-writes.md); a larger batch is split
and counted before its transaction (`batch.py`) and inserted or removed by the bulk SQL of `writes.py`.
New rows are weighted with the statistics current when they arrive; `refresh_weights()` rewrites every
weight and re-sorts postings by term. A removed chunk's postings stay until then, masked out of queries
meanwhile (`chunk_filter.py`), so an update never scans the postings table. Once a transaction ends, the
postings cache forgets the terms it changed and the hooks it queued (dead ids, path words) run.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import duckdb
import numpy as np

from engine.free_cores import free_cores
from engine.retrieval.fusion import scope_prefix
from engine.retrieval.keyword import batch as keyword_batch
from engine.retrieval.keyword import point as keyword_point
from engine.retrieval.keyword.base import QUERY_THREADS, KeywordBase
from engine.retrieval.keyword.batch import StagedBatch
from engine.retrieval.keyword.change_count import marked_now_sql
from engine.retrieval.keyword.damage import store_error
from engine.retrieval.keyword.point import POINT_ROWS
from engine.retrieval.keyword.schema import TERMS_INDEX
from engine.retrieval.keyword.writes import (
    corpus_stats,
    insert_rows,
    live_df_sql,
    remove_rows,
    reweighted_postings_sql,
)
from engine.retrieval.names import NameIndex
from engine.retrieval.sql_literal import sql_string

if TYPE_CHECKING:
    import pyarrow as pa

log = logging.getLogger(__name__)

# Bulk statements of at least this many chunks run on every core (queries on QUERY_THREADS).
BULK_ROWS = 5_000
# An upsert of at most this many files (and fewer than POINT_ROWS chunks) is a point write (keyword_point.py).
# More files (a keyword-phase group) take the bulk SQL path: its work runs inside DuckDB without the GIL,
# so the indexer's read-ahead thread keeps extracting meanwhile, where the point path tokenises in Python.
# 1,000 files: keyword-searchable 1.26x extraction alone with bulk groups, 1.38x with point groups.
POINT_FILES = 4
# A write that changed more terms than this makes the postings cache forget every term: telling it each
# of a 50k-chunk batch's ~110k terms one by one cost 0.23 CPU-s per batch (real text), a clear ~nothing.
FORGET_ALL_TERMS = 20_000


class KeywordWriting(KeywordBase):
    """The writes of `KeywordIndex` (module docstring)."""

    def upsert(self, path: str, chunks: Sequence[str]) -> None:
        """Replace the chunks of one file; they are searchable when this returns."""
        self.upsert_many([(path, chunks)])

    def upsert_many(self, files: Iterable[tuple[str, Sequence[str]]]) -> None:
        """Replace the chunks of several files in one transaction (bulk loads, benchmarks)."""
        import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

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
        with (
            self._write_lock,
            self._all_threads(self._writer, incoming.num_rows) as cores,
            self._checkpoints.deferred(self._writer, incoming.num_rows),
        ):
            batch = self._stage(incoming, cores) if incoming.num_rows else None
            with self._transaction("update the keyword index") as cur:
                self._name_change(lambda names: names.replace(replaced, kept))
                if replaced:
                    # The replaced paths travel as Arrow, not a list parameter (10k strings took seconds)
                    cur.register("replaced", pa.table({"path": pa.array(replaced, pa.string())}))
                    try:
                        self._remove(cur, "path IN (SELECT path FROM replaced)", [])
                    finally:
                        cur.unregister("replaced")
                if batch is not None:
                    self._insert(cur, batch)

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
        """Recompute df and every weight from the current corpus, and re-sort postings by term. Runs on the
        free cores: at 100k real chunks, quiet, two threads took 0.97 s (1.56-1.61 CPU-s), one 1.40-1.48 s
        (1.33-1.38 CPU-s; issue 30, session 9). The join with `chunks` drops the postings of
        removed chunks, so they need no DELETE of their own. It ends a run of bulk writes: one checkpoint
        after it writes what they and it left (checkpoints.py)."""
        with (
            self._write_lock,
            self._checkpoints.settled(self._writer),
            self._transaction("refresh keyword weights") as cur,
            self._all_threads(cur),
        ):
            self._state.pending.write(cur)  # `dead` complete for the live counts below
            n, avgdl = corpus_stats(cur)
            # before `terms` is rebuilt: see reweighted_postings_sql for the plan that order avoids
            cur.execute(f"CREATE TABLE postings_fresh AS {reweighted_postings_sql(n, avgdl)}")
            cur.execute(f"""
                CREATE OR REPLACE TABLE terms AS
                SELECT t.term, t.tid, n.df FROM terms t JOIN ({live_df_sql()}) n USING (tid)
                ORDER BY t.term""")
            cur.execute(TERMS_INDEX)
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
            try:
                self._state.rows.register(self._writer)  # outside any transaction (point_rows.py)
            except duckdb.Error as exc:
                raise store_error(f"{what} ({self.db_path})", exc) from exc
            committed = False
            try:
                with _Transaction(self, what) as cur:
                    yield cur
                committed = True
            finally:
                if not committed:
                    self._state.forget()  # it may hold this transaction's statistics and term ids
                changed, self._changed_tids = self._changed_tids, set()
                if changed is not None and len(changed) > FORGET_ALL_TERMS:
                    changed = None  # a bulk batch's terms: forget them all at once
                after, self._after_commit = self._after_commit, []
                self._writes += 1
                if committed:
                    for action in after:
                        action()
                if changed is None or changed:
                    self._postings.changed(changed)

    @contextmanager
    def _all_threads(self, cur: duckdb.DuckDBPyConnection, rows: int | None = None) -> Iterator[int]:
        """Every free core for a bulk statement (at least BULK_ROWS rows, or always when `rows` is None),
        yielding how many: the cores other processes leave free (free_cores.py says why not all)."""
        bulk = rows is None or rows >= BULK_ROWS
        cores = max(free_cores(), QUERY_THREADS) if bulk else QUERY_THREADS
        if bulk:
            cur.execute(f"SET threads = {cores}")
        try:
            yield cores
        finally:
            if bulk:
                cur.execute(f"SET threads = {QUERY_THREADS}")

    def _stage(self, incoming: pa.Table, cores: int) -> StagedBatch:
        """The batch split on the writer cursor outside a transaction, on `cores` threads (batch.py)."""
        try:
            return keyword_batch.stage(self._writer, incoming, cores)
        except duckdb.Error as exc:
            raise store_error(f"prepare a batch for the keyword index ({self.db_path})", exc) from exc

    def _insert(self, cur: duckdb.DuckDBPyConnection, batch: StagedBatch) -> None:
        """Add the staged batch (keyword_writes.insert_rows), which reads `terms.df`."""
        self._state.pending.write(cur)
        changed = insert_rows(cur, batch)
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

    def _changed(self, tids: np.ndarray) -> None:
        if self._changed_tids is not None:
            self._changed_tids.update(tids.tolist())


class _Transaction:
    """`with index._transaction(what) as cur:` — the write lock, BEGIN/COMMIT, rollback + StoreError."""

    def __init__(self, index: KeywordWriting, what: str):
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


def _rename_names(names: NameIndex, pairs: Sequence[tuple[str, str]], occupied: set[str]) -> None:
    """rename_many's effect on the path words: an occupied target is replaced, then each pair moves."""
    names.remove([new for _, new in pairs if new in occupied], subtrees=True)
    for old, new in pairs:
        names.rename(old, new)
