"""SenseTree search against the embedded engines a person could pick instead, side by side in one run.

Two corpora, each timed in full (`--corpus both`, the default): the generated one (bench/search_latency.py's:
Zipfian pseudo-words, files of 5 chunks over 1,000 folders, random unit 384-d vectors; a query's vector is
a chunk's plus noise), and real text built on this machine at run time (bench/real_text.py: the Python
standard library's sources, man pages, /usr/share/doc and the licences, cut by the product's chunker,
real query words, a real file of a few KB rewritten for the one-file update). Issue 30 found the
generated one flatters us; the targets (bench/compare_report.py) are read on the real one.

Contestants, on the same rows:

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
re-indexing one file for each keyword backend, and the process's RSS after each build.

    python bench/compare.py [--rows 100000] [--queries 200] [--corpus both|synthetic|real] [--keep DIR]

`--keep DIR` builds into DIR (the real text into DIR/real) and leaves the stores there; a later run with
the same DIR reuses them and times the queries only (a 1M build takes hours on two shared cores; the
query code can change between).
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
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import numpy as np

os.environ.setdefault("LANCEDB_LOG", "error")  # LanceDB warns on every query that omits its score column
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_rss_mb, percentiles
from compare_report import AT_DEFAULT, LANCE_UPDATE, print_table, summarise
from lancedb.index import FTS
from lancedb.rerankers import RRFReranker
from real_text import RealBatch, real_batches, real_queries, scope_of, update_file
from search_latency import CHUNKS_PER_FILE, DIM, corpus_batches, make_queries, unit_rows

from engine.embed import TransformerEmbedder
from engine.paths import subtree_range
from engine.retrieval.fusion import RRF_K, rrf
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.sql_literal import sql_string
from engine.retrieval.vectors import VectorIndex, path_filter, search_breadth

SCOPE = "/bench/folder0007"
# Updates timed per backend. 30 gave p50 ratios of ×0.77-1.05 over 22 runs of one code on one machine (the
# p50 of 30 samples of a few-ms operation on two shared cores moves by ~10 %); 90 halves that scatter.
UPDATES = 90
UPDATE_WARM_UP = 2  # untimed rounds first, as the queries' warm-up call: the first write after a build loads
# the writer's term dictionary, a first-touch cost, not an update's
CANDIDATES = 50  # each arm's depth, and LanceDB's hybrid's sub-query limit
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


def synthetic_batches(rows: int, rng: np.random.Generator) -> Iterator[RealBatch]:
    """bench/search_latency.py's generated corpus, each file as (path, first chunk, end) like real_text's."""
    for count, texts, matrix, files in corpus_batches(rows, rng):
        yield count, texts, matrix, [(path, i, min(i + CHUNKS_PER_FILE, count)) for path, i in files]


def timed(name: str, seconds: dict[str, float], cpu: dict[str, float], work: Callable[[], object]) -> None:
    """Run `work`, adding its wall and process-CPU seconds to `name`'s."""
    began, began_cpu = time.perf_counter(), time.process_time()
    work()
    seconds[name] += time.perf_counter() - began
    cpu[name] += time.process_time() - began_cpu


def add_to_sqlite(lite: Sqlite, texts: list[str], files: list[tuple[str, int, int]]) -> None:
    lite.add([(texts[j], path, j - a) for path, a, b in files for j in range(a, b)])


