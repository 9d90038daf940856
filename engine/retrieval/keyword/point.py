"""Small keyword writes (a watcher's one file, a keyword-phase flush of a few files) in a few statements.

The bulk SQL of keyword_writes.py runs ~25 statements per write, each building or scanning temp tables,
reads the corpus statistics with a scan of every chunk and the batch's term ids with a scan of every
term: a one-file (5-chunk) update cost 156 ms at 100k chunks on an idle machine, 398 ms loaded. Here the
write is planned in Python around the few round trips that must touch the database:

1. `DELETE … RETURNING` removes the replaced chunks and hands back their ids, places, lengths and text;
   those that come back unchanged are inserted again as they were (`unchanged`), the rest are removed;
2. the old and the new text are tokenised in Python, exactly as the bulk path's SQL does
   (point_tokens.py: each distinct word is stemmed once by PyStemmer, the FTS extension's own Porter
   stemmer, then remembered); an old text this process wrote lately is not tokenised again: its counts
   are remembered by text (text_counts.py);
3. the write's net change of the document frequencies, counted over term ids (point_terms.py: each
   text's ids are looked up once and remembered with its counts), goes to `WriteState`'s copy, which the new
   postings' weights read, and to pending_writes.py, which writes `terms.df` in batches; new terms are
   inserted with their df and get ids from the sequence;
4. the inserts of the chunks (a few as SQL literals, more from Arrow) and of the postings (weighted in
   numpy by `keyword_writes.impacts`, sorted by term and chunk, read from a view registered once,
   point_rows.py), the two in one call. The removed ids wait in pending_writes.py too, and there is no
   change counter (stale_ratio counts from the ids, change_count.py).

Arrow tables named in the SQL are read by DuckDB's replacement scan, not `register`ed: each
register/unregister pair is a catalog change inside the transaction, and the six of a write cost more than
the statements themselves (~4 ms each on a loaded machine). Hence the locals that look unused
(`# noqa: F841`). A replacement scan still costs ~1.3-1.5 ms a statement (the client looks the name up
among the callers' frames), so the postings went through `from_arrow(...).insert_into` and since issue 30's
session 7 through a view registered once, outside any transaction (point_rows.py), a few chunks and the
replaced path into the SQL text (a bound parameter costs the client a failed pandas import). Per one-file
update at 1M chunks, same-run A/B against session 7's code (docs/keyword-writes.md): p50 28.7 -> 18.7 ms.
Since session 9 the view is over a bare Arrow C stream (point_rows.py says why), and an edit's few new
terms and texts to fold (not ASCII) go into the SQL text as well; Arrow and its replacement scan are left
for big writes and text holding a NUL.

Two things are kept in memory by `WriteState` instead of being read per write: the corpus size and total
length (what BM25's average length needs), and the term → id dictionary with each term's document
frequency (ids never change until `refresh_weights` rebuilds the terms table; the df change with every
write, and the copy holds them exactly, the changes the table does not hold yet included). Both are
loaded from the database when first needed, kept up to date by every write, and forgotten whenever a
transaction does not commit, a bulk write changed them in SQL, or weights are refreshed, so they can only
ever be reloaded, never be wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import numpy as np

from engine.retrieval.keyword import point_terms
from engine.retrieval.keyword.pending import PendingWrites
from engine.retrieval.keyword.point_rows import PointRows
from engine.retrieval.keyword.point_tokens import shared_stems
from engine.retrieval.keyword.text_counts import Counted, TextCounts
from engine.retrieval.keyword.writes import (
    average_length,
    impacts,
    uncount_terms,
)
from engine.retrieval.sql_literal import fit_sql_text, sql_string

# Writes of fewer chunks than this (in and out) are planned here; bigger ones take the bulk SQL path.
POINT_ROWS = 2_000
# Writes of at most this many new chunks write them into the SQL text instead of an Arrow table.
LITERAL_CHUNKS = 16
# Writes that bring at most this many new terms write them into the SQL text (`_insert_terms`).
LITERAL_TERMS = 64
# Ids drawn from a sequence at a time and handed out from memory (WriteState.take says why that is safe).
ID_BLOCK = 1024


class WriteState:
    """The corpus statistics and term dictionary the writer keeps between writes (module docstring)."""

    def __init__(self) -> None:
        self._corpus: tuple[int, int] | None = None  # (chunks, sum of their lengths)
        self._tids: dict[str, int] | None = None
        self.generation = 0  # of the loaded dictionary: ids read from another are not used (point_terms)
        self._df = np.zeros(0, np.int64)  # df by term id, valid while _tids is loaded
        self.stems = shared_stems()  # a pure function of the word: one memo for writes and queries
        self.counts = TextCounts()  # the term counts of texts written lately (text_counts.py)
        self.pending = PendingWrites()  # df changes and removed ids not in the tables yet (pending_writes.py)
        self._drawn: dict[str, list[int]] = {}  # sequence -> ids drawn and not handed out yet, ascending
        self.rows = PointRows()  # what the postings insert reads (point_rows.py)

    def forget(self) -> None:
        self._corpus = None
        self._tids = None
        self._drawn = {}

    def take(self, cur: duckdb.DuckDBPyConnection, sequence: str, n: int) -> list[int]:
        """n new ids from `sequence`, drawn ID_BLOCK at a time: one `nextval` statement cost ~0.4-0.7 ms of
        a one-file update, which drew chunk ids and (most updates bring a new word) term ids.

        Safe because the ids are drawn in the write transaction that hands out the first of them: if it
        commits, the sequence's stored value is past the whole block (DuckDB logs it with the commit), so
        no later draw, after a crash included, repeats an id; if it does not commit, `forget` drops the
        block. `forget` also drops it after any bulk write or refresh, so the ids a point write gets are
        always above every id in the tables, as change_count.py's mark relies on."""
        if n <= 0:
            return []
        drawn = self._drawn.get(sequence, [])
        if len(drawn) < n:
            drawn = _draw(cur, sequence, max(n, ID_BLOCK))
        self._drawn[sequence] = drawn[n:]
        return drawn[:n]

    def corpus(self, cur: duckdb.DuckDBPyConnection) -> tuple[int, int]:
        if self._corpus is None:
            row = cur.execute("SELECT count(*), coalesce(sum(len), 0) FROM chunks").fetchone()
            self._corpus = (int(row[0]), int(row[1])) if row else (0, 0)
        return self._corpus

    def set_corpus(self, chunks: int, total_len: int) -> None:
        self._corpus = (chunks, total_len)

    def tids(self, cur: duckdb.DuckDBPyConnection) -> dict[str, int]:
        """term -> id of every term, with their document frequencies (`df`), loaded in one read, plus the
        changes the table does not hold yet."""
        if self._tids is None:
            self.generation += 1
            got = cur.execute("SELECT term, tid, df FROM terms").fetchnumpy()
            ids = np.asarray(got["tid"], dtype=np.int64)
            self._df = np.zeros(int(ids.max()) + 1 if ids.size else 0, np.int64)
            self._df[ids] = np.asarray(got["df"], dtype=np.int64)
            unwritten, by = self.pending.unwritten()
            self._df[unwritten] += by
            self._tids = dict(zip(got["term"].tolist(), ids.tolist(), strict=True))
        return self._tids

    def add_terms(self, fresh: dict[str, int]) -> None:
        """Terms the write is the first to use, with their ids (df 0 until `shift_df`)."""
        assert self._tids is not None
        top = max(fresh.values(), default=-1)
        if top >= self._df.size:
            self._df = np.concatenate([self._df, np.zeros(max(top + 1 - self._df.size, 1024), np.int64)])
        for term, tid in fresh.items():
            self._tids[term] = tid
            self._df[tid] = 0

    def shift_df(self, tids: np.ndarray, by: np.ndarray) -> None:
        """Add `by` to the df of the (distinct) terms `tids`."""
        self._df[tids] += by

    def dfs(self, tids: np.ndarray) -> np.ndarray:
        """The document frequencies of the terms `tids` (int64)."""
        dfs: np.ndarray = self._df[tids]
        return dfs


