"""The one-file update of bench/compare.py's real corpus, ours alone, in compare.py's conditions: each update
preceded by SQLite FTS5's replace of the same file (the other work that leaves the caches cold), its wall
time, process CPU and calling-thread CPU printed as p50s with the load. For same-run A/B pairs between
two checkouts: run it from each in turn on the same kept store, e.g.

    PYTHONPATH=$PWD python bench/keyword_update_cost.py --keep DIR [--updates 100] [--alone]

DIR is a `compare.py --corpus real --keep DIR` folder (the stores are in DIR/real; the updates change them
as compare.py's do: the file goes back and forth between its two versions). docs/keyword-writes.md,
Session 7, has the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import percentiles
from compare import Sqlite
from real_text import update_file

from engine.retrieval.keyword.index import KeywordIndex

WARM_UP = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, required=True, help="a compare.py --corpus real --keep folder")
    parser.add_argument("--updates", type=int, default=100)
    parser.add_argument("--alone", action="store_true", help="no FTS5 replace between our updates")
    args = parser.parse_args()
    work = args.keep / "real"
    saved = json.loads((work / "built.json").read_text())
    path, before, after = update_file([tuple(span) for span in saved["spans"]])
    versions = [before, after]
    keywords = KeywordIndex(work / "k.duckdb")
    lite = None if args.alone else Sqlite(work / "fts.sqlite")
    walls: list[float] = []
    cpus: list[float] = []
    threads: list[float] = []
    try:
        for n in range(WARM_UP + args.updates):
            if lite is not None:
                lite.replace(path, versions[n % 2])
            began, cpu, thread = time.perf_counter(), time.process_time(), time.thread_time()
            keywords.upsert(path, versions[n % 2])
            if n >= WARM_UP:
                walls.append((time.perf_counter() - began) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
                threads.append((time.thread_time() - thread) * 1000)
    finally:
        keywords.close()
    after_what = "alone" if lite is None else "each after FTS5's replace"
    print(
        f"one-file update ({len(before)} chunks), {after_what}, {args.updates} updates: wall p50 "
        f"{percentiles(walls)[0]:.2f} ms, process CPU p50 {percentiles(cpus)[0]:.2f} ms, calling thread CPU "
        f"p50 {percentiles(threads)[0]:.2f} ms; load {' '.join(f'{x:.1f}' for x in os.getloadavg())}",
        flush=True,
    )


if __name__ == "__main__":
    main()
