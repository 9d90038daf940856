"""What small writes leave unwritten: document-frequency changes and removed chunk ids, kept in memory and
written to `terms` and `dead` in batches.

A one-file update changes the df of ~700 terms (5 chunks of new text, 5 of old) and removes 5 chunks.
Writing both with every write, one `UPDATE terms` from Arrow and one `INSERT INTO dead`, plus their
share of the COMMIT, cost ~7 of a 29 ms update at 1M chunks (docs/keyword-writes.md). Neither table is
read on a write's or a query's path: the postings carry their weights, computed from the writer's exact
copy of every df (keyword_point.WriteState), and queries mask removed chunks with the ids in memory
(chunk_filter.py). `terms.df` is read by a query only for its reference score (fusion.py), which adds the
committed changes here; both tables are read by the bulk SQL writes and refresh_weights.

So a point write records its net df change and its removed ids here. Readers add the committed changes
holding `lock`, which the writer holds across COMMIT and the hand-over of the transaction's changes, so a
reader's table and its changes belong to the same commit. Everything goes to the tables before any bulk
SQL write or refresh, at close, and once the changes cover WRITE_TERMS terms.

A crash loses what is in memory, never an exact index: the first write that leaves something unwritten
sets meta `MARKER` to 1 in its own transaction, the write that writes everything sets it back to 0, and
an index opened with 1 rebuilds both from the postings (`recover`: the removed chunks are those whose
postings have no chunk, and every df is the count of its live postings), one scan each.
"""

from __future__ import annotations

import threading

import duckdb
import numpy as np

from engine.retrieval.keyword.writes import live_df_sql

# Unwritten changes to this many terms are written by the next point write (a few ms, once in hundreds of
# writes), which bounds the memory and the work of writing them at close.
WRITE_TERMS = 50_000
MARKER = "unwritten"  # meta: 1 while committed writes left changes in memory only


class PendingWrites:
    """Net df changes not yet in `terms` (by term id) and removed chunk ids not yet in `dead` (module
    docstring). The writer calls everything but the readers' two under the index's write lock; readers
    call `committed_df` and `committed_dead` holding `lock`. Kept in numpy arrays: merging a write's ~700
    changes into dictionaries cost ~0.5 ms of its CPU."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._committed = np.zeros(0, np.int64)  # by term id: missing from the committed table
        self._touched = 0  # at least the number of nonzero entries of _committed
        self._dead: list[np.ndarray] = []  # committed removed ids missing from `dead`
        self._tx: list[tuple[np.ndarray, np.ndarray]] = []  # this transaction's (ids, changes)
        self._tx_dead: list[np.ndarray] = []
        self._written_in_tx = False  # this transaction wrote everything committed (or recounted df)
        self._marked = False  # the committed marker
        self._marked_in_tx: bool | None = None  # the marker as this transaction set it

    def _set_marker(self, cur: duckdb.DuckDBPyConnection, value: bool) -> None:
        """Set the marker in the writer's transaction unless it already reads `value` there."""
        if (self._marked if self._marked_in_tx is None else self._marked_in_tx) != value:
            cur.execute(_marker_sql(value))
            self._marked_in_tx = value

    def _mark(self, cur: duckdb.DuckDBPyConnection) -> None:
        self._set_marker(cur, True)

    def add(self, cur: duckdb.DuckDBPyConnection, tids: np.ndarray, by: np.ndarray) -> None:
        """Record a point write's net change `by` of the df of the (distinct) terms `tids`."""
        if tids.size:
            self._mark(cur)
            self._tx.append((tids.astype(np.int64), by.astype(np.int64)))

    def bury(self, cur: duckdb.DuckDBPyConnection, ids: np.ndarray) -> None:
        """Record the ids of the chunks a point write removed (their postings stay until a refresh)."""
        if ids.size:
            self._mark(cur)
            self._tx_dead.append(ids.astype(np.int64))

    def unwritten(self) -> tuple[np.ndarray, np.ndarray]:
        """(term ids, changes) of every df change the table lacks as the writer's transaction sees it."""
        merged = np.zeros(0, np.int64) if self._written_in_tx else self._committed.copy()
        for tids, by in self._tx:
            merged = _grown(merged, tids)
            merged[tids] += by
        ids = np.flatnonzero(merged)
        return ids, merged[ids]

    def _unwritten_dead(self) -> np.ndarray:
        parts = ([] if self._written_in_tx else self._dead) + self._tx_dead
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)

    def wants_writing(self) -> bool:
        if self._touched < WRITE_TERMS:
            return False
        self._touched = int(np.count_nonzero(self._committed))
        return self._touched >= WRITE_TERMS

    def write(self, cur: duckdb.DuckDBPyConnection) -> None:
        """Write everything unwritten to `terms` and `dead` and clear the marker, in the caller's
        transaction."""
        import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

        ids, by = self.unwritten()
        if ids.size:
            pending_delta = pa.table(  # noqa: F841 (read by name)
                {"tid": pa.array(ids.astype(np.int32)), "n": pa.array(by)}
            )
            cur.execute("UPDATE terms SET df = terms.df + d.n FROM pending_delta d WHERE terms.tid = d.tid")
        dead = self._unwritten_dead()
        if dead.size:
            cur.from_arrow(pa.table({"chunk_id": pa.array(dead)})).insert_into("dead")
        self.recounted(cur)

    def recounted(self, cur: duckdb.DuckDBPyConnection) -> None:
        """The caller's transaction wrote everything unwritten (`write`), or recounted every df after
        `write` (refresh_weights): the tables are exact."""
        self._set_marker(cur, False)
        self._tx, self._tx_dead = [], []
        self._written_in_tx = True

    def committed(self) -> None:
        """The writer's transaction committed (called holding `lock`, with the COMMIT)."""
        if self._written_in_tx:
            self._committed[:] = 0
            self._touched = 0
            self._dead = []
        for tids, by in self._tx:
            self._committed = _grown(self._committed, tids)
            self._committed[tids] += by
            self._touched += int(tids.size)
        self._dead.extend(self._tx_dead)
        if self._marked_in_tx is not None:
            self._marked = self._marked_in_tx
        self.rolled_back()

    def rolled_back(self) -> None:
        """The writer's transaction ended without a commit: its changes are gone with it."""
        self._tx, self._tx_dead = [], []
        self._written_in_tx = False
        self._marked_in_tx = None

    def committed_df(self, tid: int) -> int:
        """The committed change of term `tid`'s df that the table lacks (readers, holding `lock`)."""
        return int(self._committed[tid]) if tid < self._committed.size else 0

    def committed_dead(self) -> np.ndarray:
        """The committed removed ids that `dead` lacks (readers, holding `lock`)."""
        return np.concatenate(self._dead) if self._dead else np.zeros(0, np.int64)

    def has_committed(self) -> bool:
        return bool(self._dead) or (self._touched > 0 and bool(self._committed.any()))