@dataclass
class PointWrite:
    """What a write did, for the index's caches: the chunk ids it removed and the term ids it added
    postings to."""

    removed: np.ndarray
    changed: np.ndarray


def write(
    cur: duckdb.DuckDBPyConnection,
    where: str | None,
    params: list[object],
    incoming: Sequence[tuple[str, int, str]],
    state: WriteState,
) -> PointWrite:
    """Remove the chunks `where` selects (none if None) and add `incoming` (path, chunk_index, text),
    inside the caller's transaction. A removal that turns out big is counted in SQL instead."""
    import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

    chunks, total_len = state.corpus(cur)
    old: list[tuple[int, str, int, int, str]] = []
    if where is not None:
        old = cur.execute(
            f"DELETE FROM chunks WHERE {where} RETURNING id, path, chunk_index, len, text", params
        ).fetchall()
    kept: list[tuple[int, str, int, int, str]] = []
    if len(old) <= POINT_ROWS:
        kept, old, incoming = unchanged(old, incoming)
    removed = np.asarray([row[0] for row in old], dtype=np.int64)
    chunks -= len(old)
    total_len -= sum(int(row[3] or 0) for row in old)
    if len(old) > POINT_ROWS:
        cur.register(
            "point_gone", pa.table({"id": pa.array(removed, pa.int64()), "text": [r[4] for r in old]})
        )
        try:  # the counting SQL runs in keyword_writes' frame, so this one table is registered
            uncount_terms(cur, "point_gone")
        finally:
            cur.unregister("point_gone")
        state.forget()  # the dictionary is still right, but forgetting keeps one rule: SQL wrote, reload
        state.set_corpus(chunks, total_len)
        old = []
    old_texts = [row[4] or "" for row in old]
    new_texts = [text for _, _, text in incoming]
    counted = state.counts.of(cur, old_texts + new_texts, state.stems)
    gone, added = counted[: len(old_texts)], counted[len(old_texts) :]
    state.counts.keep(new_texts, added)
    lengths = [text.length for text in added]
    chunks += len(incoming)
    total_len += sum(lengths)
    tids = state.tids(cur)
    point_terms.look_up(counted, tids, state.generation)
    fresh = point_terms.new_terms(added)
    chunk_ids, term_ids = (
        state.take(cur, "chunk_id_seq", len(incoming)),
        state.take(cur, "term_id_seq", len(fresh)),
    )
    if fresh:
        state.add_terms(dict(zip(fresh, term_ids, strict=True)))
        point_terms.look_up_again(added, tids)
    terms_sql = _shift_df(
        cur, state, point_terms.df_change(gone, added), dict(zip(fresh, term_ids, strict=True))
    )
    state.pending.bury(cur, removed)
    chunks_sql = _insert_chunks(
        cur,
        [(path, index, text) for _, path, index, _, text in kept] + list(incoming),
        [row[0] for row in kept] + chunk_ids,
        [int(row[3] or 0) for row in kept] + lengths,
    )
    chunks_sql = "; ".join(sql for sql in (terms_sql, chunks_sql) if sql)
    changed = np.zeros(0, np.int64)
    if incoming:
        changed, chunks_sql = _insert(cur, chunk_ids, added, state, chunks, total_len, chunks_sql)
    if chunks_sql:
        cur.execute(chunks_sql)
    state.set_corpus(chunks, total_len)
    return PointWrite(removed, changed)


