"""Where one hybrid search's time goes, step by step, on a store kept by `bench/compare.py --keep DIR`.

The arms run at the same time (hybrid.py `_fuse`), so the sum of the steps is not the search: the
breakdown says what each step costs inside a real `HybridSearch.search` call (wall time, measured by
timers wrapped around the search's own collaborators, nothing replaced), and what is left over once
the steps are accounted for — the hand-off to the keyword arm's thread and back, and the Python between
the steps. Printed per step: p50 and p95 over the queries, and the mean, so the means add up.

    python bench/hybrid_steps.py --keep DIR [--queries 200] [--scope /bench/folder0007]

Steps: `keyword arm` (KeywordIndex.answer, on its thread), `hand-off` (from submitting the keyword arm
to its thread starting it, plus from its end to the caller holding its answer, when the caller had to
wait), `vector arm` (VectorIndex.search_with_text, on the caller's thread), `fuse`, `floor`, `results`
(best chunk per file, exists checks, pending lookup, snippets) and `snippets` (make_snippet alone, part
of `results`); `other` is the search beyond the caller's own path (one_query says which).
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

from search_latency import DIM, make_queries

from engine.retrieval import hybrid as hybrid_module
from engine.retrieval.bm25 import KeywordIndex
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.vectors import VectorIndex

STEPS = ("search", "keyword arm", "hand-off", "vector arm", "fuse", "floor", "results", "snippets", "other")


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
    search.keywords.answer = steps.timed("keyword arm", search.keywords.answer)  # type: ignore[method-assign]
    search.vectors.search_with_text = steps.timed(  # type: ignore[method-assign]
        "vector arm", search.vectors.search_with_text
    )
    search._results = steps.timed("results", search._results)  # type: ignore[method-assign]
    hybrid_module.fuse = steps.timed("fuse", hybrid_module.fuse)
    hybrid_module.above_floor = steps.timed("floor", hybrid_module.above_floor)
    hybrid_module.make_snippet = steps.timed("snippets", hybrid_module.make_snippet)
    submit = search._pool.submit

    def timed_submit(fn: Callable[..., Any], *args: Any) -> Any:
        steps.marks["submitted"] = time.perf_counter()
        return submit(fn, *args)

    search._pool.submit = timed_submit  # type: ignore[method-assign]


def one_query(search: HybridSearch, steps: Steps, query: str, vector: np.ndarray, scope: str | None) -> None:
    """Time one search. The caller's own path is the vector arm, then waiting for the keyword arm if it
    is still running (its run, not counted again, plus the hand-off back), fuse, floor and results;
    `other` is what the search took beyond that path."""
    steps.spans, steps.marks = {}, {}
    began = time.perf_counter()
    search.search(query, scope=scope, vector=vector)
    steps.add("search", time.perf_counter() - began)
    marks = steps.marks
    waited = 0.0  # the caller waiting while the keyword arm still ran, after its own vector arm
    back = 0.0  # from the keyword arm's end to the caller going on (when the caller had to wait)
    if {"submitted", "keyword arm began", "keyword arm ended", "vector arm ended"} <= marks.keys():
        kw_ended, vec_ended = marks["keyword arm ended"], marks["vector arm ended"]
        if kw_ended > vec_ended:
            waited = kw_ended - vec_ended
            back = max(0.0, marks.get("fuse began", kw_ended) - kw_ended)
        steps.add("hand-off", marks["keyword arm began"] - marks["submitted"] + back)
    path = sum(steps.spans.get(name, 0.0) for name in ("vector arm", "fuse", "floor", "results"))
    steps.add("other", max(0.0, steps.spans["search"] - path - waited - back))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, required=True, help="a folder bench/compare.py --keep built")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--scope", default=None, help="a folder to scope the searches to")
    args = parser.parse_args()
    saved = json.loads((args.keep / "built.json").read_text())
    keywords = KeywordIndex(args.keep / "k.duckdb")
    vectors = VectorIndex(args.keep / "vectors", DIM)
    queries = make_queries(
        saved["texts"], np.load(args.keep / "samples.npy"), args.queries, np.random.default_rng(2025)
    )
    search = HybridSearch(keywords, vectors, embedder=None, exists=lambda _p: True)  # type: ignore[arg-type]
    steps = Steps()
    instrument(search, steps)
    for query, vector in queries[:5]:  # warm: first-touch costs are not a query's
        one_query(search, steps, query, vector, args.scope)
    samples: dict[str, list[float]] = {name: [] for name in STEPS}
    for query, vector in queries:
        one_query(search, steps, query, vector, args.scope)
        for name in STEPS:
            samples[name].append(steps.spans.get(name, 0.0) * 1000)
    print(
        f"hybrid search, {saved['rows']:,} chunks, {len(queries)} queries, "
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
    keywords.close()


if __name__ == "__main__":
    main()
