"""What a keyword query costs the first time its words are seen, stage by stage, and why (issue 30).

bench/compare.py's real-text queries are all new to the process, so every one pays the keyword arm's
cold path: the terms' ids and dfs (one statement), their postings (one statement), the top-k in numpy,
and the k winners' rows with their text (one statement); a query seen before pays the top-k alone.
This opens a store `bench/compare.py --keep DIR` built, draws the same queries, and times each stage in
CPU of the calling thread (DuckDB runs queries on it: QUERY_THREADS = 1), so the figures hold on a loaded
machine where wall times do not:

- first pass: every query once, as the bench meets them (DuckDB loads each block the first time a
  statement touches it);
- second pass: the same queries with the index's own caches emptied but DuckDB's blocks loaded, so what
  is left is the statements' own cost;
- kept pass: the same again with the rarer terms' postings read in the background first and kept
  (resident_postings.py: every term at 100k chunks), as a query meets them once the app has read them;
- the first pass by position: where block loads fall (a query's 50 winners touch ~45 of the text
  column's 256 KB blocks until most are loaded);
- the term lookup's statement as it was (the split words joined with `terms`) and as it is (an IN list).

    python bench/keyword_first_read.py DIR [--queries 200]

DIR is the folder `bench/compare.py --keep` wrote the real text into (its `real` subfolder) or the
synthetic one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_text import real_queries

from engine.retrieval.keyword.chunk_rows import ChunkRows
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.postings_cache import PostingsCache, top_k
from engine.retrieval.keyword.query import QueryTermCache
from engine.retrieval.keyword.query_words import TermLookup
from engine.retrieval.keyword.resident_postings import ResidentLoader
from engine.retrieval.sql_literal import sql_string

STAGES = ("terms", "postings", "top-k", "winners")


def cpu_ms(step: Callable[[], object]) -> tuple[object, float]:
    began = time.thread_time()
    out = step()
    return out, (time.thread_time() - began) * 1000


def stages(index: KeywordIndex, query: str) -> list[float] | None:
    """CPU ms of each stage of `KeywordReading.answer` for one query; None when it has no known term."""
    cur = index._reader()
    terms, a = cpu_ms(lambda: index._query_terms(cur, query))
    tids = list(terms.tids)  # type: ignore[attr-defined]
    if not tids:
        return None
    postings, b = cpu_ms(lambda: index._term_postings(cur, tids))
    best, c = cpu_ms(lambda: top_k(postings, 50, None, index._filter.dead))  # type: ignore[arg-type]
    _, d = cpu_ms(lambda: index._kept_winners(cur, [chunk_id for chunk_id, _ in best]))  # type: ignore[attr-defined]
    return [a, b, c, d]


def forget(index: KeywordIndex, kept: bool = False) -> None:
    """Empty the index's own caches (postings, rows, query terms); DuckDB keeps its loaded blocks. With
    `kept`, the postings read in the background at the first query (resident_postings.py) stay."""
    resident = index._postings._resident
    index._postings, index._rows = PostingsCache(), ChunkRows()
    index._terms_of, index._words = QueryTermCache(), TermLookup()
    if kept and resident is not None:
        index._postings.install(resident)


def report(name: str, times: np.ndarray) -> None:
    parts = [
        f"{stage} p50 {np.percentile(times[:, i], 50):.2f} p95 {np.percentile(times[:, i], 95):.2f}"
        for i, stage in enumerate(STAGES)
    ]
    total = times.sum(axis=1)
    print(
        f"{name:12} "
        + " | ".join(parts)
        + f" | all p50 {np.median(total):.2f} p95 {np.percentile(total, 95):.2f}"
    )


def lookup_forms(index: KeywordIndex, queries: list[str]) -> None:
    """The term lookup's statement, old and new form, on the queries' own stems (CPU ms per statement)."""
    cur = index._reader()
    stems = [sorted(index.answer(q, 1).terms.terms) for q in queries]
    forms = {
        "join of the split words": lambda ts: (
            "SELECT s.term, t.tid, t.df FROM (SELECT unnest(string_split("
            f"{sql_string(' '.join(ts))}, ' ')) AS term) s LEFT JOIN terms t ON t.term = s.term"
        ),
        "IN list": lambda ts: (
            f"SELECT term, tid, df FROM terms WHERE term IN ({', '.join(map(sql_string, ts))})"
        ),
    }
    for name, form in forms.items():
        statements = [form(ts) for ts in stems if ts]
        took = [cpu_ms(lambda sql=sql: cur.execute(sql).fetchall())[1] for sql in statements]
        print(f"term lookup, {name:24} p50 {np.median(took):.2f} p95 {np.percentile(took, 95):.2f} ms CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path, help="a folder bench/compare.py --keep built")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    saved = json.loads((args.store / "built.json").read_text())
    samples = np.load(args.store / "samples.npy")
    drawn = real_queries(saved["texts"], samples, args.queries, np.random.default_rng(2025))
    queries = [query for query, _ in drawn]  # compare.py --keep draws the same
    index = KeywordIndex(args.store / "k.duckdb")
    block = index._reader().execute("SELECT block_size FROM pragma_database_size()").fetchone()
    print(f"{saved['rows']:,} chunks, block size {block[0] if block else '?'}; load {os.getloadavg()[0]:.1f}")
    index._loading.stop()  # the first two passes read every postings list by statement, as before
    first = np.array([t for t in (stages(index, q) for q in queries) if t is not None])
    forget(index)
    second = np.array([t for t in (stages(index, q) for q in queries) if t is not None])
    report("first pass", first)
    report("second pass", second)
    index._loading = ResidentLoader(index._postings.install)
    began = time.process_time()
    index._loading.start(index._root.cursor, index._postings.generation())
    index._loading.wait()
    print(
        f"postings kept in memory: {index._postings.resident_nbytes() / 2**20:.1f} MB, read in "
        f"{time.process_time() - began:.2f} CPU-s"
    )
    forget(index, kept=True)
    third = np.array([t for t in (stages(index, q) for q in queries) if t is not None])
    report("kept pass", third)
    by = [f"{first[i : i + 20].sum(axis=1).mean():.2f}" for i in range(0, len(first), 20)]
    print("first pass, mean ms CPU per 20 queries in order: " + " ".join(by))
    lookup_forms(index, queries)
    print(f"load {os.getloadavg()[0]:.1f}")
    index.close()


if __name__ == "__main__":
    main()