def build(batches: Iterator[RealBatch], rows: int, work: Path):
    """The three stores over the same rows, each keyword backend's build timed on its own."""
    keywords = KeywordIndex(work / "k.duckdb")
    vectors = VectorIndex(work / "vectors", DIM)
    lite = Sqlite(work / "fts.sqlite")
    ours = "SenseTree (DuckDB postings)"
    seconds = {ours: 0.0, "SQLite FTS5": 0.0}
    cpu = dict.fromkeys(seconds, 0.0)  # process CPU: on two shared cores the wall ratio moves with the load
    sample_vectors, sample_texts, spans = [], [], []
    done = 0
    for count, texts, matrix, files in batches:
        done += count
        spans += files
        timed(ours, seconds, cpu, partial(keywords.upsert_many, ((p, texts[a:b]) for p, a, b in files)))
        timed("SQLite FTS5", seconds, cpu, partial(add_to_sqlite, lite, texts, files))
        vectors.upsert_many((path, texts[a:b], matrix[a:b]) for path, a, b in files)
        sample_vectors.append(matrix[:: max(1, count // 400)][:400])
        sample_texts += texts[:: max(1, count // 400)][:400]
        print(
            f"  indexed {done:,}/{rows:,} chunks; keyword {seconds[ours]:.0f} s, "
            f"sqlite {seconds['SQLite FTS5']:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    timed(ours, seconds, cpu, keywords.refresh_weights)
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
        spent = f"   process CPU {cpu[name]:6.1f} s" if name in cpu else ""
        print(f"build {name:<28} {took:7.1f} s   {done / took:9,.0f} chunks/s{spent}", flush=True)
    print(f"RSS after building all three: {current_rss_mb():.0f} MB", flush=True)
    return keywords, vectors, lite, seconds, np.concatenate(sample_vectors), sample_texts, spans


def reopen(work: Path):
    """The stores a `--keep` run built earlier, with its samples and build times (the queries only)."""
    saved = json.loads((work / "built.json").read_text())
    keywords = KeywordIndex(work / "k.duckdb")
    vectors = VectorIndex(work / "vectors", DIM)
    lite = Sqlite(work / "fts.sqlite")
    for name, took in saved["seconds"].items():
        print(f"build {name:<28} {took:7.1f} s   {saved['rows'] / took:9,.0f} chunks/s (earlier run)")
    samples = np.load(work / "samples.npy")
    spans = [tuple(span) for span in saved["spans"]]
    return keywords, vectors, lite, saved["seconds"], samples, saved["texts"], spans


def build_kept(batches: Iterator[RealBatch], rows: int, work: Path):
    """`build` into `work` and save what `reopen` needs, so later runs time queries without rebuilding."""
    if (work / "built.json").exists():
        saved = json.loads((work / "built.json").read_text())
        if saved["rows"] != rows:
            raise SystemExit(f"{work} holds {saved['rows']:,} rows, not {rows:,}; use another --keep folder")
        return reopen(work)
    work.mkdir(parents=True, exist_ok=True)
    built = build(batches, rows, work)
    np.save(work / "samples.npy", built[4])
    saved = {"rows": rows, "seconds": built[3], "texts": built[5], "spans": built[6]}
    (work / "built.json").write_text(json.dumps(saved))
    return built


def keep_postings(keywords: KeywordIndex, query: str) -> None:
    """Start the keyword index's background read of its postings (resident_postings.py: what the app does
    at its first search after an open or a compaction) and wait for it, printing its cost: a one-off that
    no timed query should share a core with."""
    began, began_cpu, before = time.perf_counter(), time.process_time(), current_rss_mb()
    keywords.search(query)
    keywords.wait_for_postings()
    print(
        f"keyword postings kept in memory: {keywords._postings.resident_nbytes() / 2**20:.1f} MB, read in "
        f"{time.perf_counter() - began:.2f} s ({time.process_time() - began_cpu:.2f} CPU-s); "
        f"RSS {before:.0f} -> {current_rss_mb():.0f} MB",
        flush=True,
    )


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


def update_costs(
    keywords: KeywordIndex, vectors: VectorIndex, lite: Sqlite, path: str, versions: list[list[str]]
) -> dict[str, float]:
    """p50 of re-indexing one file in each keyword backend, its versions alternating so every update
    changes it (the LanceDB rows carry their vectors, as its delete + add would in an app). The backends
    take turns update by update (timed backend after backend, two runs minutes apart gave ×0.79 and
    ×1.07 of LanceDB's); each one's process CPU is printed beside its wall time: on a shared disk the
    wall time of ours is mostly DuckDB's COMMIT fsync (docs/keyword-writes.md)."""
    table = vectors._table
    rng = np.random.default_rng(7)
    lance_rows = [
        [
            {"path": path, "chunk_index": i, "text": t, "vector": v}
            for i, (t, v) in enumerate(zip(texts, unit_rows(len(texts), rng), strict=True))
        ]
        for texts in versions
    ]

    def lance_replace(n: int) -> None:
        table.delete(f"path = {sql_string(path)}")
        table.add(lance_rows[n % len(versions)])

    backends: dict[str, Callable[[int], object]] = {
        "SenseTree (DuckDB postings)": lambda n: keywords.upsert(path, versions[n % len(versions)]),
        "SQLite FTS5": lambda n: lite.replace(path, versions[n % len(versions)]),
        LANCE_UPDATE: lance_replace,
    }
    names = list(backends)
    walls: dict[str, list[float]] = {name: [] for name in names}
    cpus: dict[str, list[float]] = {name: [] for name in names}
    for n in range(UPDATE_WARM_UP):
        for name in names:
            backends[name](n)
    for n in range(UPDATE_WARM_UP, UPDATE_WARM_UP + UPDATES):  # interleaved, in a rotating order: the other
        for name in names[n % len(names) :] + names[: n % len(names)]:  # processes' load falls on all alike
            began, began_cpu = time.perf_counter(), time.process_time()
            backends[name](n)
            walls[name].append((time.perf_counter() - began) * 1000)
            cpus[name].append((time.process_time() - began_cpu) * 1000)  # every thread of the process
    out = {}
    for name in names:
        out[name] = percentiles(walls[name])[0]
        print(
            f"  re-index one file ({len(versions[0])} chunks), {name:<34} p50 {out[name]:7.1f} ms   "
            f"process CPU p50 {percentiles(cpus[name])[0]:6.1f} ms",
            flush=True,
        )
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
    parser.add_argument("--corpus", choices=("both", "synthetic", "real"), default="both")
    parser.add_argument(
        "--no-model", action="store_true", help="skip the timing with the real query embedding"
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="build into this folder and keep it; a later run with the same folder reuses the stores",
    )
    args = parser.parse_args()
    summaries = []
    for corpus in ("synthetic", "real") if args.corpus == "both" else (args.corpus,):
        with_model = not args.no_model and not summaries  # the model timing once, on the first corpus
        summaries.append(run_corpus(corpus, args, with_model))
    print(f"peak RSS {peak_rss_mb():.0f} MB", flush=True)
    for line in summaries:
        print(line, flush=True)


def run_corpus(corpus: str, args: argparse.Namespace, with_model: bool) -> str:
    """Build (or reopen) one corpus's stores, time every contestant on it; returns its SUMMARY line."""
    rng = np.random.default_rng(2024)
    print(f"\n== {corpus} text: {args.rows:,} chunks, {args.queries} queries, interleaved ==", flush=True)
    batches = synthetic_batches(args.rows, rng) if corpus == "synthetic" else real_batches(args.rows, rng)
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep is not None:
            kept = args.keep if corpus == "synthetic" else args.keep / "real"  # as before: DIR
            built = build_kept(batches, args.rows, kept)
            rng = np.random.default_rng(2025)  # queries drawn the same whether the stores were reused or not
        else:
            built = build(batches, args.rows, Path(tmp))
        keywords, vectors, lite, build_s, sample_vectors, sample_texts, spans = built
        draw = make_queries if corpus == "synthetic" else real_queries
        queries = draw(sample_texts, sample_vectors, args.queries, rng)
        scope = SCOPE if corpus == "synthetic" else scope_of(spans, vectors.count())
        keep_postings(keywords, queries[0][0])
        unscoped = interleaved(contestants(keywords, vectors, lite, None), queries)
        print_table("unscoped", unscoped)
        scoped = interleaved(contestants(keywords, vectors, lite, scope), queries)
        print_table(f"scoped to {scope}", scoped)
        rows = vectors.count()
        print("\nupdates", flush=True)
        if corpus == "synthetic":
            texts = [q for q, _ in queries[:CHUNKS_PER_FILE]]
            path, versions = "/bench/new/file.txt", [texts, texts[::-1]]
        else:
            path, before, after = update_file(spans)
            versions = [before, after]
        updates = update_costs(keywords, vectors, lite, path, versions)
        embedded = embedding_under_load(keywords, vectors, queries[:100]) if with_model else None
        keywords.close()
    return summarise(corpus, rows, unscoped, scoped, build_s, updates, embedded)


if __name__ == "__main__":
    main()