def unchanged(
    old: list[tuple[int, str, int, int, str]], incoming: Sequence[tuple[str, int, str]]
) -> tuple[
    list[tuple[int, str, int, int, str]], list[tuple[int, str, int, int, str]], list[tuple[str, int, str]]
]:
    """Split a write's removed rows (id, path, chunk_index, len, text) and its incoming chunks (path,
    chunk_index, text) into the rows that come back unchanged (same path, index and text), the removed
    rows that change and the incoming chunks that are new. An edit re-cuts a file, but the chunks before
    the edited line come back as they were (2 of the 5 of bench/compare.py's real one-file update): such
    a row is inserted again with its old id and length, so its postings, which a removed id would leave
    masked until the refresh, stay live as they are, and neither side of it is tokenised, counted or
    weighted again. Its weights are those it was written with, like every other unchanged file's until
    `refresh_weights`."""
    if not old or not incoming:
        return [], old, list(incoming)
    arriving = {(path, index): text for path, index, text in incoming}
    kept, gone = [], []
    for row in old:
        if arriving.get((row[1], row[2])) == row[4]:
            del arriving[(row[1], row[2])]
            kept.append(row)
        else:
            gone.append(row)
    if not kept or len(arriving) + len(kept) != len(incoming):  # (a path twice in one write: no keeping)
        return [], old, list(incoming)
    return kept, gone, [chunk for chunk in incoming if (chunk[0], chunk[1]) in arriving]