def _marker_sql(value: bool) -> str:
    return f"UPDATE meta SET value = {int(value)} WHERE key = '{MARKER}'"


def _grown(values: np.ndarray, tids: np.ndarray) -> np.ndarray:
    """`values` with room for every id in `tids` (grown by at least 1024 at a time)."""
    top = int(tids.max()) + 1
    if top <= values.size:
        return values
    return np.concatenate([values, np.zeros(max(top - values.size, 1024), np.int64)])


def recover_if_marked(cur: duckdb.DuckDBPyConnection) -> bool:
    """At open: if the marker says a crash lost unwritten changes, rebuild `dead` and every df from the
    postings and clear the marker, in one transaction. True if it did."""
    row = cur.execute(f"SELECT max(value) FROM meta WHERE key = '{MARKER}'").fetchone()
    if not row or not row[0]:
        return False
    cur.execute("BEGIN TRANSACTION")
    try:
        for statement in recover_sql():
            cur.execute(statement)
        cur.execute(_marker_sql(False))
        cur.execute("COMMIT")
    except duckdb.Error:
        cur.execute("ROLLBACK")
        raise
    return True


def recover_sql() -> list[str]:
    """The removed chunks added to `dead` (postings whose chunk is gone, until refresh_weights drops them,
    are exactly those), then every term's df set to the number of live chunks holding it (0 for none)."""
    return [
        "INSERT INTO dead SELECT DISTINCT chunk_id FROM postings "
        "WHERE chunk_id NOT IN (SELECT id FROM chunks) AND chunk_id NOT IN (SELECT chunk_id FROM dead)",
        f"CREATE OR REPLACE TEMP TABLE recounted AS {live_df_sql()}",
        "UPDATE terms SET df = r.df FROM recounted r WHERE terms.tid = r.tid AND terms.df <> r.df",
        "UPDATE terms SET df = 0 WHERE df <> 0 AND tid NOT IN (SELECT tid FROM recounted)",
        "DROP TABLE recounted",
    ]


def ensure_marker(cur: duckdb.DuckDBPyConnection) -> None:
    """The marker row, 0, in an index written before it existed (whose every write kept both exact)."""
    cur.execute(
        f"INSERT INTO meta SELECT '{MARKER}', 0 WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key = '{MARKER}')"
    )
