"""The keyword index's tables and its format: what `KeywordIndex` creates at open, and when it starts empty.

`chunks(id, path, chunk_index, len, text)`, `postings(tid, chunk_id, tf, w)` with the BM25 weight `w`
precomputed, `terms(term, tid, df)`, `meta` (format, counters) and `dead` (removed chunks whose postings
stay until `refresh_weights`). An index written in another format is emptied at open and refilled by the
engine's start-up repair from the chunk texts the vector store keeps.
"""

from __future__ import annotations

import logging

import duckdb

from engine.retrieval.keyword.change_count import ensure_mark
from engine.retrieval.keyword.pending import ensure_marker

log = logging.getLogger(__name__)

# Bumped whenever tokenisation or the tables change: an index of another format is emptied at open,
# and the engine's start-up repair refills it from the chunk texts the vector store keeps (no embedding).
# 4: written with a checkpoint after opening (format 3 files may hold an ART that lost a WAL's rows).
# 5: single letters are indexed and query stop words dropped (tokenize.STOPWORDS).
FORMAT = 5.0

# Point lookups a query makes: its few terms among all terms, and its top chunks' paths among all chunks.
# Without these DuckDB scans both tables for every query (docs/search-latency.md has the figures).
TERMS_INDEX = "CREATE INDEX IF NOT EXISTS terms_by_term ON terms(term)"
CHUNKS_INDEX = "CREATE INDEX IF NOT EXISTS chunks_by_id ON chunks(id)"
# A one-file update finds the file's chunks by path (a scan of every path cost 5 ms at 100k chunks).
PATHS_INDEX = "CREATE INDEX IF NOT EXISTS chunks_by_path ON chunks(path)"

TABLES = ("chunks", "postings", "terms", "meta", "dead")

SCHEMA = [
    "CREATE SEQUENCE IF NOT EXISTS chunk_id_seq",
    "CREATE SEQUENCE IF NOT EXISTS term_id_seq",
    "CREATE TABLE IF NOT EXISTS chunks "
    "(id BIGINT, path VARCHAR, chunk_index INTEGER, len INTEGER, text VARCHAR)",
    "CREATE TABLE IF NOT EXISTS postings (tid INTEGER, chunk_id BIGINT, tf INTEGER, w FLOAT)",
    "CREATE TABLE IF NOT EXISTS terms (term VARCHAR, tid INTEGER, df BIGINT)",
    "CREATE TABLE IF NOT EXISTS meta (key VARCHAR, value DOUBLE)",
    # removed chunks whose postings are still in `postings` until refresh_weights (chunk_filter.py)
    "CREATE TABLE IF NOT EXISTS dead (chunk_id BIGINT)",
    TERMS_INDEX,
    CHUNKS_INDEX,
    PATHS_INDEX,
]


def prepare_tables(root: duckdb.DuckDBPyConnection) -> None:
    """Create the tables; an index written in another format is dropped first (recreated empty)."""
    existing = {
        row[0]
        for row in root.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
        ).fetchall()
    }
    stored = None
    if "meta" in existing:
        row = root.execute("SELECT max(value) FROM meta WHERE key = 'format'").fetchone()
        stored = row[0] if row else None
    if stored != FORMAT and existing & set(TABLES):
        log.warning(
            "keyword index format %s replaced by %s; it is rebuilt from the stored chunks", stored, FORMAT
        )
        for table in TABLES:
            if table in existing:
                root.execute(f"DROP TABLE {table}")
    for statement in SCHEMA:
        root.execute(statement)
    if stored != FORMAT:
        root.execute("DELETE FROM meta WHERE key = 'format'")
        root.execute("INSERT INTO meta VALUES ('format', ?)", [FORMAT])
    ensure_mark(root)  # what stale_ratio counts from (change_count.py)
    ensure_marker(root)
