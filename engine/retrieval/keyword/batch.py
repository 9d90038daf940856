"""The half of a bulk keyword insert that reads nothing of the index: the batch's split into words, its
vocabulary and its (chunk, term) counts, made before the write transaction begins.

DuckDB scans a temp table created inside the transaction that reads it on one thread (its rows are still
in the transaction's local storage): inside the write transaction a plain `sum(hash(w))` over a batch's
4.5M words ran with a per-thread CPU share of 1.00, outside it 0.54, and the count over those words took
1.27 s of wall for 1.5 s of CPU inside, 0.65 s outside (50k chunks, load 1.1). So these statements run in
autocommit mode on the writer cursor, under the write lock, and the transaction (`keyword_writes.
insert_rows`) only maps the batch's own term numbers (`lid`) to the index's term ids and writes.

The terms are numbered per batch because their index ids are not known yet (new terms get theirs in the
transaction); the count joins every word to that small word -> number table and groups on one BIGINT.
Staging writes nothing to the database file, not even a sequence: its chunks are numbered 0..n-1 and the
transaction adds the first of the n consecutive ids it draws. Drawing them here (an autocommit write) made
DuckDB run its automatic checkpoint there, before the second batch, and again at the refresh's commit: 0.6
s more of a 100k build than one checkpoint at the second batch's commit. A write that fails after staging
leaves only temp tables, which the next batch replaces or drops.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import duckdb
import numpy as np
import Stemmer

from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.writes import DROP_TEMP_ROWS, kept_words_sql

if TYPE_CHECKING:
    import pyarrow as pa

# The batch is scanned from Arrow in record batches of this many rows. DuckDB parallelises a table scan by
# row group (122,880 rows), so the split of a 50k-chunk batch read from a temp table ran on one thread
# (per-thread CPU share 1.00); from Arrow each record batch is a task for whichever thread is free (2
# threads: 0.51 each, the same CPU).
SCAN_ROWS = 4_096
# What `staged` leaves for insert_rows: the batch itself as `new_chunks` (id, path, chunk_index, text;
# registered Arrow) and these temp tables.
STAGED_TABLES = ("new_words", "new_vocab", "new_lterm", "new_word_lid", "new_post", "new_len", "new_ldf")


@contextmanager
def staged(cur: duckdb.DuckDBPyConnection, incoming: pa.Table) -> Iterator[None]:
    """Stage a batch (path, chunk_index, text) outside any transaction, for `keyword_writes.insert_rows`
    inside the one that follows; the batch stays registered until the block ends."""
    import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

    # batch-local chunk numbers 0..n-1; insert_rows adds the first id it draws
    table = incoming.append_column("id", pa.array(np.arange(incoming.num_rows, dtype=np.int64)))
    cur.register("new_chunks", pa.Table.from_batches(table.to_batches(SCAN_ROWS), schema=table.schema))
    try:
        _stage(cur)
        yield
    finally:
        with contextlib.suppress(duckdb.Error):  # a damaged connection: the caller reports that error
            cur.unregister("new_chunks")
            if incoming.num_rows >= DROP_TEMP_ROWS:
                for name in STAGED_TABLES:
                    cur.execute(f"DROP TABLE IF EXISTS {name}")


def _stage(cur: duckdb.DuckDBPyConnection) -> None:
    cur.execute(f"CREATE OR REPLACE TEMP TABLE new_words AS {kept_words_sql('new_chunks')}")
    _stage_vocabulary(cur)
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE new_lterm AS "
        "SELECT term, (row_number() OVER ())::INTEGER AS lid FROM (SELECT DISTINCT term FROM new_vocab)"
    )
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE new_word_lid AS "
        "SELECT w, lid FROM new_vocab JOIN new_lterm USING (term)"
    )
    # every kept word has a term (the stem of a word is never NULL), so a chunk's length is its word count
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE new_len AS "
        "SELECT id AS chunk_id, count(*)::INTEGER AS len FROM new_words GROUP BY id"
    )
    counts = _posting_counts_sql("new_words", "new_word_lid")
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE new_post AS "
        f"SELECT c.chunk_id, c.lid, c.tf, l.len FROM ({counts}) c JOIN new_len l USING (chunk_id)"
    )
    cur.execute(
        "CREATE OR REPLACE TEMP TABLE new_ldf AS SELECT lid, count(*) AS n FROM new_post GROUP BY lid"
    )


def _stage_vocabulary(cur: duckdb.DuckDBPyConnection) -> None:
    """`new_vocab` (w, term): the batch's distinct words, each with its stem, stemmed in Python by
    PyStemmer (Snowball's Porter stemmer, which the FTS extension's `stem` compiles in: the same stems,
    point_tokens.Stems says how that is checked). DuckDB's `stem` builds a stemmer for every word: 0.53 of
    a 100k real-text build's CPU-s went to it (statement-timed, load 5.6); here the words are read out,
    stemmed by one stemmer and read back from Arrow."""
    import pyarrow as pa  # loaded by the writes that use it: a keyword peek loads none (issue 30)

    words = cur.execute("SELECT DISTINCT w FROM new_words").to_arrow_table().column(0).to_pylist()
    stems = Stemmer.Stemmer(tokenize.STEMMER, 0).stemWords(words)  # its own: no lock held by queries
    vocab = pa.table({"w": pa.array(words, pa.string()), "term": pa.array(stems, pa.string())})
    cur.register("new_vocab_arrow", vocab)
    try:
        cur.execute("CREATE OR REPLACE TEMP TABLE new_vocab AS SELECT w, term FROM new_vocab_arrow")
    finally:
        cur.unregister("new_vocab_arrow")


def _posting_counts_sql(words: str, word_lid: str) -> str:
    """Rows (chunk_id, lid, tf) counted from table `words` (id, w) and table `word_lid` (w, lid): grouped on
    one BIGINT key (chunk id << 32 | lid) instead of two columns, 1.65 -> 1.33 s of CPU per 50k chunks
    (load 3.6), the same rows (an EXCEPT both ways is empty). Term numbers are non-negative INTEGERs."""
    return f"""
        SELECT (k >> 32) AS chunk_id, (k & 4294967295)::INTEGER AS lid, tf FROM (
            SELECT (n.id << 32) | v.lid AS k, count(*)::INTEGER AS tf
            FROM {words} n JOIN {word_lid} v USING (w) GROUP BY k)"""
