"""SenseTree search against the embedded engines a person could pick instead, side by side in one run.

Contestants, on the same generated rows (bench/search_latency.py's corpus: Zipfian pseudo-words, files
of 5 chunks over 1,000 folders, random unit 384-d vectors; a query's vector is a chunk's plus noise):

- SenseTree hybrid (`HybridSearch`, fixed query vector) and each of its arms;
- LanceDB's own hybrid: native FTS (`create_index("text", config=FTS())`, what
  `create_fts_index(..., use_tantivy=False)` now forwards to) built on the very table
  that holds our vectors, so it uses the same HNSW-SQ index, `query_type="hybrid"` fused by
  `RRFReranker`; and that native FTS alone;
- SQLite FTS5 BM25 (porter tokenizer) alone, and fused in Python with our vector arm by the same RRF.

Both hybrids search the same HNSW graph, and its cost grows with the search breadth `ef`, so they are timed
at the same breadth: LanceDB's hybrid is given the product's (`vectors.search_breadth`: 200 at 100k, 800
at 1M, chosen for recall on real embeddings, docs/search-latency.md), and those are the ratios the targets
read. LanceDB's own default is narrower (1.5 × limit = 75 for a top-50), cheaper and finds less (on 1M
real vectors ef 200 already drops recall@10 to 0.832 from ef 800's 0.974), so a second pair times both
hybrids at that default, and the summary also prints ours at the product's breadth against LanceDB's at
its default: the one pair whose vector arms differ.

Queries are interleaved: every query runs through every contestant before the next query, in a rotating
order, so load from other processes falls on all of them alike (on a shared machine read the ratios,
not the absolute times). Unscoped, then scoped to one folder. Each keyword arm returns 50 chunks; the
hybrids return 10 results from 50 candidates per arm. Also printed: bulk-build throughput and the p50 of
re-indexing one 5-chunk file for each keyword backend, and the process's RSS after each build.

    python bench/compare.py [--rows 100000] [--queries 200] [--keep DIR]

`--keep DIR` builds into DIR and leaves the stores there; a later run with the same DIR reuses them and
times the queries only (a 1M build takes hours on two shared cores; the query code can change between).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

os.environ.setdefault("LANCEDB_LOG", "error")  # LanceDB warns on every query that omits its score column
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_rss_mb, percentiles
from lancedb.index import FTS
from lancedb.rerankers import RRFReranker
from search_latency import CHUNKS_PER_FILE, DIM, corpus_batches, make_queries

from engine.indexing.embed import TransformerEmbedder
from engine.paths import subtree_range
from engine.retrieval.bm25 import KeywordIndex
from engine.retrieval.fusion import RRF_K, rrf
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.vectors import VectorIndex, path_filter, search_breadth

SCOPE = "/bench/folder0007"
UPDATES = 30
CANDIDATES = 50  # each arm's depth, and LanceDB's hybrid's sub-query limit
AT_DEFAULT = ", LanceDB's default ef"  # suffix of the contestants of the pair at LanceDB's breadth
Query = tuple[str, np.ndarray]


def current_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Sqlite:
    """SQLite FTS5 over the same chunks; OR of the query's words, ranked by FTS5's bm25()."""

    def __init__(self, path: Path):
        self.con = sqlite3.connect(str(path), check_same_thread=False)
        self.con.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5(text, path UNINDEXED, "
            "chunk_index UNINDEXED, tokenize='porter unicode61')"
        )

    def add(self, rows: list[tuple[str, str, int]]) -> None:
        self.con.executemany("INSERT INTO chunks(text, path, chunk_index) VALUES (?, ?, ?)", rows)
        self.con.commit()

    def replace(self, path: str, texts: list[str]) -> None:
        self.con.execute("DELETE FROM chunks WHERE path = ?", [path])
        self.add([(text, path, i) for i, text in enumerate(texts)])

    def search(self, query: str, k: int = 50, scope: str | None = None) -> list[tuple[str, int]]:
        match = " OR ".join('"' + word.replace('"', '""') + '"' for word in query.split())
        sql, params = "SELECT path, chunk_index FROM chunks WHERE chunks MATCH ?", [match]
        if scope is not None:
            low, high = subtree_range(scope)
            sql += " AND (path = ? OR (path >= ? AND path < ?))"
            params += [scope, low, high]
        return [(p, int(i)) for p, i in self.con.execute(sql + f" ORDER BY rank LIMIT {int(k)}", params)]


def build(rows: int, work: Path, rng: np.random.Generator):
    """The three stores over the same rows, each keyword backend's build timed on its own."""
    keywords = KeywordIndex(work / "k.duckdb")
    vectors = VectorIndex(work / "vectors", DIM)
    lite = Sqlite(work / "fts.sqlite")
    seconds = {"SenseTree (DuckDB postings)": 0.0, "SQLite FTS5": 0.0}
    sample_vectors, sample_texts = [], []
    done = 0
    for count, texts, matrix, files in corpus_batches(rows, rng):
        done += count
        began = time.perf_counter()
        keywords.upsert_many((path, texts[i : i + CHUNKS_PER_FILE]) for path, i in files)
        seconds["SenseTree (DuckDB postings)"] += time.perf_counter() - began
        began = time.perf_counter()
        lite.add(
            [(texts[i + j], path, j) for path, i in files for j in range(min(CHUNKS_PER_FILE, count - i))]
        )
        seconds["SQLite FTS5"] += time.perf_counter() - began
        vectors.upsert_many(
            (path, texts[i : i + CHUNKS_PER_FILE], matrix[i : i + CHUNKS_PER_FILE]) for path, i in files
        )
        sample_vectors.append(matrix[:40])
        sample_texts += texts[:40]
        print(
            f"  indexed {done:,}/{rows:,} chunks; keyword {seconds['SenseTree (DuckDB postings)']:.0f} s, "
            f"sqlite {seconds['SQLite FTS5']:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    began = time.perf_counter()
    keywords.refresh_weights()
    seconds["SenseTree (DuckDB postings)"] += time.perf_counter() - began
    began = time.perf_counter()
    vectors.optimize()
    print(
        f"vectors: optimize (path B-tree + HNSW-SQ) {time.perf_counter() - began:.0f} s; "
        f"RSS {current_rss_mb():.0f} MB",
        flush=True,
    )
    began = time.perf_counter()
    vectors._table.create_index("text", config=FTS(), replace=True)  # native (not tantivy), its defaults
    seconds["LanceDB native FTS"] = time.perf_counter() - began
    for name, took in seconds.items():
        print(f"build {name:<28} {took:7.1f} s   {rows / took:9,.0f} chunks/s", flush=True)
    print(f"RSS after building all three: {current_rss_mb():.0f} MB", flush=True)
    return keywords, vectors, lite, seconds, np.concatenate(sample_vectors), sample_texts


def reopen(work: Path):
    """The stores a `--keep` run built earlier, with its samples and build times (the queries only)."""
    saved = json.loads((work / "built.json").read_text())
    keywords = KeywordIndex(work / "k.duckdb")
    vectors = VectorIndex(work / "vectors", DIM)
    lite = Sqlite(work / "fts.sqlite")
    for name, took in saved["seconds"].items():
        print(f"build {name:<28} {took:7.1f} s   {saved['rows'] / took:9,.0f} chunks/s (earlier run)")
    return keywords, vectors, lite, saved["seconds"], np.load(work / "samples.npy"), saved["texts"]


def build_kept(rows: int, work: Path, rng: np.random.Generator):
    """`build` into `work` and save what `reopen` needs, so later runs time queries without rebuilding."""
    if (work / "built.json").exists():
        saved = json.loads((work / "built.json").read_text())
        if saved["rows"] != rows:
            raise SystemExit(f"{work} holds {saved['rows']:,} rows, not {rows:,}; use another --keep folder")
        return reopen(work)
    work.mkdir(parents=True, exist_ok=True)
    built = build(rows, work, rng)
    np.save(work / "samples.npy", built[4])
    (work / "built.json").write_text(json.dumps({"rows": rows, "seconds": built[3], "texts": built[5]}))
    return built


def lancedb_default_breadth(k: int, rows: int) -> int:
    """LanceDB's HNSW `ef` when a query sets none: 1.5 × the limit (its query builders' documentation;
    checked here: at 1M the same recall@10 on 100 queries with ef unset and ef 75)."""
    return int(1.5 * k)


def lance_hybrid(
    table, query: str, vector: np.ndarray, scope: str | None, reranker: RRFReranker, ef: int | None
) -> list:
    builder = table.search(query_type="hybrid").vector(vector).text(query).limit(CANDIDATES).rerank(reranker)
    if ef is not None:
        builder = builder.ef(ef)
    if scope is not None:
        builder = builder.where(path_filter(scope), prefilter=True)
    return builder.select(["path", "chunk_index", "text"]).to_arrow().slice(0, 10).to_pylist()


def lance_fts(table, query: str, scope: str | None) -> list:
    builder = table.search(query, query_type="fts").limit(50).select(["path", "chunk_index", "text"])
    if scope is not None:
        builder = builder.where(path_filter(scope), prefilter=True)
    return builder.to_arrow().to_pylist()


def sqlite_hybrid(
    lite: Sqlite, vectors: VectorIndex, query: str, vector: np.ndarray, scope: str | None
) -> list:
    dense = [h.key for h in vectors.search(vector, 50, scope)]
    return rrf([lite.search(query, 50, scope), dense], RRF_K)[:10]


def contestants(
    keywords: KeywordIndex, vectors: VectorIndex, lite: Sqlite, scope: str | None
) -> dict[str, Callable[[str, np.ndarray], object]]:
    search = HybridSearch(keywords, vectors, embedder=None, exists=lambda _p: True)  # type: ignore[arg-type]
    narrow = vectors.with_breadth(lancedb_default_breadth)
    at_default = HybridSearch(keywords, narrow, embedder=None, exists=lambda _p: True)  # type: ignore[arg-type]
    table, reranker = vectors._table, RRFReranker()
    ef = search_breadth(CANDIDATES, vectors.count())
    return {
        "SenseTree hybrid": lambda q, v: search.search(q, scope=scope, vector=v),
        "LanceDB native hybrid": lambda q, v: lance_hybrid(table, q, v, scope, reranker, ef),
        "SenseTree hybrid" + AT_DEFAULT: lambda q, v: at_default.search(q, scope=scope, vector=v),
        "LanceDB native hybrid" + AT_DEFAULT: lambda q, v: lance_hybrid(table, q, v, scope, reranker, None),
        "SQLite FTS5 + vector (RRF)": lambda q, v: sqlite_hybrid(lite, vectors, q, v, scope),
        "SenseTree keyword top-50": lambda q, v: keywords.search_with_text(q, 50, scope),
        "LanceDB native FTS top-50": lambda q, v: lance_fts(table, q, scope),
        "SQLite FTS5 top-50": lambda q, v: lite.search(q, 50, scope),
        "vector arm top-50 (shared)": lambda q, v: vectors.search_with_text(v, 50, scope),
    }


def interleaved(
    runners: dict[str, Callable[[str, np.ndarray], object]], queries: list[Query]
) -> dict[str, tuple[float, float]]:
    names = list(runners)
    for name in names:  # one warm-up call each: first-touch costs (index pages, caches) are not a query's
        runners[name](*queries[0])
    samples: dict[str, list[float]] = {name: [] for name in names}
    for n, (query, vector) in enumerate(queries):
        for name in names[n % len(names) :] + names[: n % len(names)]:
            began = time.perf_counter()
            runners[name](query, vector)
            samples[name].append((time.perf_counter() - began) * 1000)
    return {name: percentiles(times) for name, times in samples.items()}


def print_table(title: str, figures: dict[str, tuple[float, float]]) -> None:
    print(f"\n{title}", flush=True)
    for name, (p50, p95) in figures.items():
        kind = "hybrid" if "hybrid" in name or "+ vector" in name else "keyword"
        base = "LanceDB native FTS top-50" if kind == "keyword" else "LanceDB native hybrid"
        base += AT_DEFAULT if name.endswith(AT_DEFAULT) else ""
        ratio = (
            ""
            if "vector arm" in name
            else f"   ×{p50 / figures[base][0]:.2f} / ×{p95 / figures[base][1]:.2f} of {base}"
        )
        print(f"  {name:<52} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms{ratio}", flush=True)


def update_costs(
    keywords: KeywordIndex, vectors: VectorIndex, lite: Sqlite, queries: list[Query]
) -> dict[str, float]:
    """p50 of replacing one 5-chunk file in each keyword backend (the LanceDB row carries its vector)."""
    texts = [q for q, _ in queries[:CHUNKS_PER_FILE]]
    matrix = np.stack([v for _, v in queries[:CHUNKS_PER_FILE]])
    path = "/bench/new/file.txt"
    table = vectors._table
    rows = [{"path": path, "chunk_index": i, "text": t, "vector": matrix[i]} for i, t in enumerate(texts)]

    def lance_replace() -> None:
        table.delete(f"path = '{path}'")
        table.add(rows)

    out = {}
    for name, fn in (
        ("SenseTree (DuckDB postings)", lambda: keywords.upsert(path, texts)),
        ("SQLite FTS5", lambda: lite.replace(path, texts)),
        ("LanceDB native FTS (delete + add)", lance_replace),
    ):
        times = []
        for _ in range(UPDATES):
            began = time.perf_counter()
            fn()
            times.append((time.perf_counter() - began) * 1000)
        out[name] = percentiles(times)[0]
        print(f"  re-index one 5-chunk file, {name:<34} p50 {out[name]:7.1f} ms", flush=True)
    return out


def embedding_under_load(
    keywords: KeywordIndex, vectors: VectorIndex, queries: list[Query]
) -> tuple[float, float]:
    """Hybrid top-10 with the query embedded by the real model, warm, while this bench keeps one other
    CPU-bound process running: torch's default threads on the calling thread vs the product's path
    (one torch thread on the query thread). Every query text is distinct, so no cached vector is reused."""
    embedder = TransformerEmbedder()
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True)
    search.warm()
    embedder.embed(["warm up"])
    texts = list(dict.fromkeys(q for q, _ in queries))
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        runners = {
            "default torch threads, caller's thread": lambda q: search.search(
                q, vector=embedder.embed([q])[0]
            ),
            "one torch thread, query thread (ours)": lambda q: search.search(q),
        }
        samples: dict[str, list[float]] = {name: [] for name in runners}
        for n, query in enumerate(texts):
            for name in list(runners)[n % 2 :] + list(runners)[: n % 2]:
                began = time.perf_counter()
                runners[name](query + (" x" if name.startswith("default") else ""))  # distinct from the other
                samples[name].append((time.perf_counter() - began) * 1000)
    finally:
        busy.kill()
        busy.wait()
    print(
        "\nwarm hybrid query with the model embedding it, one competing CPU-bound process "
        f"({len(texts)} queries)"
    )
    figures = {name: percentiles(times) for name, times in samples.items()}
    for name, (p50, p95) in figures.items():
        print(f"  {name:<40} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms", flush=True)
    return figures["one torch thread, query thread (ours)"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--no-model", action="store_true", help="skip the timing with the real query embedding"
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="build into this folder and keep it; a later run with the same folder reuses the stores",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(2024)
    print(f"== {args.rows:,} chunks, {args.queries} queries, interleaved ==", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep is not None:
            built = build_kept(args.rows, args.keep, rng)
            rng = np.random.default_rng(2025)  # queries drawn the same whether the stores were reused or not
        else:
            built = build(args.rows, Path(tmp), rng)
        keywords, vectors, lite, build_s, sample_vectors, sample_texts = built
        queries = make_queries(sample_texts, sample_vectors, args.queries, rng)
        unscoped = interleaved(contestants(keywords, vectors, lite, None), queries)
        print_table("unscoped", unscoped)
        scoped = interleaved(contestants(keywords, vectors, lite, SCOPE), queries)
        print_table(f"scoped to {SCOPE} (0.1% of the rows)", scoped)
        print("\nupdates", flush=True)
        updates = update_costs(keywords, vectors, lite, queries)
        embedded = None if args.no_model else embedding_under_load(keywords, vectors, queries[:100])
        keywords.close()
    print(f"peak RSS {peak_rss_mb():.0f} MB", flush=True)
    summarise(args.rows, unscoped, scoped, build_s, updates, embedded)


def summarise(
    rows: int,
    unscoped,
    scoped,
    build_s: dict[str, float],
    updates: dict[str, float],
    embedded: tuple[float, float] | None,
) -> None:
    def ratio(figures, ours: str, theirs: str, at: int) -> float:
        return figures[ours][at] / figures[theirs][at]

    hybrid = [
        ratio(f, "SenseTree hybrid", "LanceDB native hybrid", at) for f in (unscoped, scoped) for at in (0, 1)
    ]
    # unscoped p50 / p95: both at LanceDB's default breadth, then ours at the product's against that default
    theirs = "LanceDB native hybrid" + AT_DEFAULT
    narrow = [ratio(unscoped, "SenseTree hybrid" + AT_DEFAULT, theirs, at) for at in (0, 1)]
    unequal = [ratio(unscoped, "SenseTree hybrid", theirs, at) for at in (0, 1)]
    keyword = ratio(unscoped, "SenseTree keyword top-50", "LanceDB native FTS top-50", 0)
    throughput = build_s["SQLite FTS5"] / build_s["SenseTree (DuckDB postings)"]
    update = updates["SenseTree (DuckDB postings)"]
    met = (
        max(hybrid[0], hybrid[2]) <= 1.0
        and max(hybrid[1], hybrid[3]) <= 1.2
        and keyword <= 1.2
        and throughput >= 0.5
    )
    print(
        f"SUMMARY {rows:,} chunks: hybrid p50 ×{hybrid[0]:.2f} (scoped ×{hybrid[2]:.2f}), "
        f"p95 ×{hybrid[1]:.2f} (scoped ×{hybrid[3]:.2f}) of LanceDB native hybrid at the same ef; "
        f"both at LanceDB's default ef ×{narrow[0]:.2f} / ×{narrow[1]:.2f}, ours at the product's ef against "
        f"LanceDB's default ×{unequal[0]:.2f} / ×{unequal[1]:.2f}; "
        f"keyword top-50 p50 ×{keyword:.2f} of LanceDB FTS; "
        f"bulk build ×{throughput:.2f} of SQLite FTS5's throughput; "
        f"one-file keyword update p50 {update:.1f} ms; "
        + (
            f"with the model under load p50 {embedded[0]:.1f} / p95 {embedded[1]:.1f} ms (≤ 60 / 150 "
            f"{'met' if embedded[0] <= 60 and embedded[1] <= 150 else 'MISSED'}); "
            if embedded
            else ""
        )
        + f"targets (≤1.0, ≤1.2, ≤1.2, ≥0.5) {'met' if met else 'MISSED'}",
        flush=True,
    )


if __name__ == "__main__":
    main()
