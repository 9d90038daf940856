"""The SQL of the keyword index's writes: a batch's chunks in, a set of chunks out (bm25.py owns the tables,
the transaction and the caches; these functions run inside its write transaction, on its writer cursor).

Inserting weights and writes a whole batch in bulk, split and counted beforehand (keyword_batch.py). Every
join is between the batch's own temp tables, plus one pass over `terms` to read the batch's term ids and
document frequencies; the corpus
statistics are bound as two numbers. Joining a `stats` CTE (and the whole `chunks` table) let the planner
build a chunks × terms cross product that made a first batch of 20k chunks take 42 s.

Removing leaves the chunks' postings in place: their ids go to the `dead` table, the index masks them out
of every query (chunk_filter.py) and `refresh_weights` deletes them in one pass. The terms' document
frequencies are counted from the removed chunks' own text, tokenised again. Both replace two scans of the
whole postings table per removed file (43 ms at 100k chunks, ten times that at 1M).
"""

from __future__ import annotations

import math
import re

import duckdb
import numpy as np

from engine.retrieval.keyword import tokenize
from engine.retrieval.sql_literal import sql_string

K1 = 1.2
B = 0.75
# `impacts`' exact form of weight_sql's DECIMAL literal `K1 + 1` (tf times it is exact in SQL)
_K1_PLUS_1_TENTHS = round((K1 + 1) * 10)
assert f"{K1 + 1}" == f"{_K1_PLUS_1_TENTHS / 10}", "the DECIMAL literal must have one decimal digit"
# Temp tables of a batch at least this big are dropped at its end; smaller ones stay until the next write
# replaces them (each DROP is one more statement in a one-file update, which runs ~25 of them).
DROP_TEMP_ROWS = 5_000
# insert_rows' own temp tables (keyword_batch.STAGED_TABLES are the staging's)
_BATCH_TABLES = ("df_delta", "new_df", "fresh_terms", "new_tid")


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
    tf = np.asarray(tf, np.float64)
    norm = K1 * ((1 - B) + B * (np.asarray(length, np.float64) / float(avgdl)))
    return (idfs[where] * ((tf * _K1_PLUS_1_TENTHS) / 10.0 / (tf + norm))).astype(np.float32)


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


def _separators() -> str:
    """Every character the split treats as a separator: RE2's `\\s` (tab, newline, form feed, carriage
    return, space; not the vertical tab) and the characters of tokenize.IGNORE_PATTERN's class, an ASCII
    class without ranges, so Python's `re` reads it as RE2 does."""
    pattern = tokenize.IGNORE_PATTERN
    assert pattern.startswith("[") and pattern.endswith("]+") and "\\s" not in pattern, pattern
    return "\t\n\f\r " + "".join(c for c in map(chr, range(1, 128)) if re.fullmatch(pattern, c) and c != " ")


_SEPARATORS = _separators()


def split_sql(expr: str) -> str:
    """`tokenize.tokenize_sql(expr)` without a regex: every separator character (white space and the ignore
    class) becomes a space with one `translate` and the text is split on ' '. A run of separators gives
    empty tokens where the regex gave one space, and every caller drops empty tokens, so the kept tokens
    are the same (a test compares the two on awkward text). The regex replace was 0.76 of the split's 1.18
    s of CPU per 50k chunks; `translate` costs 0.55 (load 0.4-0.6)."""
    chars, spaces = sql_string(_SEPARATORS), sql_string(" " * len(_SEPARATORS))
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


def insert_rows(cur: duckdb.DuckDBPyConnection, rows: int) -> np.ndarray:
    """Add the batch of `rows` chunks that `keyword_batch.staged` split and counted, with its postings;
    returns the ids of the terms whose postings it changed (the postings cache forgets them).

    The batch's terms (tens of thousands, where its words are millions) are looked up in `terms` once and
    the new ones given ids; every statement after that joins and groups on integers. Counting on (chunk
    id, term string) and then joining the counts to the term ids by string were the two costliest steps
    of the bulk build after the split itself."""
    # The batch's terms with their ids and current df, read in one pass over `terms`; the terms it is the
    # first to use get new ids.
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE new_tid AS "
        "SELECT l.lid, t.tid, t.df FROM new_lterm l JOIN terms t USING (term)"
    )
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE fresh_terms AS "
        "SELECT lid, term, nextval('term_id_seq')::INTEGER AS tid FROM new_lterm "
        "WHERE lid NOT IN (SELECT lid FROM new_tid)"
    )
    cur.execute("INSERT INTO terms SELECT term, tid, 0 FROM fresh_terms")
    cur.execute("INSERT INTO new_tid SELECT lid, tid, 0 FROM fresh_terms")
    first = _first_of_consecutive_ids(cur, rows)
    cur.execute(f"""
        INSERT INTO chunks
        SELECT n.id + {first}, n.path, n.chunk_index, coalesce(l.len, 0)::INTEGER, n.text
        FROM new_chunks n LEFT JOIN new_len l ON l.chunk_id = n.id""")
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE df_delta AS SELECT i.tid, d.n FROM new_ldf d JOIN new_tid i USING (lid)"
    )
    changed = np.asarray(cur.execute("SELECT tid FROM df_delta").fetchnumpy()["tid"], dtype=np.int64)
    _shift_df(cur, sign=1)
    n, avgdl = corpus_stats(cur)
    # Each term's id and idf after the batch, in one small table. The postings insert joins it alone (each
    # posting carries its chunk's length): a temp table made inside the transaction is estimated at 0 rows,
    # and with a third table in the join the planner built its hash table on new_post ⋈ new_df (4.4M rows,
    # 0.8 s) and probed it with the 50k chunk lengths; with two tables it builds on the small one.
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE new_df AS "
        f"SELECT lid, i.tid, {idf_sql('(i.df + d.n)', n)} AS idf FROM new_tid i JOIN new_ldf d USING (lid)"
    )
    # Sorted as refresh_weights sorts the whole table, whose sort then meets sorted runs (2.96 -> 2.28 s CPU).
    # The norm is computed per posting from the same length with the same operations: the same bits.
    cur.execute(f"""
        INSERT INTO postings
        SELECT d.tid, p.chunk_id + {first}, p.tf, {impact_sql("d.idf", "p.tf", norm_sql("p.len", avgdl))}
        FROM new_post p JOIN new_df d USING (lid)
        ORDER BY d.tid, p.chunk_id""")
    if rows >= DROP_TEMP_ROWS:
        for table in _BATCH_TABLES:
            cur.execute(f"DROP TABLE {table}")
    return changed


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
