"""Where one hybrid search's time goes, step by step, on a store kept by `bench/compare.py --keep DIR`.

The arms run at the same time (hybrid.py `_fuse`): the vector search is started on LanceDB's threads and
the keyword arm runs on the caller's thread meanwhile, so the sum of the steps is not the search. The
breakdown says what each step costs inside a real `HybridSearch.search` call (wall time, measured by
timers wrapped around the search's own collaborators, nothing replaced), and what is left over once
the steps are accounted for. Printed per step: p50 and p95 over the queries, and the mean.

    python bench/hybrid_steps.py --keep DIR [--corpus synthetic|real] [--queries 200] [--scope FOLDER]

`--corpus real` reads the real text's stores (DIR/real) with compare.py's real queries (bench/real_text.py).

Steps: `vector arm` (from starting the vector search to its hits collected: it overlaps the keyword
arm), `vector start` (the caller's part of starting it), `keyword arm` (HybridSearch._keyword_answer:
the keyword search, the text of its best hits and their best files' snippets, on the caller's thread),
`ahead` (what needs the keyword arm alone, done once it is in and before the vector hits are collected:
the name field's scores, the keyword hits' words as typed and the best hit's share of the query),
`vector wait` (the caller waiting for the vector hits once that is done), `fuse`, `floor`,
`names` (the name field's scores, within `ahead`), `results` (best chunk per file,
exists checks, pending lookup, snippets) and `snippets` (make_snippets: the keyword arm's
best files' while the vector search runs, and the rest within `results`); `other` is
the search beyond the caller's own path (one_query says which). `after arms` is everything the search does
once both arms are in (fusion, names, floor, best chunk per file, snippets), wall and thread CPU: issue 30
item 3's figure, target ≤ 1.5 ms at 100k chunks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from real_text import real_queries
from search_latency import DIM, make_queries

from engine.retrieval import hybrid as hybrid_module
from engine.retrieval import result_page
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.vectors import VectorIndex

STEPS = (
    "search",
    "vector arm",
    "vector start",
    "keyword arm",
    "ahead",
    "vector wait",
    "fuse",
    "names",
    "floor",
    "results",
    "snippets",
    "other",
    "after arms",
    "after arms CPU",
)
TARGET_AFTER_ARMS_MS = 1.5  # issue 30 item 3: fusion, best chunk per file and snippets, at 100k chunks


class Steps:
    """Wall-clock spans per step for the query being timed."""

    def __init__(self) -> None:
        self.spans: dict[str, float] = {}
        self.marks: dict[str, float] = {}

    def add(self, name: str, seconds: float) -> None:
        self.spans[name] = self.spans.get(name, 0.0) + seconds

    def timed(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            self.marks[name + " began"] = began
            try:
                return fn(*args, **kwargs)
            finally:
                ended = time.perf_counter()
                self.marks[name + " ended"] = ended
                self.add(name, ended - began)

        return wrapper


def instrument(search: HybridSearch, steps: Steps) -> None:
    """Wrap the search's collaborators with timers (the search's code is unchanged)."""
    search._keyword_answer = steps.timed("keyword arm", search._keyword_answer)  # type: ignore[method-assign]
    start = steps.timed("vector start", search.vectors.start_search)

    def timed_start(*args: Any) -> Any:
        steps.marks["vector began"] = time.perf_counter()
        pending = start(*args)
        collect = steps.timed("vector wait", pending.result)

        def result() -> Any:
            try:
                return collect()
            finally:
                steps.add("vector arm", time.perf_counter() - steps.marks["vector began"])
                steps.marks["arms in"] = time.perf_counter()  # both arms are in: what follows is after them
                steps.marks["arms in CPU"] = time.thread_time()

        pending.result = result
        return pending

    search.vectors.start_search = timed_start  # type: ignore[method-assign]
    search._results = steps.timed("results", search._results)  # type: ignore[method-assign]
    search.keywords.name_scores = steps.timed("names", search.keywords.name_scores)  # type: ignore[method-assign]
    hybrid_module.fuse = steps.timed("fuse", hybrid_module.fuse)
    hybrid_module.shown = steps.timed("floor", hybrid_module.shown)
    result_page.make_snippets = steps.timed("snippets", result_page.make_snippets)


def one_query(search: HybridSearch, steps: Steps, query: str, vector: np.ndarray, scope: str | None) -> None:
    """Time one search. The caller's own path is starting the vector search, the keyword arm, waiting
    for the vector hits, fuse, floor and results; `other` is what the search took beyond that path."""
    steps.spans, steps.marks = {}, {}
    began = time.perf_counter()
    search.search(query, scope=scope, vector=vector)
    ended, ended_cpu = time.perf_counter(), time.thread_time()
    steps.add("search", ended - began)
    steps.add("after arms", ended - steps.marks["arms in"])
    steps.add("after arms CPU", ended_cpu - steps.marks["arms in CPU"])
    if "keyword arm ended" in steps.marks and "vector wait began" in steps.marks:
        steps.add("ahead", max(0.0, steps.marks["vector wait began"] - steps.marks["keyword arm ended"]))
    path = sum(
        steps.spans.get(name, 0.0)
        for name in ("vector start", "keyword arm", "ahead", "vector wait", "fuse", "floor", "results")
    )
    steps.add("other", max(0.0, steps.spans["search"] - path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, required=True, help="a folder bench/compare.py --keep built")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--corpus", choices=("synthetic", "real"), default="synthetic")
    parser.add_argument("--scope", default=None, help="a folder to scope the searches to")
    args = parser.parse_args()
    kept = args.keep / "real" if args.corpus == "real" else args.keep  # where compare.py --keep puts each
    saved = json.loads((kept / "built.json").read_text())
    keywords = KeywordIndex(kept / "k.duckdb")
    vectors = VectorIndex(kept / "vectors", DIM)
    draw = real_queries if args.corpus == "real" else make_queries
    drawn = draw(saved["texts"], np.load(kept / "samples.npy"), args.queries + 5, np.random.default_rng(2025))
    queries, warm = drawn[: args.queries], drawn[args.queries :]  # the warm-up's queries are not timed again
    search = HybridSearch(keywords, vectors, embedder=None, exists=lambda _p: True)  # type: ignore[arg-type]
    steps = Steps()
    instrument(search, steps)
    for query, vector in warm:  # first-touch costs are not a query's; its answers must not be reused
        one_query(search, steps, query, vector, args.scope)
    samples: dict[str, list[float]] = {name: [] for name in STEPS}
    for query, vector in queries:
        one_query(search, steps, query, vector, args.scope)
        for name in STEPS:
            samples[name].append(steps.spans.get(name, 0.0) * 1000)
    print(
        f"hybrid search, {args.corpus} text, {saved['rows']:,} chunks, {len(queries)} queries, "
        f"{'scope ' + args.scope if args.scope else 'unscoped'}; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    for name in STEPS:
        times = np.asarray(samples[name])
        print(
            f"  {name:<12} p50 {np.percentile(times, 50):6.2f} ms   p95 {np.percentile(times, 95):6.2f} ms   "
            f"mean {times.mean():6.2f} ms",
            flush=True,
        )
    after, cpu = (float(np.percentile(samples[name], 50)) for name in ("after arms", "after arms CPU"))
    met = "met" if cpu <= TARGET_AFTER_ARMS_MS else "MISSED"
    print(
        f"SUMMARY after the arms p50 {after:.2f} ms wall, {cpu:.2f} ms thread CPU "
        f"(≤ {TARGET_AFTER_ARMS_MS} ms: {met}); {args.corpus} text, {saved['rows']:,} chunks",
        flush=True,
    )
    keywords.close()


if __name__ == "__main__":
    main()
