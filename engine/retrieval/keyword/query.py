"""What a keyword query needs to know about its own words, read in one statement and kept until a write.

A hybrid search used to ask DuckDB about the query's words three times: the term ids for the postings
(bm25.py), the query's reference score for calibrated fusion (the idfs of its terms, fusion.py), and
the stemmed terms again for the snippets (terms.py, on a second DuckDB connection behind a lock). Each
statement tokenised and stemmed the query anew, and on two busy cores every round trip costs a wake-up
(bench/compare.py; docs/search-latency.md). `QUERY_SQL` answers all three at once: one row per distinct
stemmed term of the query (stop words dropped, as in documents), with its term id and df when the
corpus has it, and its idf at the current corpus size.

`QueryTermCache` keeps the answer per query text until the index's write generation moves (a write can
add a term, change a df or the corpus size), so a repeated query costs no statement at all.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import duckdb

from engine.retrieval.fusion import ChunkKey, Hit
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.generation_map import GenerationMap
from engine.retrieval.keyword.writes import idf

QUERIES_KEPT = 1024

QUERY_SQL = f"""
    WITH q(term) AS ({tokenize.query_terms_sql("?")}), n AS (SELECT count(*)::DOUBLE AS n FROM chunks)
    SELECT q.term, t.tid, coalesce(t.df, 0), n.n FROM q LEFT JOIN terms t ON t.term = q.term, n"""


@dataclass(frozen=True)
class QueryTerms:
    """A query's stemmed terms, the ids of those the corpus has, and its reference score."""

    terms: frozenset[str]  # every distinct stemmed term, known to the corpus or not (snippets mark these)
    tids: tuple[int, ...]  # the ids of the terms the corpus has (their postings are summed)
    reference: float  # the sum of the terms' idfs, an absent term at df 0 (KeywordIndex.query_reference)


NO_TERMS = QueryTerms(frozenset(), (), 0.0)


def no_change(tid: int) -> int:
    """No df change the table lacks (an index whose writes are all written)."""
    return 0


def read_query_terms(
    cur: duckdb.DuckDBPyConnection, query: str, unwritten: Callable[[int], int] = no_change
) -> QueryTerms:
    """The query's terms, by one statement (the module docstring); `unwritten(tid)` is the change of a
    term's df that the table does not hold yet (pending_writes.py)."""
    if not query.strip():
        return NO_TERMS
    rows = cur.execute(QUERY_SQL, [query]).fetchall()
    terms = frozenset(term for term, _, _, _ in rows if term)
    tids = tuple(sorted(int(tid) for term, tid, _, _ in rows if term and tid is not None))
    idfs = [
        idf(float(size), int(df) + (0 if tid is None else unwritten(int(tid))))
        for term, tid, df, size in rows
        if term
    ]
    return QueryTerms(terms, tids, math.fsum(idfs))


class QueryTermCache(GenerationMap[str, QueryTerms]):
    """Query text → its QueryTerms, for the write generation it was read at (generation_map.py)."""

    def __init__(self, kept: int = QUERIES_KEPT):
        super().__init__(kept)


@dataclass(frozen=True)
class KeywordAnswer:
    """A keyword search's hits (best first) with their text, and the query's terms (KeywordIndex.answer);
    for a query of several terms, how many of them each hit holds, from the postings that scored it
    (coordination.py)."""

    hits: list[Hit]
    texts: dict[ChunkKey, str]
    terms: QueryTerms
    held: dict[ChunkKey, int] = field(default_factory=dict)
