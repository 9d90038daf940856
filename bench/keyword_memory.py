"""The keyword index's memory with its postings kept (resident_postings.py) and without, over many queries.

Opens a store `bench/compare.py --keep DIR` built (the real text, DIR/real), then asks `--queries` distinct
real queries (bench/real_text.py's draw, as compare.py's) through `KeywordIndex.answer`, printing the
process's RSS and high-water mark at open, after the first query (with the kept postings read), and every
quarter of the way, with what the index holds in memory: the kept postings and the LRU cache's entries.
`--budget 0` keeps nothing in memory beyond the LRU cache (the index before issue 30's Session 6); run
both, one after the other, on the same store to compare.

    python bench/keyword_memory.py DIR [--queries 1000] [--budget N]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import memory_kb
from real_text import real_queries

from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.resident_postings import RESIDENT_POSTINGS, ResidentLoader


def line(what: str, index: KeywordIndex, cpu: float) -> None:
    rss, peak = memory_kb(os.getpid())
    lru = index._postings._size * 8 / 2**20  # 4-byte ids and impacts (int64 ids past 2^31: 12 bytes)
    resident = index._postings.resident_nbytes() / 2**20
    print(
        f"  {what:<28} RSS {rss / 1024:7.1f} MB   high-water {peak / 1024:7.1f} MB   kept postings "
        f"{resident:5.1f} MB   LRU postings ~{lru:5.1f} MB   CPU {cpu:6.2f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path, help="the folder bench/compare.py --keep was given")
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--budget", type=int, default=RESIDENT_POSTINGS, help="postings kept; 0: none")
    args = parser.parse_args()
    kept = args.store / "real"
    saved = json.loads((kept / "built.json").read_text())
    drawn = real_queries(
        saved["texts"], np.load(kept / "samples.npy"), args.queries, np.random.default_rng(7)
    )
    queries = list(dict.fromkeys(query for query, _ in drawn))
    print(
        f"{saved['rows']:,} chunks, {len(queries)} distinct queries, budget {args.budget:,} postings; "
        f"load {os.getloadavg()[0]:.1f}"
    )
    began = time.process_time()
    index = KeywordIndex(kept / "k.duckdb")
    index._loading = ResidentLoader(index._postings.install, args.budget)
    line("open", index, time.process_time() - began)
    index.answer(queries[0])
    index.wait_for_postings()
    line("first query (postings kept)", index, time.process_time() - began)
    for n, query in enumerate(queries[1:], start=2):
        index.answer(query)
        if n % max(1, len(queries) // 4) == 0 or n == len(queries):
            line(f"after {n:,} queries", index, time.process_time() - began)
    index.close()


if __name__ == "__main__":
    main()
