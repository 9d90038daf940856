"""The bulk keyword build on real text against SQLite FTS5, alone and repeated: issue 30's build target
(>= 0.5x FTS5's chunks/s) without bench/compare.py's vector store and queries (its HNSW build alone takes
a minute and a half on two shared cores).

The corpus is bench/real_text.py's (the standard library, man pages, /usr/share/doc; compare.py's rows,
batches of ~50k chunks), read once and held in memory; then `--repeat` rounds, each building our keyword
index (every batch through `upsert_many`, then `refresh_weights`, as compare.py times it) and an FTS5
table from the same rows, in alternating order. Each build prints its wall time, its process CPU, the CPU
of the calling thread (the rest ran on DuckDB's and the batch split's worker threads), the load average,
the store's size and the ratio of the two throughputs. On a shared machine read the CPU figures beside
the ratio: the wall time of either is mostly the wait for a core.

    python bench/keyword_real_build.py [--rows 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_rss_mb
from compare import Sqlite, add_to_sqlite
from real_text import real_batches

from engine.retrieval.keyword.index import KeywordIndex

Batches = list[tuple[list[str], list[tuple[str, int, int]]]]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f}/{five:.1f}"


def timed(work) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """Wall, process-CPU and calling-thread-CPU seconds of `work()`."""
    wall, cpu, own = time.perf_counter(), time.process_time(), time.thread_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu, time.thread_time() - own


def ours(batches: Batches, work: Path) -> tuple[tuple[float, float, float], float]:
    """Our build's (wall, CPU, calling-thread CPU) and the store's size in MB."""
    index = KeywordIndex(work / "k.duckdb")

    def build() -> None:
        for texts, spans in batches:
            index.upsert_many((path, texts[a:b]) for path, a, b in spans)
        index.refresh_weights()

    try:
        figures = timed(build)
    finally:
        index.close()
    return figures, (work / "k.duckdb").stat().st_size / 1e6


def fts5(batches: Batches, work: Path) -> tuple[float, float, float]:
    lite = Sqlite(work / "fts.sqlite")
    try:
        return timed(lambda: [add_to_sqlite(lite, texts, spans) for texts, spans in batches])
    finally:
        lite.con.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    batches = [(texts, spans) for _, texts, _, spans in real_batches(args.rows, np.random.default_rng(2024))]
    rows = sum(len(texts) for texts, _ in batches)
    print(f"== keyword build on real text, {rows:,} chunks, {args.repeat} rounds ({load()}) ==", flush=True)
    ratios = []
    for round_ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            first_ours = round_ % 2 == 0  # alternate who builds first
            if not first_ours:
                theirs = fts5(batches, Path(tmp))
            (wall, cpu, own), size = ours(batches, Path(tmp))
            if first_ours:
                theirs = fts5(batches, Path(tmp))
        ratios.append(theirs[0] / wall)
        print(
            f"round {round_ + 1}: ours {wall:6.2f} s ({rows / wall:7,.0f} chunks/s), CPU {cpu:5.2f} s "
            f"(calling thread {own:5.2f}), file {size:.0f} MB | FTS5 {theirs[0]:6.2f} s, CPU "
            f"{theirs[1]:5.2f} s | x{ratios[-1]:.2f} of FTS5's throughput, x{theirs[1] / cpu:.2f} by CPU "
            f"({load()})",
            flush=True,
        )
    print(f"peak RSS {peak_rss_mb():.0f} MB", flush=True)
    median = float(np.median(ratios))
    print(
        f"SUMMARY keyword_real_build {rows:,} chunks: bulk build x{median:.2f} of SQLite FTS5's "
        f"throughput, median of {len(ratios)} (target >= 0.5 {'met' if median >= 0.5 else 'MISSED'}); "
        f"{load()}",
        flush=True,
    )


if __name__ == "__main__":
    main()
