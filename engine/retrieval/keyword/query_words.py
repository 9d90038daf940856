"""A query's terms without DuckDB's tokenising SQL: split in Python, stems and term rows kept in memory.

Measured at 100k chunks (docs/search-latency.md): the statement that tokenises a query in SQL and looks
its terms up (keyword_query.QUERY_SQL) cost 6.3 ms of CPU per new query, 4 ms of it the tokenising
pipeline (regexp_replace, string_split_regex, a DISTINCT over a subquery, the stop list's hash join)
and 1.5-1.9 ms the corpus size (`count(*)`), where the query itself is a few words. For an ASCII query
the same pipeline is a few string operations in Python: lower-case, the extension's `ignore` characters
to spaces, split on the white space RE2's `\\s` means, drop the stop words; the words are stemmed by the
extension's own Porter stemmer through PyStemmer and kept (the memo is the process's one,
point_tokens.shared_stems, which the snippets and small writes use too), and a term's id and df and the
corpus size are kept for one write generation (a write can change any of them). A query whose terms
are all known costs no statement; otherwise one statement looks up the new terms.
A query with non-ASCII text goes through the SQL (DuckDB's `lower` and `strip_accents` are Unicode's,
which Python's need not match).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

import duckdb

from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.point_tokens import Stems, shared_stems
from engine.retrieval.keyword.query import NO_TERMS, QueryTerms, no_change
from engine.retrieval.keyword.writes import idf
from engine.retrieval.sql_literal import sql_string

TERMS_KEPT = 200_000
Rows = dict[str, tuple[int | None, int]]  # term -> (its id, None when the corpus lacks it; its df)

# The terms are written into the statement, not bound: DuckDB's Python client tries to import pandas on
# every statement with parameters, and where pandas is not installed (the app) each failed import searches
# sys.path again, ~0.35 ms a statement. An IN list of literals, not a join of the split words with `terms`:
# both plans look the terms up in its ART, but the join's unnest, projection and hash join cost 0.74-0.77
# ms of CPU for three new terms at 100k chunks where the IN list costs 0.36-0.39 (duckdb 1.5, load ~7;
# bench/keyword_first_read.py). A term the corpus lacks is simply absent from the rows.
_LOOKUP_SQL = "SELECT term, tid, df FROM terms WHERE term IN ({terms})"


class TermLookup:
    """Word → stem, kept (in `stems`, by default the process's memo); term → (id, df) and the corpus size,
    kept for one write generation."""

    def __init__(self, stems: Stems | None = None) -> None:
        self._lock = threading.Lock()
        self._stems = shared_stems() if stems is None else stems
        self._terms: Rows = {}
        self._generation = -1
        self._size: float | None = None

    def query_terms(
        self,
        cur: duckdb.DuckDBPyConnection,
        query: str,
        generation: int,
        unwritten: Callable[[int], int] = no_change,
        kept: Callable[[list[str]], Rows | None] = lambda terms: None,
    ) -> QueryTerms | None:
        """The query's terms, as keyword_query.read_query_terms gives them; None for a non-ASCII query.
        `generation` is the index's write generation, read before this call; `unwritten(tid)` is the change
        of a term's df that the table does not hold yet (pending_writes.py); `kept(terms)` gives the rows of
        terms new to this lookup without a statement, or None (reading.py: from the resident snapshot)."""
        words = tokenize.ascii_words(query)
        if words is None or "\x00" in query:  # a NUL cannot go into the lookup's literal
            return None
        if not words:
            return NO_TERMS
        distinct = set(words)
        stems = self._stems.of(distinct)  # in Python (point_tokens.Stems): no statement
        wanted = set(stems.values()) - {""}
        with self._lock:
            if generation > self._generation:
                self._terms, self._size, self._generation = {}, None, generation
            current = generation == self._generation  # else a later write is kept: ask the store
            rows = {t: self._terms[t] for t in wanted if current and t in self._terms}
            size = self._size if current else None
        missing = sorted(wanted - rows.keys())
        found = kept(missing) if missing else None
        if found is not None:
            rows.update(found)
            missing = []
        for term in missing:  # absent from the corpus unless the lookup finds it
            rows[term] = (None, 0)
        if missing:
            literals = ", ".join(sql_string(term) for term in missing)  # stems of ASCII words: no NUL
            for term, tid, df in cur.execute(_LOOKUP_SQL.format(terms=literals)).fetchall():
                rows[term] = (int(tid), int(df or 0) + unwritten(int(tid)))
        if size is None:
            row = cur.execute("SELECT count(*) FROM chunks").fetchone()
            size = float(row[0]) if row else 0.0
        self._keep(generation, rows, size)
        tids = tuple(sorted(tid for tid, _ in (rows[t] for t in wanted) if tid is not None))
        idfs = [idf(size, rows[t][1]) for t in wanted]
        return QueryTerms(frozenset(wanted), tids, math.fsum(idfs))

    def _keep(self, generation: int, rows: Rows, size: float) -> None:
        """Keep the term rows and corpus size if no write ended since they were read."""
        with self._lock:
            if generation != self._generation:
                return
            if len(self._terms) + len(rows) > TERMS_KEPT:
                self._terms = {}
            self._terms.update(rows)
            self._size = size
