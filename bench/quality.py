"""Search quality on a BEIR collection (SciFact train by default): nDCG@10 and recall@100 per arm.

Indexes the corpus through the product's own stores (KeywordIndex, VectorIndex, HybridSearch) with
the real embedding model, and prints: BM25 alone, dense alone, hybrid, hybrid + rerank (when
settings configure a reranker), and DuckDB's static create_fts_index/match_bm25 over the same chunks
as the reference for the BM25 arm. Documents are chunked like the product does (chunk #0 starts with
the title; later chunks are embedded with a title prefix but stored clean); a document's rank is
that of its best chunk. Embeddings are cached in bench/.cache/. The relevance floor's figures follow
(floor_report.py): nDCG@10 with and without it, relevant results it cuts, nonsense answered "No matches".

    python bench/quality.py [--data DIR] [--split train] [--int8]
    python bench/quality.py --floor             # only the relevance floor's figures
    (the floor is chosen on SciFact and personal folders together: bench/search_meaning.py --calibrate)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import FTS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import floor_report
from _common import DEFAULT_SCIFACT, Beir, chunker, embed_cached, evaluate, load_beir

from engine.config import load_settings
from engine.embed import TransformerEmbedder
from engine.resources import fts_extension_path
from engine.retrieval.hybrid import FUSIONS, KEYWORD_WEIGHT, HybridSearch
from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.rerank import make_reranker
from engine.retrieval.vectors import VectorIndex

PREFIX = "/scifact/"


def build_chunks(
    beir: Beir, chunk_chars: int, overlap: int, engine_chunker: bool = True
) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """(path, stored chunks) per document, and the texts to embed (title-prefixed after chunk #0)."""
    _, chunk = chunker(engine_chunker)
    files, to_embed = [], []
    for doc_id, (title, text) in beir.corpus.items():
        parts = chunk(f"{title}\n\n{text}".strip(), chunk_chars, overlap)
        files.append((PREFIX + doc_id, parts))
        to_embed += [p if i == 0 else f"{title} · {p}" for i, p in enumerate(parts)]
    return files, to_embed


def build_search(files, vectors: np.ndarray, work: Path, weights: tuple[float, float]) -> HybridSearch:
    keywords = KeywordIndex(work / "k.duckdb")
    keywords.upsert_many(files)
    store = VectorIndex(work / "vectors", vectors.shape[1])
    rows, start = [], 0
    for path, parts in files:
        rows.append((path, parts, vectors[start : start + len(parts)]))
        start += len(parts)
    store.upsert_many(rows)
    return HybridSearch(
        keywords,
        store,
        embedder=None,
        weights=weights,  # type: ignore[arg-type]
        exists=lambda _path: True,
        floor=0.0,  # the arms and fusions are compared whole; floor_report.py measures the floor's effect
    )


def doc_ids(results) -> list[str]:
    return [r.path[len(PREFIX) :] for r in results]


_STATIC_SCORES = """
    WITH qterms AS (SELECT DISTINCT stem(unnest(fts_main_docs.tokenize(?)), 'porter') AS t),
         qids AS (SELECT termid, df FROM fts_main_docs.dict, qterms WHERE dict.term = qterms.t),
         tf AS (SELECT t.docid, t.termid, count(*) AS tf FROM fts_main_docs.terms t
                WHERE t.termid IN (SELECT termid FROM qids) GROUP BY t.docid, t.termid),
         stats AS (SELECT num_docs, avgdl FROM fts_main_docs.stats)
    SELECT d.name, sum(log(((stats.num_docs - q.df + 0.5) / (q.df + 0.5)) + 1)
                       * ((tf.tf * 2.2) / (tf.tf + 1.2 * (0.25 + 0.75 * (d.len / stats.avgdl))))) AS score
    FROM tf JOIN qids q USING (termid) JOIN fts_main_docs.docs d USING (docid), stats
    GROUP BY d.name"""


def static_reference(files, beir: Beir, whole_documents: bool) -> dict[str, list[str]]:
    """DuckDB's own FTS index (all defaults) over the same chunks, or over whole documents.

    Calling match_bm25 once per row is quadratic, so documents are scored with match_bm25's own
    formula over the index's tables in one pass; the first queries are checked against match_bm25.
    """
    con = duckdb.connect()
    con.execute(f"LOAD '{fts_extension_path()}'")
    con.execute("CREATE TABLE docs (key VARCHAR, doc VARCHAR, body VARCHAR)")
    if whole_documents:
        rows = [(d, d, f"{t}\n\n{x}") for d, (t, x) in beir.corpus.items()]
    else:
        rows = [(f"{p}#{i}", p[len(PREFIX) :], c) for p, parts in files for i, c in enumerate(parts)]
    con.executemany("INSERT INTO docs VALUES (?, ?, ?)", rows)
    ignore = tokenize.IGNORE_PATTERN.replace("'", "''")  # the same tokenisation as ours (digits kept)
    con.execute(f"PRAGMA create_fts_index('docs', 'key', 'body', ignore='{ignore}')")
    doc_of = dict(con.execute("SELECT key, doc FROM docs").fetchall())
    runs = {}
    for n, (qid, query) in enumerate(beir.queries.items()):
        scores = dict(con.execute(_STATIC_SCORES, [query]).fetchall())
        if n < 3:
            _check_against_match_bm25(con, query, scores)
        best: dict[str, float] = {}
        for key, score in scores.items():
            best[doc_of[key]] = max(score, best.get(doc_of[key], float("-inf")))
        runs[qid] = [d for d, _ in sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))[:100]]
    con.close()
    return runs


