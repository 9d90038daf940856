"""Search latency at 100k and 1M chunks: p50/p95 per arm and for hybrid, unscoped and scoped, peak RSS.

The corpus is generated: chunks of ~90 content words drawn from a Zipfian vocabulary of pronounceable
pseudo-words (so BM25 postings have a realistic skew), files of 5 chunks spread over 1,000 folders,
and random unit 384-d vectors. Query text is 3–5 words taken from a random chunk; query vectors are a
chunk's vector plus noise. Hybrid is timed with that fixed query vector, so model time is excluded
(embedding one query with MiniLM on CPU adds ~10–20 ms). Also printed: build times, flat vs ANN
vector search and the ANN's recall@10 against flat, and the cost of re-indexing one file.

    python bench/search_latency.py [--sizes 100000,1000000] [--quick]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_rss_mb, time_calls

from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.vectors import VectorIndex

DIM = 384
WORDS_PER_CHUNK = 90
CHUNKS_PER_FILE = 5
FOLDERS = 1000
STOPWORD_RANKS = 100
BATCH = 50_000
SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in ("a", "e", "i", "o", "u", "ai", "ou")]


def vocabulary(size: int, rng: np.random.Generator) -> np.ndarray:
    words: set[str] = set()
    while len(words) < size:
        parts = rng.integers(0, len(SYLLABLES), size=rng.integers(1, 5))
        words.add("".join(SYLLABLES[p] for p in parts) + ("s" if rng.random() < 0.2 else ""))
    return np.array(sorted(words, key=lambda w: rng.random()))


def chunk_texts(count: int, vocab: np.ndarray, rng: np.random.Generator) -> list[str]:
    """Zipfian words, skipping the head of the distribution: in real text those are stopwords, which
    never reach the postings, so the most common remaining word is in a minority of chunks."""
    needed = count * WORDS_PER_CHUNK
    draws = rng.zipf(1.15, size=needed * 3)
    draws = draws[(draws > STOPWORD_RANKS) & (draws <= len(vocab))]
    while draws.size < needed:
        more = rng.zipf(1.15, size=needed)
        draws = np.concatenate([draws, more[(more > STOPWORD_RANKS) & (more <= len(vocab))]])
    ranks = draws[:needed].reshape(count, WORDS_PER_CHUNK) - 1
    return [" ".join(vocab[row]) for row in ranks]


def file_path(number: int) -> str:
    return f"/bench/folder{number % FOLDERS:04d}/file{number:07d}.txt"


def unit_rows(count: int, rng: np.random.Generator) -> np.ndarray:
    rows = rng.standard_normal((count, DIM), dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


Batch = tuple[int, list[str], np.ndarray, list[tuple[str, int]]]


def corpus_batches(size: int, rng: np.random.Generator) -> Iterator[Batch]:
    """The generated corpus in batches of BATCH chunks: (count, texts, unit vectors, [(file path, first
    chunk's offset in the batch)]), CHUNKS_PER_FILE chunks to a file; bench/compare.py builds from it too."""
    vocab = vocabulary(60_000, rng)
    for start in range(0, size, BATCH):
        count = min(BATCH, size - start)
        texts, matrix = chunk_texts(count, vocab, rng), unit_rows(count, rng)
        first_file = start // CHUNKS_PER_FILE
        yield (
            count,
            texts,
            matrix,
            [(file_path(first_file + i // CHUNKS_PER_FILE), i) for i in range(0, count, CHUNKS_PER_FILE)],
        )


def build(
    size: int, work: Path, rng: np.random.Generator
) -> tuple[KeywordIndex, VectorIndex, np.ndarray, list[str]]:
    """Index `size` chunks in batches; returns the stores, a sample of vectors and texts for queries."""
    keywords = KeywordIndex(work / "k.duckdb")
    vectors = VectorIndex(work / "vectors", DIM)
    sample_vectors, sample_texts = [], []
    kw_s = vec_s = 0.0
    done = 0
    for count, texts, matrix, files in corpus_batches(size, rng):
        done += count
        started = time.perf_counter()
        keywords.upsert_many((path, texts[i : i + CHUNKS_PER_FILE]) for path, i in files)
        kw_s += time.perf_counter() - started
        started = time.perf_counter()
        vectors.upsert_many(
            (path, texts[i : i + CHUNKS_PER_FILE], matrix[i : i + CHUNKS_PER_FILE]) for path, i in files
        )
        vec_s += time.perf_counter() - started
        sample_vectors.append(matrix[:40])
        sample_texts += texts[:40]
        print(f"  indexed {done}/{size} chunks", file=sys.stderr, flush=True)
    started = time.perf_counter()
    keywords.refresh_weights()
    refresh_s = time.perf_counter() - started
    print(
        f"build: keyword {kw_s:.0f} s + refresh_weights {refresh_s:.1f} s; vectors {vec_s:.0f} s; "
        f"{keywords.stats()['postings']:,} postings",
        flush=True,
    )
    return keywords, vectors, np.concatenate(sample_vectors), sample_texts


def make_queries(
    texts: list[str], vectors: np.ndarray, count: int, rng: np.random.Generator
) -> list[tuple[str, np.ndarray]]:
    queries = []
    for _ in range(count):
        i = int(rng.integers(0, len(texts)))
        words = texts[i].split()
        picks = rng.choice(len(words), size=int(rng.integers(3, 6)), replace=False)
        noisy = vectors[i] + rng.standard_normal(DIM).astype(np.float32) * 0.02
        queries.append((" ".join(words[p] for p in picks), noisy / np.linalg.norm(noisy)))
    return queries


def timed(label: str, fn, queries, repeats: int = 1) -> float:
    cycle = iter(queries * (repeats + 1))
    p50, p95 = time_calls(lambda: fn(*next(cycle)), len(queries) * repeats)
    print(f"  {label:<34} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms", flush=True)
    return p50


def ann_recall(vectors: VectorIndex, queries) -> tuple[float, float]:
    """(recall@1, recall@10) of the ANN index against exact search. Random vectors are the worst case
    for recall@10 (all neighbours but the planted one are nearly equidistant); @1 finds the planted one."""
    top1 = found = 0
    for _, vector in queries:
        exact = (
            vectors._table.search(vector).distance_type("cosine").bypass_vector_index().limit(10).to_arrow()
        )
        truth = list(zip(exact["path"].to_pylist(), exact["chunk_index"].to_pylist(), strict=False))
        approx = [h.key for h in vectors.search(vector, 10)]
        top1 += bool(approx) and approx[0] == truth[0]
        found += len(set(truth) & set(approx))
    return top1 / len(queries), found / (10 * len(queries))


def measure(size: int, queries_n: int, rng: np.random.Generator) -> dict[str, float]:
    print(f"\n== {size:,} chunks ==", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        keywords, vectors, sample_vectors, sample_texts = build(size, Path(tmp), rng)
        queries = make_queries(sample_texts, sample_vectors, queries_n, rng)
        scope = "/bench/folder0007"
        timed("vector flat (before optimize)", lambda q, v: vectors.search(v, 50), queries[:10])
        started = time.perf_counter()
        vectors.optimize()
        print(
            f"  optimize (path B-tree{' + HNSW-SQ' if vectors.has_ann() else ''}): "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        if vectors.has_ann():
            at1, at10 = ann_recall(vectors, queries[:30])
            print(f"  ANN vs exact: recall@1 {at1:.3f}, recall@10 {at10:.3f}", flush=True)
        search = HybridSearch(keywords, vectors, embedder=None, exists=lambda _p: True)  # type: ignore[arg-type]
        figures = {
            "bm25": timed("bm25 top-50", lambda q, v: keywords.search(q, 50), queries),
            "vector": timed("vector top-50", lambda q, v: vectors.search(v, 50), queries),
            "hybrid": timed(
                "hybrid top-10 (fixed query vector)", lambda q, v: search.search(q, vector=v), queries
            ),
            "bm25_scoped": timed(
                "bm25 scoped to one folder", lambda q, v: keywords.search(q, 50, scope), queries
            ),
            "vector_scoped": timed(
                "vector scoped to one folder", lambda q, v: vectors.search(v, 50, scope), queries
            ),
            "hybrid_scoped": timed(
                "hybrid scoped to one folder", lambda q, v: search.search(q, scope=scope, vector=v), queries
            ),
        }
        new_texts = [q for q, _ in queries[:CHUNKS_PER_FILE]]
        timed(
            "re-index one 5-chunk file (keyword)",
            lambda q, v: keywords.upsert("/bench/new/file.txt", new_texts),
            queries[:10],
        )
        print(
            f"  keyword stale ratio now {keywords.stale_ratio():.5f}; peak RSS {peak_rss_mb():.0f} MB",
            flush=True,
        )
        keywords.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--quick", action="store_true", help="one small corpus (20k chunks), few queries")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    sizes = [20_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    queries_n = 30 if args.quick else args.queries
    rng = np.random.default_rng(2024)
    results = {size: measure(size, queries_n, rng) for size in sizes}
    targets = {100_000: 25.0, 1_000_000: 150.0}
    summary = "; ".join(
        f"{size:,}: hybrid p50 {r['hybrid']:.1f} ms (scoped {r['hybrid_scoped']:.1f})"
        + (
            f" target ≤ {targets[size]:.0f} {'met' if r['hybrid'] <= targets[size] else 'MISSED'}"
            if size in targets
            else ""
        )
        for size, r in results.items()
    )
    print(f"SUMMARY {summary}; peak RSS {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
