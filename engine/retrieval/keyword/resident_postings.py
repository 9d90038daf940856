"""The postings of the index's rarer terms, read once in the background and kept as three flat arrays.

Every query of bench/compare.py's real text is new to the process, and a new query's terms cost one
statement for their postings (`reading.postings_sql`, ~0.8-1.3 ms CPU at 100k chunks) on top of the vector
arm: issue 30's hybrid p95 (docs/keyword-first-read.md, Session 6). Keeping each term's postings as Python
objects (the LRU `PostingsCache` filled with every term at open) cost a ~300 MB transient for 172k terms.
Here they are one CSR snapshot: the chunk ids (int32) and BM25 impacts (float32) of every held term, in
term order, and each term's start: 8 bytes a posting and 9 a term.

What is held: the rarest terms whose postings fit `budget` (RESIDENT_POSTINGS). At 100k real chunks that
is every term (172k terms, 6.0M postings: ~50 MB); at 1M it is the ~99 % of terms holding the fewest
postings, and the frequent few thousand, which every other query shares, stay with the LRU cache, which
reads them once and keeps them. Rare terms are the ones a query meets for the first time.

The read runs on its own cursor in one read transaction (one snapshot of `terms` and `postings`), a
million postings at a time by term range, into arrays allocated once (the transient is one slice). It
starts once the query that found no snapshot has been answered, and close interrupts it. Staleness is
the postings cache's rule: the snapshot is taken at a write generation, a term changed after it is not
answered from it, and a change of every term drops it (postings_cache.py). The same read keeps every
term's id (resident_terms.py), so a query's new words need no term lookup either.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import duckdb
import numpy as np

from engine.retrieval.keyword.resident_terms import TermIds

log = logging.getLogger(__name__)

Postings = tuple[np.ndarray, np.ndarray]
RESIDENT_POSTINGS = 8_000_000  # ~64 MB of 4-byte ids and impacts: every term at 100k real chunks (6.0M)
SLICE_POSTINGS = 1_000_000  # postings read per statement: the fill's transient (~12 MB of arrays)


@dataclass(frozen=True)
class Resident:
    """Held terms' postings: term `t`'s are `ids[starts[t]:starts[t + 1]]` when `held[t]`."""

    starts: np.ndarray  # int64, one more than the terms read
    ids: np.ndarray  # int32 chunk ids (int64 past 2^31)
    weights: np.ndarray  # float32 impacts
    held: np.ndarray  # bool per term id: its postings are all here
    read_at: int  # the postings cache's generation when the read began
    terms: TermIds  # every term's id (resident_terms.py)

    def postings(self, tid: int) -> Postings | None:
        if not 0 <= tid < len(self.held) or not self.held[tid]:
            return None
        a, b = self.starts[tid], self.starts[tid + 1]
        return self.ids[a:b], self.weights[a:b]

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def nbytes(self) -> int:
        arrays = self.starts.nbytes + self.ids.nbytes + self.weights.nbytes + self.held.nbytes
        return int(arrays + self.terms.nbytes)


def read_resident(
    cur: duckdb.DuckDBPyConnection, read_at: int, budget: int, stop: threading.Event
) -> Resident | None:
    """The rarest terms' postings up to `budget`, in one read transaction on `cur`; None when stopped."""
    cur.execute("BEGIN TRANSACTION")
    try:
        return _read(cur, read_at, budget, stop)
    finally:
        cur.execute("ROLLBACK")


