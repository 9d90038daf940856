"""Which ANN index for the vector store: recall@10 against exact search and top-50 latency, on real vectors.

bench/search_latency.py times the stores on random vectors (the worst case for recall, since random
points have no neighbourhoods). This benchmark answers the other question — does an index find the
right neighbours on embeddings as they really are? — using the SciFact chunk vectors that
bench/quality.py caches (all-MiniLM-L6-v2), tiled to `--rows` with small noise (each copy keeps a
cosine of ~0.8 to its original, so the table has real structure and no exact duplicates), and the
real SciFact queries. For each configuration it prints the build time, recall@10 against flat search,
and the p50/p95 of a top-50 query that returns the chunk text, as the product's does.

    python bench/ann_choice.py [--rows 100000] [--queries 200] [--hnsw-only] [--efs 100,200]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import HnswSq, IvfPq

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DEFAULT_SCIFACT, embed_cached, load_beir, percentiles
from quality import build_chunks

from engine.embed import TransformerEmbedder

NOISE = 0.038  # per-dimension σ: a copy keeps cosine ≈ 0.8 with its original at 384 dimensions
SELECT = ["path", "chunk_index", "text", "_distance"]


def real_vectors(rows: int, queries: int) -> tuple[np.ndarray, np.ndarray]:
    beir = load_beir(DEFAULT_SCIFACT, "train")
    _, to_embed = build_chunks(beir, 1200, 150)
    embedder = TransformerEmbedder()
    base = embed_cached(embedder, to_embed, "scifact-chunks")
    asked = embed_cached(embedder, list(beir.queries.values()), "scifact-queries")[:queries]
    rng = np.random.default_rng(7)
    copies = [base] + [
        base + rng.standard_normal(base.shape).astype(np.float32) * NOISE
        for _ in range(rows // len(base) + 1)
    ]
    matrix = np.concatenate(copies)[:rows]
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True), asked.astype(np.float32)


def make_table(work: Path, matrix: np.ndarray):  # -> lancedb.table.Table
    rows = len(matrix)
    return lancedb.connect(str(work)).create_table(
        "chunks",
        pa.table(
            {
                "path": pa.array([f"/bench/file{i // 5:07d}.txt" for i in range(rows)]),
                "chunk_index": pa.array([i % 5 for i in range(rows)], pa.int32()),
                "text": pa.array(["chunk text of about the product's size " * 25] * rows),
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(matrix.reshape(-1)), matrix.shape[1]),
            }
        ),
    )


def keys(table: pa.Table) -> list[tuple[str, int]]:
    return list(zip(table["path"].to_pylist(), table["chunk_index"].to_pylist(), strict=False))


def measure(label: str, search, queries: np.ndarray, truth: list[set]) -> tuple[float, float]:
    found = sum(len(truth[i] & set(keys(search(queries[i]))[:10])) for i in range(len(truth)))
    for vector in queries[:10]:
        search(vector)
    samples = []
    for vector in queries:
        started = time.perf_counter()
        search(vector)
        samples.append((time.perf_counter() - started) * 1000)
    p50, p95 = percentiles(samples)
    recall = found / (10 * len(truth))
    print(f"  {label:<44} recall@10 {recall:.3f}   p50 {p50:6.1f} ms   p95 {p95:6.1f} ms", flush=True)
    return recall, p50


def build(table, label: str, config) -> None:
    started = time.perf_counter()
    table.create_index("vector", config=config, replace=True)
    print(f"{label}: built in {time.perf_counter() - started:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--hnsw-only", action="store_true", help="skip the IVF-PQ builds (minutes each at 1M rows)"
    )
    parser.add_argument("--efs", default="100,200", help="HNSW search breadths to measure")
    args = parser.parse_args()
    matrix, queries = real_vectors(args.rows, args.queries)
    work = Path(tempfile.mkdtemp(prefix="ann-choice-"))
    try:
        table = make_table(work, matrix)

        def base(v: np.ndarray) -> Any:
            return table.search(v).distance_type("cosine").limit(50).select(SELECT)

        truth = [set(keys(base(v).bypass_vector_index().limit(10).to_arrow())) for v in queries[:50]]
        print(
            f"{args.rows:,} real MiniLM vectors (SciFact, tiled), {len(queries)} real queries, top-50",
            flush=True,
        )
        measure("flat (exact)", lambda v: base(v).bypass_vector_index().to_arrow(), queries, truth)
        results: dict[str, tuple[float, float]] = {}
        ivf_configs = (
            ()
            if args.hnsw_only
            else ((max(8, args.rows // 4096), ((10, 20),)), (int(args.rows**0.5), ((20, 5), (40, 10))))
        )
        for partitions, probes in ivf_configs:
            build(
                table,
                f"IVF-PQ {partitions} partitions",
                IvfPq(
                    distance_type="cosine", num_partitions=partitions, num_sub_vectors=matrix.shape[1] // 8
                ),
            )
            for nprobes, refine in probes:
                label = f"IVF-PQ {partitions} p, nprobes {nprobes}, refine {refine}"
                results[label] = measure(
                    label,
                    lambda v, n=nprobes, r=refine: base(v).nprobes(n).refine_factor(r).to_arrow(),
                    queries,
                    truth,
                )
        build(
            table,
            "HNSW-SQ m 20, ef_construction 150 (the product's)",
            HnswSq(distance_type="cosine", num_partitions=1, m=20, ef_construction=150),
        )
        for ef in (int(e) for e in args.efs.split(",")):
            results[f"HNSW-SQ ef {ef}"] = measure(
                f"HNSW-SQ ef {ef}", lambda v, e=ef: base(v).ef(e).to_arrow(), queries, truth
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        "SUMMARY "
        + "; ".join(f"{label}: recall@10 {r:.3f}, p50 {p:.1f} ms" for label, (r, p) in results.items())
    )


if __name__ == "__main__":
    main()
