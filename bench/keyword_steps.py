"""Where one keyword query's time goes, step by step, on a store kept by `bench/compare.py --keep DIR`.

The hybrid's tail at 1M chunks is its keyword arm (issue 17): this times each step of
`KeywordIndex.answer` for compare.py's own query set (`make_queries` with rng 2025 after the build),
in CPU time (`time.process_time`, so other processes on the two cores do not count) and wall time:

- `terms`: the query's terms and ids (keyword_query.py / query_words.py, cached per query after a pass),
- `postings`: each term's postings, from the cache or read from DuckDB (a miss),
- `top-k`: the masks, the sum of impacts and the k best (postings_cache.top_k),
- `rows`: the k winners' path, index and text read back by id.

    python bench/keyword_steps.py --keep DIR [--queries 200] [--scope /bench/folder0007] [--passes 2]
    python bench/keyword_steps.py --keep DIR --build 100000   # a keyword-only store (rng 2024)

With `--build N` it first builds a keyword index of N generated chunks into DIR as compare.py does (same
rng, same samples.npy / built.json), without the vector and SQLite stores.
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

from search_latency import CHUNKS_PER_FILE, corpus_batches, make_queries

from engine.retrieval.keyword import reading as reading_module
from engine.retrieval.keyword.index import KeywordIndex

STEPS = ("answer", "terms", "postings", "top-k", "rows")


def build(rows: int, work: Path) -> None:
    """A keyword-only store of `rows` generated chunks, with compare.py's samples and built.json."""
    work.mkdir(parents=True, exist_ok=True)
    keywords = KeywordIndex(work / "k.duckdb")
    sample_vectors, sample_texts = [], []
    for count, texts, matrix, files in corpus_batches(rows, np.random.default_rng(2024)):
        keywords.upsert_many((path, texts[i : i + CHUNKS_PER_FILE]) for path, i in files)
        sample_vectors.append(matrix[:40])
        sample_texts += texts[:40]
        print(f"  indexed a batch of {count:,}", file=sys.stderr, flush=True)
    keywords.refresh_weights()
    keywords.close()
    np.save(work / "samples.npy", np.concatenate(sample_vectors))
    (work / "built.json").write_text(json.dumps({"rows": rows, "seconds": {}, "texts": sample_texts}))


class Clock:
    """CPU and wall seconds per step for the query being timed."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.wall: dict[str, float] = {}

    def timed(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            cpu, wall = time.process_time(), time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - cpu
                self.wall[name] = self.wall.get(name, 0.0) + time.perf_counter() - wall

        return wrapper


def instrument(index: KeywordIndex, clock: Clock) -> None:
    """Wrap the steps of `answer` with timers (the code timed is unchanged)."""
    index._query_terms = clock.timed("terms", index._query_terms)  # type: ignore[method-assign]
    index._term_postings = clock.timed("postings", index._term_postings)  # type: ignore[method-assign]
    reading_module.top_k = clock.timed("top-k", reading_module.top_k)
    for name in ("_winners", "_rows_of"):  # the row read, under whichever name bm25 gives it
        if hasattr(index, name):
            setattr(index, name, clock.timed("rows", getattr(index, name)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, required=True)
    parser.add_argument("--build", type=int, default=0, help="build a keyword-only store of N chunks first")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--scope", default=None)
    parser.add_argument("--passes", type=int, default=2, help="passes over the queries (the first is cold)")
    parser.add_argument("--k", type=int, default=50)
    args = parser.parse_args()
    if args.build and not (args.keep / "built.json").exists():
        build(args.build, args.keep)
    saved = json.loads((args.keep / "built.json").read_text())
    index = KeywordIndex(args.keep / "k.duckdb")
    queries = make_queries(
        saved["texts"], np.load(args.keep / "samples.npy"), args.queries, np.random.default_rng(2025)
    )
    clock = Clock()
    instrument(index, clock)
    for run in range(args.passes):
        cpu: dict[str, list[float]] = {name: [] for name in STEPS}
        wall: dict[str, list[float]] = {name: [] for name in STEPS}
        for query, _ in queries:
            clock.cpu, clock.wall = {}, {}
            began, began_cpu = time.perf_counter(), time.process_time()
            index.search_with_text(query, args.k, args.scope)
            clock.wall["answer"] = time.perf_counter() - began
            clock.cpu["answer"] = time.process_time() - began_cpu
            for name in STEPS:
                cpu[name].append(clock.cpu.get(name, 0.0) * 1000)
                wall[name].append(clock.wall.get(name, 0.0) * 1000)
        slow = np.argsort(wall["answer"])[-5:]
        state = "cold" if run == 0 else "warm"
        print(
            f"keyword top-{args.k}, {saved['rows']:,} chunks, pass {run + 1} ({state}), "
            f"{args.scope or 'unscoped'}; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        for name in STEPS:
            c, w = np.asarray(cpu[name]), np.asarray(wall[name])
            print(
                f"  {name:<9} CPU p50 {np.percentile(c, 50):6.2f} p95 {np.percentile(c, 95):6.2f} "
                f"mean {c.mean():6.2f} | wall p50 {np.percentile(w, 50):6.2f} "
                f"p95 {np.percentile(w, 95):6.2f} ms",
                flush=True,
            )
        for i in slow[::-1]:
            n = sum(
                len(p[0])
                for p in index._term_postings(index._reader(), list(index.query_terms(queries[i][0]).tids))
            )
            parts = ", ".join(f"{s} {wall[s][i]:.1f}" for s in STEPS[1:])
            print(f"    slow: {wall['answer'][i]:6.1f} ms ({parts}) {n:,} postings  {queries[i][0]!r}")
    index.close()


if __name__ == "__main__":
    main()