def _read(
    cur: duckdb.DuckDBPyConnection, read_at: int, budget: int, stop: threading.Event
) -> Resident | None:
    terms = cur.execute("SELECT term, tid, df FROM terms").fetchnumpy()
    tids = np.asarray(terms["tid"], dtype=np.int64)
    dfs = np.asarray(terms["df"], dtype=np.int64)
    names = TermIds.of(terms.pop("term").tolist(), tids)
    cap = _df_cap(dfs, budget)
    held = np.zeros(int(tids.max()) + 1 if len(tids) else 0, dtype=bool)
    held[tids if cap is None else tids[dfs <= cap]] = True
    frequent = "" if cap is None else f" AND tid NOT IN (SELECT tid FROM terms WHERE df > {cap})"
    row = cur.execute(
        f"SELECT count(*), max(chunk_id) FROM postings WHERE tid < {len(held)}{frequent}"
    ).fetchone()
    total, top = (int(row[0]), int(row[1] or 0)) if row else (0, 0)
    ids = np.empty(total, dtype=np.int32 if top <= np.iinfo(np.int32).max else np.int64)
    weights = np.empty(total, dtype=np.float32)
    counts = np.zeros(len(held), dtype=np.int64)
    at = 0
    for low, high in _slices(tids, dfs, held):
        if stop.is_set():
            return None
        got = cur.execute(
            f"SELECT tid, chunk_id, w FROM postings WHERE tid >= {low} AND tid < {high}{frequent}"
        ).fetchnumpy()
        slice_tids = np.asarray(got["tid"], dtype=np.int64)
        order = np.argsort(slice_tids, kind="stable")  # point writes append rows out of term order
        n = len(order)
        ids[at : at + n] = np.asarray(got["chunk_id"])[order]
        weights[at : at + n] = np.asarray(got["w"], dtype=np.float32)[order]
        counts += np.bincount(slice_tids, minlength=len(held))
        at += n
    if at != total:  # cannot happen in one transaction; never answer from a partial read
        log.warning("keyword postings: read %d of %d resident postings; not kept", at, total)
        return None
    starts = np.zeros(len(held) + 1, dtype=np.int64)
    np.cumsum(counts, out=starts[1:])
    return Resident(starts, ids, weights, held, read_at, names)


def _df_cap(dfs: np.ndarray, budget: int) -> int | None:
    """The largest df whose terms, with every rarer one, hold at most `budget` postings (by df; dead
    chunks' postings, not yet compacted, add a little); None when every term fits."""
    if int(dfs.sum()) <= budget:
        return None
    ordered = np.sort(dfs)
    within = np.cumsum(ordered) <= budget
    fitting = ordered[within]
    if not len(fitting):
        return 0
    cap = int(fitting[-1])
    return cap if int(dfs[dfs <= cap].sum()) <= budget else cap - 1


def _slices(tids: np.ndarray, dfs: np.ndarray, held: np.ndarray) -> list[tuple[int, int]]:
    """Term id ranges [low, high) of about SLICE_POSTINGS held postings each, covering every held term."""
    if not len(held):
        return []
    per_tid = np.zeros(len(held), dtype=np.int64)
    per_tid[tids] = np.where(held[tids], dfs, 0)
    running = np.cumsum(per_tid)
    cuts = np.searchsorted(running, np.arange(SLICE_POSTINGS, int(running[-1]), SLICE_POSTINGS), side="right")
    bounds = [0, *sorted(set(int(c) for c in cuts) - {0}), len(held)]
    return [(low, high) for low, high in zip(bounds, bounds[1:], strict=False) if high > low]


class ResidentLoader:
    """Starts the background read when the postings cache has no snapshot, at most one at a time and once
    per write generation, and stops it at close."""

    def __init__(self, install: Callable[[Resident], None], budget: int = RESIDENT_POSTINGS):
        self._install = install
        self._budget = budget
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._started_at = -1
        self._stop = threading.Event()
        self._cursor: duckdb.DuckDBPyConnection | None = None

    def start(self, cursor: Callable[[], duckdb.DuckDBPyConnection], generation: int) -> None:
        """Read in the background (on a cursor of its own) unless a read is running, one was started at
        this generation, or the loader was stopped."""
        if self._budget <= 0:
            return
        with self._lock:
            if self._stop.is_set() or generation <= self._started_at:
                return
            if self._thread is not None and self._thread.is_alive():
                return
            self._started_at = generation
            self._thread = threading.Thread(
                target=self._run, args=(cursor, generation), name="keyword-postings", daemon=True
            )
            self._thread.start()

    def _run(self, cursor: Callable[[], duckdb.DuckDBPyConnection], generation: int) -> None:
        try:
            with self._lock:
                if self._stop.is_set():
                    return
                cur = self._cursor = cursor()
            try:
                resident = read_resident(cur, generation, self._budget, self._stop)
            finally:
                with self._lock:
                    self._cursor = None
                cur.close()
        except duckdb.Error as exc:  # the queries read their postings themselves, as before
            if not self._stop.is_set():  # not the interruption of a close
                log.warning("keyword postings not kept in memory: %s", exc)
            return
        if resident is not None:
            self._install(resident)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a read in progress (benchmarks: its cost is not a query's)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """No more reads; a read in progress is interrupted (close: a one-shot answer, as the command line's
        keyword peek, must not wait for a read it started)."""
        with self._lock:
            self._stop.set()
            thread, cur = self._thread, self._cursor
            if cur is not None:
                cur.interrupt()
        if thread is not None:
            thread.join(timeout)