def chunks_insert_sql(
    incoming: Sequence[tuple[str, int, str]], chunk_ids: list[int], lengths: list[int]
) -> str:
    """The insert of a few new chunks with their values written into the SQL text: for a 5-chunk file 0.7
    (1M chunks) to 1.7 ms (100k) less CPU per update than the same insert from an Arrow table (same-run A/B,
    load 3.1-3.2). Text holding a NUL stays on Arrow: DuckDB's parser rejects it in a literal."""
    values = ", ".join(
        f"({int(cid)}, {sql_string(path)}, {int(index)}, {int(n)}, {sql_string(text)})"
        for (path, index, text), cid, n in zip(incoming, chunk_ids, lengths, strict=True)
    )
    return f"INSERT INTO chunks VALUES {values}"


def _draw(cur: duckdb.DuckDBPyConnection, sequence: str, n: int) -> list[int]:
    """n ids from `sequence` in one statement (`SELECT nextval(…) FROM range(n)` with n a literal; two
    sequences' draws in one statement, as list subqueries, cost 2.6 ms of CPU), ascending."""
    return sorted(
        int(row[0]) for row in cur.execute(f"SELECT nextval('{sequence}') FROM range({int(n)})").fetchall()
    )


def _shift_df(
    cur: duckdb.DuckDBPyConnection,
    state: WriteState,
    change: tuple[np.ndarray, np.ndarray],
    fresh: dict[str, int],
) -> str:
    """Apply the net df change (term ids, change) of every term the write touched, to `state` and, for
    terms seen for the first time (already in the dictionary), to the table: they are inserted with their
    df; the others' changes wait in `state.pending`. The new df come from the dictionary's own
    copy, not from `UPDATE … RETURNING`: with RETURNING, DuckDB's update of ~350 terms cost 18-20 ms of CPU
    and made the COMMIT take 18-26 ms more; the plain UPDATE costs 4 ms and 1 ms (100k chunks, loaded).

    The new terms' insert is returned as SQL with their values written in (run with the chunks' insert, in
    the same call), not run from Arrow: a replacement scan's look-up of the table's name among the callers'
    frames and pyarrow.dataset's Scanner cost ~1.5 ms of an update that brings a new word (Session 9).
    Many terms, or terms holding a NUL (DuckDB's parser rejects it in a literal), still go in from Arrow
    ('' returned)."""
    ids, by = change
    state.shift_df(ids, by)
    known = np.ones(ids.size, bool)
    terms_sql = ""
    if fresh:
        tids = np.fromiter(fresh.values(), np.int64, len(fresh))
        known = ~np.isin(ids, tids)
        terms_sql = _insert_terms(cur, list(fresh), tids, state.dfs(tids))
    if known.any():
        state.pending.add(cur, ids[known], by[known])
    return terms_sql


