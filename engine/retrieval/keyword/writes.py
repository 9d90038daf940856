"""The SQL of the keyword index's writes: a batch's chunks in, a set of chunks out (bm25.py owns the tables,
the transaction and the caches; these functions run inside its write transaction, on its writer cursor).

Inserting writes a whole batch split beforehand (batch.py): one pass over `terms` reads the batch's term
ids and document frequencies, and the postings are counted, weighted and sorted in numpy (`insert_rows`).
The SQL weights (`weight_sql` and its parts) stay the definition: `refresh_weights` runs them, and the
numpy weights equal them bit for bit.

Removing leaves the chunks' postings in place: their ids go to the `dead` table, the index masks them out
of every query (chunk_filter.py) and `refresh_weights` deletes them in one pass. The terms' document
frequencies are counted from the removed chunks' own text, tokenised again. Both replace two scans of the
whole postings table per removed file (43 ms at 100k chunks, ten times that at 1M).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import duckdb
import numpy as np

from engine.retrieval.keyword import tokenize
from engine.retrieval.sql_literal import sql_string

if TYPE_CHECKING:
    from engine.retrieval.keyword.batch import StagedBatch

K1 = 1.2
B = 0.75
# `impacts`' exact form of weight_sql's DECIMAL literal `K1 + 1` (tf times it is exact in SQL)
_K1_PLUS_1_TENTHS = round((K1 + 1) * 10)
assert f"{K1 + 1}" == f"{_K1_PLUS_1_TENTHS / 10}", "the DECIMAL literal must have one decimal digit"
# Temp tables of a batch at least this big are dropped at its end; smaller ones stay until the next write
# replaces them (each DROP is one more statement in a one-file update, which runs ~25 of them).
DROP_TEMP_ROWS = 5_000
# A bulk batch's postings are weighted in blocks of this many (_block_impacts says why).
IMPACT_ROWS = 1 << 16


def weight_sql(tf: str, length: str, df: str, n: float, avgdl: float) -> str:
    """The BM25 impact of one posting, with `log` as the FTS extension's match_bm25 uses it; the corpus
    size and average length are bound as literals (a joined one-row CTE misleads DuckDB's join order)."""
    return impact_sql(idf_sql(df, n), tf, norm_sql(length, avgdl))


def impacts(tf: np.ndarray, length: np.ndarray, df: np.ndarray, n: float, avgdl: float) -> np.ndarray:
    """`weight_sql` in numpy, bit for bit (float32), for a point write's few hundred postings: DuckDB's
    operations in DuckDB's order and types. Its literals are DECIMAL, so `tf * 2.2` is exact and then
    cast to DOUBLE (`tf * 22 / 10.0`, one rounding), `1 - 0.75` is exactly 0.25, and the other literals
    meet DOUBLE operands as the nearest double; its `log` is libm's log10, which `math.log10` calls
    (numpy's own log10 may differ in the last bit), once per distinct df. A test compares the two on
    millions of random values."""
    uniq, where = np.unique(np.asarray(df, np.float64), return_inverse=True)
    idfs = np.asarray([idf(n, d) for d in uniq.tolist()], np.float64)
    return impacts_of(idfs[where], tf, length, avgdl)


def impacts_of(idfs: np.ndarray, tf: np.ndarray, length: np.ndarray, avgdl: float) -> np.ndarray:
    """`impacts` from each posting's idf (`idf`, computed once per term by the caller): the bulk insert
    weights a batch's millions of postings with it."""
    tf = np.asarray(tf, np.float64)
    norm = K1 * ((1 - B) + B * (np.asarray(length, np.float64) / float(avgdl)))
    return (idfs * ((tf * _K1_PLUS_1_TENTHS) / 10.0 / (tf + norm))).astype(np.float32)


def idf(n: float, df: float) -> float:
    """`idf_sql` in Python: BM25's idf of a term in `df` of `n` chunks (SQL's `log` is libm's log10, which
    `math.log10` calls). The point writes' weights (`impacts`) and the queries' reference scores use it."""
    return math.log10((n - df + 0.5) / (df + 0.5) + 1)


def idf_sql(df: str, n: float) -> str:
    """`weight_sql`'s idf factor of a term of document frequency `df`, alone: computed once per term where a
    statement weights many postings (its DECIMAL `df + 0.5` cost the bulk insert ~0.9 s of CPU per 50k
    chunks computed once per posting)."""
    return f"log((({float(n)!r}::DOUBLE - {df} + 0.5) / ({df} + 0.5)) + 1)"


def norm_sql(length: str, avgdl: float) -> str:
    """`weight_sql`'s length norm of a chunk of `length` terms, alone (once per chunk)."""
    return f"{K1} * (1 - {B} + {B} * ({length} / {float(avgdl)!r}::DOUBLE))"


def impact_sql(idf: str, tf: str, norm: str) -> str:
    """`weight_sql` from its per-term idf and per-chunk norm: the same operations in the same order, so the
    weight is bitwise the same (tests/retrieval compare the write paths' weights bit for bit)."""
    return f"({idf} * (({tf} * {K1 + 1}) / ({tf} + {norm})))::FLOAT"


def live_df_sql() -> str:
    """Rows (tid, df) of every term with live postings: its postings outside `dead`, counted (what
    refresh_weights sets each term's df to)."""
    return (
        "SELECT tid, count(*)::BIGINT AS df FROM postings "
        "WHERE chunk_id NOT IN (SELECT chunk_id FROM dead) GROUP BY tid"
    )


def reweighted_postings_sql(n: float, avgdl: float) -> str:
    """Every live posting with its weight at corpus size `n` and average length `avgdl` (refresh_weights),
    sorted by term. The same arithmetic as `weight_sql`, in the same order, so the weights are bitwise
    the same (checked on 8.8M postings), but each term's idf is computed once per term and each chunk's
    length norm once per chunk instead of once per posting: 3.5 -> 2.5 s of CPU at 100k chunks.

    The idf comes from the live postings' own counts (`live_df_sql`), not from `terms`: run after `terms`
    was rebuilt in the same transaction, the rebuilt table's estimate made DuckDB build its hash table on
    postings ⋈ terms (8.8M rows) and probe it with `chunks`, 5.2 s of CPU at 100k chunks (load 3.4); with
    the count inline it builds on terms and chunks, 1.5 s, the extra count included."""
    return f"""
        SELECT p.tid, p.chunk_id, p.tf, {impact_sql("t.idf", "p.tf", "c.norm")} AS w
        FROM postings p
        JOIN (SELECT tid, {idf_sql("df", n)} AS idf FROM ({live_df_sql()})) t USING (tid)
        JOIN (SELECT id, {norm_sql("len", avgdl)} AS norm FROM chunks) c ON c.id = p.chunk_id
        ORDER BY p.tid, p.chunk_id"""


def split_sql(expr: str) -> str:
    """`tokenize.tokenize_sql(expr)` without a regex: every separator character (white space and the ignore
    class) becomes a space with one `translate` and the text is split on ' '. A run of separators gives
    empty tokens where the regex gave one space, and every caller drops empty tokens, so the kept tokens
    are the same (a test compares the two on awkward text). The regex replace was 0.76 of the split's 1.18
    s of CPU per 50k chunks; `translate` costs 0.55 (load 0.4-0.6)."""
    chars, spaces = sql_string(tokenize.SEPARATORS), sql_string(" " * len(tokenize.SEPARATORS))
    return f"string_split(translate(lower(strip_accents(CAST({expr} AS VARCHAR))), {chars}, {spaces}), ' ')"


def kept_words_sql(chunks: str) -> str:
    """Rows (id, w) of every kept word of the chunks in table `chunks` (columns id, text), in order: the
    split, less empty tokens and stop words, before stemming."""
    return f"""
        SELECT id, w FROM (SELECT id, unnest({split_sql("text")}) AS w FROM {chunks})
        WHERE len(w) > 0 AND w NOT IN (SELECT sw FROM stopwords)"""


def vocabulary_sql(words: str) -> str:
    """Rows (w, term) of the distinct words in table `words` (column w), each with its stem: every word
    is stemmed once however often it occurs, by the one stemmer the index uses."""
    return f"SELECT w, stem(w, '{tokenize.STEMMER}') AS term FROM (SELECT DISTINCT w FROM {words})"


def term_counts_sql(chunks: str) -> str:
    """Rows (chunk_id, term, tf) of the chunks in table `chunks` (columns id, text): what their postings
    hold. Removing chunks counts their terms with this; inserting a batch runs the same pipeline keyed by
    term numbers (keyword_batch.py)."""
    return f"""
        WITH kept AS ({kept_words_sql(chunks)}),
             stems AS ({vocabulary_sql("kept")})
        SELECT id AS chunk_id, term, count(*)::INTEGER AS tf FROM kept JOIN stems USING (w)
        GROUP BY id, term"""


def average_length(chunks: int, total_len: int) -> float:
    """BM25's average chunk length (at least 1e-9), computed the same way by every write path so a point
    write and a bulk one weight a posting identically."""
    return max(total_len / chunks, 1e-9) if chunks else 1e-9


def corpus_stats(cur: duckdb.DuckDBPyConnection) -> tuple[float, float]:
    """(chunks, average length) as BM25 uses them."""
    row = cur.execute("SELECT count(*), coalesce(sum(len), 0) FROM chunks").fetchone()
    chunks, total = (int(row[0]), int(row[1])) if row else (0, 0)
    return float(chunks), average_length(chunks, total)


def insert_rows(cur: duckdb.DuckDBPyConnection, batch: StagedBatch) -> np.ndarray:
    """Add the batch that `batch.staged` split, with its postings; returns the ids of the terms whose
    postings it changed (the postings cache forgets them).

    The batch's terms (~110k, where its kept words are ~6M) are looked up in `terms` once and the new ones
    given ids; then one sort of (term id, chunk) keys counts the postings and orders them as
    refresh_weights orders the table (its sort then meets sorted runs). The weights are `weight_sql`'s,
    computed in numpy by `impacts_of` with each term's idf once per term: the same bits (a test compares
    a bulk build's weights with `weight_sql` over its own table). Until session 6 this was SQL over the
    staged temp tables: the count 1.2 and the postings insert 0.77 CPU-s per 50k real chunks."""
    import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

    tids, dfs = _term_ids(cur, batch.terms)
    first = _first_of_consecutive_ids(cur, batch.rows)
    _insert_chunks(cur, batch, first)
    tid, chunk, tf = batch.postings(tids)
    term_starts = np.flatnonzero(np.diff(tid, prepend=-1))
    changed = tid[term_starts]
    chunks_with = np.diff(term_starts, append=len(tid))
    cur.register("batch_df", pa.table({"tid": changed, "n": chunks_with}))
    try:  # a temp table as remove_rows makes it: _shift_df reads `df_delta`
        cur.execute("CREATE OR REPLACE TEMP TABLE df_delta AS SELECT * FROM batch_df")
    finally:
        cur.unregister("batch_df")
    _shift_df(cur, sign=1)
    n, avgdl = corpus_stats(cur)
    by_tid = np.argsort(tids)
    df_after = dfs[by_tid[np.searchsorted(tids[by_tid], changed)]] + chunks_with
    uniq, where = np.unique(df_after.astype(np.float64), return_inverse=True)
    term_idf = np.asarray([idf(n, d) for d in uniq.tolist()], np.float64)[where]
    weights = _block_impacts(np.repeat(term_idf, chunks_with), tf, batch.lengths, chunk, avgdl)
    cur.from_arrow(  # the columns in the table's order; no replacement scan (point.py says why)
        pa.table(
            {
                "tid": pa.array(tid.astype(np.int32)),
                "chunk_id": pa.array(chunk + first),
                "tf": pa.array(tf.astype(np.int32)),
                "w": pa.array(weights),
            }
        )
    ).insert_into("postings")
    if batch.rows >= DROP_TEMP_ROWS:
        cur.execute("DROP TABLE df_delta")
    return changed


def _block_impacts(
    idfs: np.ndarray, tf: np.ndarray, lengths: np.ndarray, chunk: np.ndarray, avgdl: float
) -> np.ndarray:
    """`impacts_of(idfs, tf, lengths[chunk], avgdl)` in blocks of IMPACT_ROWS postings: elementwise, so the
    same bits as one call, but its ~10 float64 temporaries are a few hundred KB each that the allocator
    hands out again, where over a 50k-chunk batch's 3M postings they were ~240 MB of fresh pages that
    the kernel faulted in and zeroed."""
    postings = len(tf)
    weights = np.empty(postings, np.float32)
    for start in range(0, postings, IMPACT_ROWS):
        stop = min(start + IMPACT_ROWS, postings)
        weights[start:stop] = impacts_of(idfs[start:stop], tf[start:stop], lengths[chunk[start:stop]], avgdl)
    return weights


def _term_ids(cur: duckdb.DuckDBPyConnection, terms: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each of `terms`' id and current df (by position), read in one pass over `terms`; the terms no
    chunk had before get new ids (and df 0) here."""
    import pyarrow as pa

    tids = np.full(len(terms), -1, dtype=np.int64)
    dfs = np.zeros(len(terms), dtype=np.int64)
    numbered = pa.table({"lid": np.arange(len(terms)), "term": pa.array(terms, pa.string())})
    cur.register("batch_terms", numbered)
    try:
        known = cur.execute(
            "SELECT l.lid, t.tid, t.df FROM batch_terms l JOIN terms t USING (term)"
        ).fetchnumpy()
    finally:
        cur.unregister("batch_terms")
    lid = np.asarray(known["lid"], np.int64)
    tids[lid] = known["tid"]
    dfs[lid] = known["df"]
    fresh = np.flatnonzero(tids < 0)
    if len(fresh):
        drawn = cur.execute(
            f"SELECT nextval('term_id_seq')::INTEGER AS tid FROM range({len(fresh)})"
        ).fetchnumpy()["tid"]
        tids[fresh] = drawn
        cur.from_arrow(
            pa.table(
                {
                    "term": pa.array([terms[i] for i in fresh.tolist()], pa.string()),
                    "tid": pa.array(np.asarray(drawn, np.int32)),
                    "df": pa.array(np.zeros(len(fresh), np.int64)),
                }
            )
        ).insert_into("terms")
    return tids, dfs


def _insert_chunks(cur: duckdb.DuckDBPyConnection, batch: StagedBatch, first: int) -> None:
    import pyarrow as pa

    chunks = batch.chunks
    cur.from_arrow(
        pa.table(
            {
                "id": pa.array(first + np.arange(batch.rows, dtype=np.int64)),
                "path": chunks.column("path"),
                "chunk_index": chunks.column("chunk_index"),
                "len": pa.array(batch.lengths),
                "text": chunks.column("text"),
            }
        )
    ).insert_into("chunks")


def _first_of_consecutive_ids(cur: duckdb.DuckDBPyConnection, n: int) -> int:
    """Draw n chunk ids and return the first: they are consecutive (one statement of the one writer, under
    the index's write lock), which the staged batch's numbering 0..n-1 relies on, so that is checked (in
    any order: only the set of ids drawn matters)."""
    got = cur.execute(f"SELECT nextval('chunk_id_seq') AS id FROM range({int(n)})").fetchnumpy()["id"]
    ids = np.sort(np.asarray(got, dtype=np.int64))
    if not np.array_equal(ids, ids[0] + np.arange(n, dtype=np.int64)):
        raise RuntimeError(f"chunk ids {ids[0]}..{ids[-1]} drawn for a batch of {n} are not consecutive")
    return int(ids[0])


def remove_rows(cur: duckdb.DuckDBPyConnection, where: str, params: list[object]) -> np.ndarray:
    """Remove the chunks `where` selects (their postings stay, see the module docstring); returns their
    ids, which the caller masks once the transaction has committed. Stored weights do not change, so
    cached postings stay valid."""
    cur.execute(f"CREATE OR REPLACE TEMP TABLE gone AS SELECT id, text FROM chunks WHERE {where}", params)
    ids = np.asarray(cur.execute("SELECT id FROM gone").fetchnumpy()["id"], dtype=np.int64)
    if len(ids):
        uncount_terms(cur, "gone")
        cur.execute("INSERT INTO dead SELECT id FROM gone")
        cur.execute(f"DELETE FROM chunks WHERE {where}", params)
    if len(ids) >= DROP_TEMP_ROWS:
        cur.execute("DROP TABLE gone")
        cur.execute("DROP TABLE df_delta")
    return ids


def uncount_terms(cur: duckdb.DuckDBPyConnection, gone: str) -> None:
    """Lower the document frequencies by the terms of the removed chunks in table (or view) `gone`
    (columns id, text), tokenised again."""
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE df_delta AS SELECT t.tid, count(*) AS n "
        f"FROM ({term_counts_sql(gone)}) g JOIN terms t USING (term) GROUP BY t.tid"
    )
    _shift_df(cur, sign=-1)


def _shift_df(cur: duckdb.DuckDBPyConnection, sign: int) -> None:
    """Add `sign` × n to the df of each (tid, n) row of the temp table `df_delta`. A term whose df falls to
    0 keeps its row and id until refresh_weights rebuilds `terms`: deleting it here was one more scan of
    `terms` per update, and a query for it finds only masked postings."""
    cur.execute(f"UPDATE terms SET df = terms.df + {sign} * d.n FROM df_delta d WHERE terms.tid = d.tid")
