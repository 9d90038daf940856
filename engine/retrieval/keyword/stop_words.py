"""The keyword arm's candidates for a query made of stop words alone ("before anything goes").

Stop words are not terms (tokenize.py), so such a query has no postings to sum and the keyword arm
used to return nothing: "before anything goes", copied from a recipe, answered "No matches" where
Recoll, which indexes every word, found the recipe (bench/recoll_known_item.py). Its chunks are instead
found by their text: the chunks whose text holds the query's words in order (a case-blind RE2 match,
the words with anything between them), at most k, inside the scope. The typed-words signal (phrase.py) then
tells the chunks that hold the words as a phrase from those that hold them apart, and gives them their
evidence; their keyword score stays 0 (the query has no term to weigh).

This reads every chunk's text, so it runs only for these queries, which had no keyword answer at all
before; a query with one real term keeps the postings path. At 100k chunks of ~1 KB (one DuckDB thread)
the match cost 76 ms CPU where `ILIKE '%w1%w2%'` cost 324 ms and `lower(text) LIKE` 116 ms.
"""

from __future__ import annotations

import re

import duckdb

from engine.paths import subtree_range
from engine.retrieval.fusion import ChunkKey, Hit
from engine.retrieval.keyword.phrase import typed_words


def stop_word_hits(
    cur: duckdb.DuckDBPyConnection, query: str, k: int, scope: str | None = None
) -> tuple[list[Hit], dict[ChunkKey, str]]:
    """Up to k chunks whose text holds the query's words in order (the module docstring), with their
    text, in id order (the order they were written), each scored 0."""
    words = typed_words(query)
    if not words or k <= 0:
        return [], {}
    sql = "SELECT path, chunk_index, text FROM chunks WHERE regexp_matches(text, ?)"
    # whole words (RE2 \b): "for" must not find the abbreviation "FORs" (tests/retrieval/test_query_terms.py)
    params: list[object] = ["(?is)" + ".*".join(rf"\b{re.escape(w)}\b" for w in words)]
    if scope is not None:
        low, high = subtree_range(scope)
        sql += " AND (path = ? OR (path >= ? AND path < ?))"
        params += [scope, low, high]
    rows = cur.execute(sql + " ORDER BY id LIMIT ?", [*params, k]).fetchall()
    hits = [Hit(path, int(index), 0.0) for path, index, _ in rows]
    return hits, {hit.key: text or "" for hit, (_, _, text) in zip(hits, rows, strict=True)}