def _check_against_match_bm25(con, query: str, scores: dict[str, float]) -> None:
    sample = sorted(scores, key=scores.get, reverse=True)[:5]  # type: ignore[arg-type]
    for key in sample:
        row = con.execute(
            "SELECT fts_main_docs.match_bm25(key, ?) FROM docs WHERE key = ?", [query, key]
        ).fetchone()
        if row is None or abs(row[0] - scores[key]) > 1e-6 * max(1.0, abs(row[0])):
            raise SystemExit(
                f"static reference formula disagrees with match_bm25 on {key}: {row} vs {scores[key]}"
            )


def lance_fts_reference(files, beir: Beir, work: Path, candidates: int) -> dict[str, list[str]]:
    """LanceDB's native full-text index (its defaults: English stemming and stop words) over the same
    chunks: the keyword arm a person would get by choosing LanceDB's hybrid instead of ours."""
    rows = [(p[len(PREFIX) :], c) for p, parts in files for c in parts]
    table = lancedb.connect(str(work / "lance-fts")).create_table(
        "chunks", pa.table({"doc": [d for d, _ in rows], "text": [c for _, c in rows]})
    )
    table.create_index("text", config=FTS())  # native, not tantivy; its defaults
    runs = {}
    for qid, query in beir.queries.items():
        found = table.search(query, query_type="fts").limit(candidates).select(["doc", "_score"]).to_arrow()
        ranked: list[str] = []
        for doc in found["doc"].to_pylist():  # best first, so a document's first chunk is its best
            if doc not in ranked:
                ranked.append(doc)
        runs[qid] = ranked[:100]
    return runs


def run_arm(beir: Beir, fn) -> dict[str, list[str]]:
    return {qid: doc_ids(fn(qid, query)) for qid, query in beir.queries.items()}


