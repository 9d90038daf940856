"""What the slowest hybrid searches spend their time on, against the typical one (issue 30's p95).

`bench/compare.py --corpus real` reads our hybrid's p95 against LanceDB's native hybrid's; this opens the
store a `compare.py --keep DIR` run built, draws the same real queries (every one new to the process, as
there) and runs each through `HybridSearch.search` and LanceDB's native hybrid in turn, timing our search
(wall, and process CPU: every thread, LanceDB's too) and its stages with timers around its own
collaborators (nothing replaced): the keyword arm's stages (the query's terms, their postings, the top-k,
the winners' rows; wall and the caller's thread CPU), the keyword arm whole, what is done ahead while the
vector search runs, the vector arm (started to collected), the wait for it, the work after both arms, and
the garbage collections that fell inside the search. Then it prints each stage's mean over the queries at
or above our p95 beside its mean over the middle fifth (p40-p60), and LanceDB's time for the same
queries, so the tail can be read stage by stage.

    python bench/hybrid_tail.py DIR [--queries 200] [--scope FOLDER] [--cold-blocks]

By default every block of the keyword index's tables is read first (its own caches stay empty), as
compare.py's in-process build leaves them; `--cold-blocks` times the first queries after a reopen instead.

DIR is the folder `bench/compare.py --keep` was given (the real text is in DIR/real).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("LANCEDB_LOG", "error")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import CANDIDATES, lance_hybrid
from hybrid_steps import Steps, instrument
from lancedb.rerankers import RRFReranker
from real_text import real_queries
from search_latency import DIM

from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword import reading
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.vectors import VectorIndex, search_breadth

KEYWORD_STAGES = ("terms", "postings", "top-k", "winners")
SHOWN = (
    "search",
    "search CPU",
    *(f"kw {s}" for s in KEYWORD_STAGES),
    *(f"kw {s} CPU" for s in KEYWORD_STAGES),
    "kw answer",
    "kw answer CPU",
    "keyword arm",
    "ahead",
    "vector arm",
    "vector wait",
    "after arms",
    "gc",
    "LanceDB hybrid",
)


def timed_cpu(steps: Steps, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, adding its wall time to `name` and its thread CPU to `name CPU`."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        began, began_cpu = time.perf_counter(), time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            steps.add(name, time.perf_counter() - began)
            steps.add(name + " CPU", time.thread_time() - began_cpu)

    return wrapper


def instrument_keywords(index: KeywordIndex, steps: Steps) -> None:
    """Timers around the keyword arm's four stages (KeywordReading.answer's collaborators)."""
    index._query_terms = timed_cpu(steps, "kw terms", index._query_terms)  # type: ignore[method-assign]
    index._term_postings = timed_cpu(steps, "kw postings", index._term_postings)  # type: ignore[method-assign]
    index._kept_winners = timed_cpu(steps, "kw winners", index._kept_winners)  # type: ignore[method-assign]
    reading.top_k = timed_cpu(steps, "kw top-k", reading.top_k)  # type: ignore[attr-defined]
    index.answer = timed_cpu(steps, "kw answer", index.answer)  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path, help="the folder bench/compare.py --keep was given")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--scope", default=None)
    parser.add_argument(
        "--cold-blocks",
        action="store_true",
        help="leave DuckDB's blocks unread, as after a reopen (by default every block of the keyword "
        "index's tables is read first, as compare.py's in-process build leaves them)",
    )
    args = parser.parse_args()
    kept = args.store / "real"
    saved = json.loads((kept / "built.json").read_text())
    keywords = KeywordIndex(kept / "k.duckdb")
    if not args.cold_blocks:  # blocks loaded, the index's own caches empty: compare.py after its build
        keywords._reader().execute(
            "SELECT sum(length(text)), sum(len), sum(id), sum(chunk_index), count(DISTINCT path) FROM chunks"
        ).fetchall()
        keywords._reader().execute("SELECT sum(tid), sum(chunk_id), sum(w) FROM postings").fetchall()
        keywords._reader().execute("SELECT count(DISTINCT term), sum(tid), sum(df) FROM terms").fetchall()
    vectors = VectorIndex(kept / "vectors", DIM)
    drawn = real_queries(
        saved["texts"], np.load(kept / "samples.npy"), args.queries, np.random.default_rng(2025)
    )
    search = HybridSearch(keywords, vectors, embedder=None, exists=lambda _p: True)  # type: ignore[arg-type]
    table, reranker = vectors._table, RRFReranker()
    ef = search_breadth(CANDIDATES, vectors.count())
    steps = Steps()
    instrument(search, steps)
    instrument_keywords(keywords, steps)
    collections = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections[0] = time.perf_counter()
        else:
            steps.add("gc", time.perf_counter() - collections[0])

    gc.callbacks.append(on_gc)
    for query, vector in drawn[:3]:  # first touches of both stores; these queries are asked again below
        lance_hybrid(table, query, vector, args.scope, reranker, ef)
    samples: dict[str, list[float]] = {name: [] for name in SHOWN}
    for n, (query, vector) in enumerate(drawn):
        steps.spans, steps.marks = {}, {}
        lance_first = n % 2 == 1
        if lance_first:
            began = time.perf_counter()
            lance_hybrid(table, query, vector, args.scope, reranker, ef)
            lance_took = time.perf_counter() - began
        began, began_cpu = time.perf_counter(), time.process_time()
        search.search(query, scope=args.scope, vector=vector)
        steps.add("search", time.perf_counter() - began)
        steps.add("search CPU", time.process_time() - began_cpu)
        steps.add("after arms", time.perf_counter() - steps.marks["arms in"])
        if "keyword arm ended" in steps.marks and "vector wait began" in steps.marks:
            steps.add("ahead", max(0.0, steps.marks["vector wait began"] - steps.marks["keyword arm ended"]))
        if not lance_first:
            began = time.perf_counter()
            lance_hybrid(table, query, vector, args.scope, reranker, ef)
            lance_took = time.perf_counter() - began
        steps.add("LanceDB hybrid", lance_took)
        for name in SHOWN:
            samples[name].append(steps.spans.get(name, 0.0) * 1000)
    gc.callbacks.remove(on_gc)
    report(samples, args, saved["rows"], drawn)
    keywords.close()


def report(samples: dict[str, list[float]], args: argparse.Namespace, rows: int, drawn: list) -> None:
    ours = np.asarray(samples["search"])
    theirs = np.asarray(samples["LanceDB hybrid"])
    tail = ours >= np.percentile(ours, 95)
    middle = (ours >= np.percentile(ours, 40)) & (ours <= np.percentile(ours, 60))
    print(
        f"hybrid search, real text, {rows:,} chunks, {len(ours)} queries, "
        f"{'scope ' + args.scope if args.scope else 'unscoped'}; "
        f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        f"ours p50 {np.percentile(ours, 50):.2f} p95 {np.percentile(ours, 95):.2f} ms; LanceDB native hybrid "
        f"p50 {np.percentile(theirs, 50):.2f} p95 {np.percentile(theirs, 95):.2f} ms; "
        f"×{np.percentile(ours, 50) / np.percentile(theirs, 50):.2f} / "
        f"×{np.percentile(ours, 95) / np.percentile(theirs, 95):.2f}"
    )
    print(f"  {'stage (ms)':<18} {'mean p40-p60':>13} {'mean >= p95':>12} {'p50 all':>8} {'p95 all':>8}")
    for name in SHOWN:
        times = np.asarray(samples[name])
        print(
            f"  {name:<18} {times[middle].mean():13.2f} {times[tail].mean():12.2f} "
            f"{np.percentile(times, 50):8.2f} {np.percentile(times, 95):8.2f}"
        )
    print("  the slowest queries (ours ms, LanceDB ms, keyword arm ms, vector arm ms, gc ms):")
    for i in np.argsort(-ours)[: max(1, len(ours) // 20)]:
        print(
            f"    {drawn[i][0][:40]!r:44} {ours[i]:7.2f} {theirs[i]:7.2f} "
            f"{samples['keyword arm'][i]:7.2f} {samples['vector arm'][i]:7.2f} {samples['gc'][i]:6.2f}"
        )


if __name__ == "__main__":
    main()