def _insert_terms(cur: duckdb.DuckDBPyConnection, terms: list[str], tids: np.ndarray, dfs: np.ndarray) -> str:
    """`_shift_df`'s insert of new terms with their ids and df: returned as SQL, or run from Arrow (many
    terms: DuckDB binds a VALUES list row by row, ~11 µs a row, Session 6)."""
    if fit_sql_text(terms, LITERAL_TERMS):
        values = ", ".join(
            f"({sql_string(term)}, {tid}, {df})"
            for term, tid, df in zip(terms, tids.tolist(), dfs.tolist(), strict=True)
        )
        return f"INSERT INTO terms (term, tid, df) VALUES {values}"
    import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

    point_fresh = pa.table(  # noqa: F841 (read by name)
        {
            "term": pa.array(terms, pa.string()),
            "tid": pa.array(tids, pa.int32()),
            "df": pa.array(dfs, pa.int64()),
        }
    )
    cur.execute("INSERT INTO terms SELECT term, tid, df FROM point_fresh")
    return ""


def _insert_chunks(
    cur: duckdb.DuckDBPyConnection, rows: list[tuple[str, int, str]], ids: list[int], lengths: list[int]
) -> str:
    """Insert chunk rows (path, chunk_index, text) with their ids and lengths: a few as SQL literals, more
    (or text holding a NUL, which DuckDB's parser rejects in a literal) from Arrow. The literal insert is
    returned, not run: the postings' insert runs it in the same call (one round trip less, ~0.05-0.15 ms
    of CPU); '' when the rows went in from Arrow."""
    import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

    if not rows:
        return ""
    if fit_sql_text((text for _, _, text in rows), LITERAL_CHUNKS):
        return chunks_insert_sql(rows, ids, lengths)  # run with the postings' insert (`_insert`)
    cur.from_arrow(  # the columns in the table's order; no replacement scan (see _insert's postings)
        pa.table(
            {
                "id": pa.array(ids, pa.int64()),
                "path": pa.array([p for p, _, _ in rows], pa.string()),
                "chunk_index": pa.array([i for _, i, _ in rows], pa.int32()),
                "len": pa.array(lengths, pa.int32()),
                "text": pa.array([t for _, _, t in rows], pa.string()),
            }
        )
    ).insert_into("chunks")
    return ""


def _insert(
    cur: duckdb.DuckDBPyConnection,
    chunk_ids: list[int],
    added: list[Counted],
    state: WriteState,
    chunks: int,
    total_len: int,
    before: str,
) -> tuple[np.ndarray, str]:
    """Insert the new chunks' postings, weighted with the statistics after this write, after the statement
    `before` in the same call; returns the ids of their terms and `before` if it did not run it (no
    postings). The postings' columns are built as arrays (each text's term ids and tfs, the df read by
    id from `state`), not as a list of row tuples: ~1.5 ms less CPU for a 5-chunk file."""
    import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

    per_chunk = [len(text.tfs) for text in added]
    if not sum(per_chunk):
        return np.zeros(0, np.int64), before
    tid = np.concatenate([text.tids for text in added if text.tids is not None])
    tf = np.concatenate([text.tfs for text in added])
    chunk_id = np.repeat(np.asarray(chunk_ids, np.int64), per_chunk)
    order = np.lexsort((chunk_id, tid))  # by term, then chunk, as refresh_weights sorts the table
    tid, tf, chunk_id = tid[order], tf[order], chunk_id[order]
    lengths_of = np.repeat(np.asarray([text.length for text in added], np.int64), per_chunk)[order]
    weights = impacts(tf, lengths_of, state.dfs(tid), float(chunks), average_length(chunks, total_len))
    # through the view point_rows.py registers: not a replacement scan, whose look-up of the name among
    # the callers' frames cost ~1.3 ms of a one-file update (1M chunks), nor a relation built per write;
    # the weights come from numpy, bit for bit weight_sql's
    table = pa.table(
        {
            "tid": pa.array(tid.astype(np.int32)),
            "chunk_id": pa.array(chunk_id),
            "tf": pa.array(tf.astype(np.int32)),
            "w": pa.array(weights),
        }
    )
    state.rows.insert(cur, table, before)
    return tid[np.flatnonzero(np.diff(tid, prepend=-1))], ""  # sorted: each term once