def report(label: str, runs: dict[str, list[str]], beir: Beir, figures: dict[str, float]) -> None:
    ndcg, recall = evaluate(runs, beir.qrels)
    figures[label] = ndcg
    print(f"{label:<40} nDCG@10 {ndcg:.4f}   recall@100 {recall:.4f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_SCIFACT)
    parser.add_argument("--split", default="train")
    parser.add_argument("--chunk-chars", type=int, default=1200)
    parser.add_argument("--overlap", type=int, default=150)
    parser.add_argument("--candidates", type=int, default=200, help="chunks per arm (recall@100 needs > 100)")
    parser.add_argument(
        "--weights",
        default=f"{KEYWORD_WEIGHT},{1 - KEYWORD_WEIGHT}",
        help="fusion weights of the BM25 and dense arms (default: the product's)",
    )
    parser.add_argument("--floor", action="store_true", help="only the relevance floor's figures")
    parser.add_argument(
        "--calibrate-floor",
        action="store_true",
        help="moved: bench/search_meaning.py --calibrate (SciFact and personal folders together)",
    )
    parser.add_argument(
        "--chunker",
        choices=["engine", "bench"],
        default="engine",
        help="engine.indexing.chunk (default) or the bench's own simple chunker",
    )
    parser.add_argument("--int8", action="store_true", help="also measure dynamic int8 (dense nDCG delta)")
    parser.add_argument(
        "--keyword-only",
        action="store_true",
        help="only the BM25 arms (ours, DuckDB static, LanceDB FTS): no model, no embeddings",
    )
    args = parser.parse_args()
    weights = tuple(float(w) for w in args.weights.split(","))

    beir = load_beir(args.data, args.split)
    files, to_embed = build_chunks(beir, args.chunk_chars, args.overlap, args.chunker == "engine")
    print(
        f"{args.data.name}/{args.split}: {len(beir.corpus)} documents, {len(to_embed)} chunks "
        f"({chunker(args.chunker == 'engine')[0]}), {len(beir.queries)} queries",
        flush=True,
    )
    if args.keyword_only:
        keyword_only(beir, files, args.candidates)
        return
    embedder = TransformerEmbedder()
    started = time.perf_counter()
    vectors = embed_cached(embedder, to_embed, f"{args.data.name}-chunks")
    qids = list(beir.queries)
    query_texts = [beir.queries[q] for q in qids]
    qvecs = dict(zip(qids, embed_cached(embedder, query_texts, f"{args.data.name}-queries"), strict=False))
    print(f"embeddings ready in {time.perf_counter() - started:.0f} s (cached in bench/.cache/)", flush=True)

    figures: dict[str, float] = {}
    n = args.candidates
    with tempfile.TemporaryDirectory() as tmp:
        search = build_search(files, vectors, Path(tmp), weights)  # type: ignore[arg-type]
        if args.floor or args.calibrate_floor:
            floor_report.report(search, beir, qvecs, embedder.embed, args.calibrate_floor)
            search.keywords.close()
            return
        report(
            "BM25 (ours, incremental)",
            run_arm(beir, lambda q, t: search.search_keyword(t, limit=100, candidates=n)),
            beir,
            figures,
        )
        report("BM25 (DuckDB static, same chunks)", static_reference(files, beir, False), beir, figures)
        report("BM25 (DuckDB static, whole docs)", static_reference(files, beir, True), beir, figures)
        report(
            "BM25 (LanceDB native FTS, same chunks)",
            lance_fts_reference(files, beir, Path(tmp), n),
            beir,
            figures,
        )
        report(
            "dense (all-MiniLM-L6-v2)",
            run_arm(beir, lambda q, t: search.search_dense(t, limit=100, candidates=n, vector=qvecs[q])),
            beir,
            figures,
        )
        report(
            f"hybrid ({search.fusion} fusion, weights {args.weights})",
            run_arm(beir, lambda q, t: search.search(t, limit=100, candidates=n, vector=qvecs[q])),
            beir,
            figures,
        )
        report(
            "hybrid, product default candidates=50",
            run_arm(beir, lambda q, t: search.search(t, limit=100, candidates=50, vector=qvecs[q])),
            beir,
            figures,
        )
        for fusion in (f for f in FUSIONS if f != search.fusion):
            default, search.fusion = search.fusion, fusion
            report(
                f"hybrid ({fusion} fusion), candidates=50",
                run_arm(beir, lambda q, t: search.search(t, limit=100, candidates=50, vector=qvecs[q])),
                beir,
                figures,
            )
            search.fusion = default
        reranker = make_reranker(load_settings().rerank)
        if reranker is not None:
            search.reranker = reranker
            report(
                f"hybrid + rerank ({reranker.name})",
                run_arm(beir, lambda q, t: search.search(t, limit=100, candidates=n, vector=qvecs[q])),
                beir,
                figures,
            )
        else:
            print("hybrid + rerank                    skipped: no reranker configured (rerank.kind is off)")
        if args.int8:
            measure_int8(beir, files, to_embed, qids, Path(tmp), figures, args.data.name)
        summarise(figures)
        floor_report.report(search, beir, qvecs, embedder.embed, calibrate=False)
        search.keywords.close()


def keyword_only(beir: Beir, files, candidates: int) -> None:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        keywords = KeywordIndex(Path(tmp) / "k.duckdb")
        keywords.upsert_many(files)
        empty = VectorIndex(Path(tmp) / "vectors", 384)  # keyword hits carry their text; nothing is read here
        search = HybridSearch(keywords, empty, embedder=None, exists=lambda _path: True)  # type: ignore[arg-type]
        report(
            "BM25 (ours, incremental)",
            run_arm(beir, lambda q, t: search.search_keyword(t, limit=100, candidates=candidates)),
            beir,
            figures,
        )
        report("BM25 (DuckDB static, same chunks)", static_reference(files, beir, False), beir, figures)
        report(
            "BM25 (LanceDB native FTS, same chunks)",
            lance_fts_reference(files, beir, Path(tmp), candidates),
            beir,
            figures,
        )
        keywords.close()
    ours, lance = figures["BM25 (ours, incremental)"], figures["BM25 (LanceDB native FTS, same chunks)"]
    print(
        f"SUMMARY bm25 {ours:.4f} vs LanceDB FTS {lance:.4f} "
        f"(target ≥: {'met' if ours >= lance else 'MISSED'}) nDCG@10 (keyword arms only)"
    )


def measure_int8(beir, files, to_embed, qids, work: Path, figures: dict[str, float], label: str) -> None:
    quantized = TransformerEmbedder(quantize="int8")
    vectors = embed_cached(quantized, to_embed, f"{label}-chunks")
    query_texts = [beir.queries[q] for q in qids]
    qvecs = dict(zip(qids, embed_cached(quantized, query_texts, f"{label}-queries"), strict=False))
    search = build_search(files, vectors, work / "int8", (1.0, 1.0))
    report(
        "dense, dynamic int8",
        run_arm(beir, lambda q, t: search.search_dense(t, limit=100, candidates=200, vector=qvecs[q])),
        beir,
        figures,
    )
    delta = figures["dense, dynamic int8"] - figures["dense (all-MiniLM-L6-v2)"]
    print(f"int8 dense nDCG@10 delta: {delta:+.4f}")
    search.keywords.close()


def summarise(figures: dict[str, float]) -> None:
    ours = figures["BM25 (ours, incremental)"]
    static = figures["BM25 (DuckDB static, same chunks)"]
    hybrid = next(v for k, v in figures.items() if k.startswith("hybrid (") and "weights" in k)  # the default
    lance = figures["BM25 (LanceDB native FTS, same chunks)"]
    print(
        f"SUMMARY bm25 {ours:.4f} vs DuckDB static {static:.4f} (Δ {ours - static:+.4f}) "
        f"and LanceDB FTS {lance:.4f} (target ≥: {'met' if ours >= lance else 'MISSED'}); "
        f"dense {figures['dense (all-MiniLM-L6-v2)']:.4f}; "
        f"hybrid {hybrid:.4f} (target ≥ 0.73: {'met' if hybrid >= 0.73 else 'MISSED'}) nDCG@10"
    )


if __name__ == "__main__":
    main()
