"""Which fusion, with which weights: every method in engine/retrieval/fusion.py on the same arm results.

Each query's two arms (BM25 top-N with its reference score, dense top-N) are retrieved once through the
product's stores; each fusion then ranks files as HybridSearch does (best chunk per file). Parameters
are chosen on one half of the queries (a fixed hash of the query id) and reported on both halves and
on all, so a choice that only fits the half it was chosen on shows. The arms are cached in
bench/.cache/, so trying a new fusion costs seconds.

    python bench/fusion_study.py [--data DIR] [--split train] [--candidates 50]
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import CACHE_DIR, DEFAULT_SCIFACT, Beir, embed_cached, evaluate, load_beir
from quality import PREFIX, build_chunks, build_search

from engine.embed import TransformerEmbedder
from engine.retrieval.fusion import ChunkKey, calibrated, relative_score, rrf, rrf_ceiling

Arms = tuple[list[tuple[ChunkKey, float]], float, list[tuple[ChunkKey, float]]]  # keyword, reference, dense
Fusion = Callable[[Arms], list[tuple[ChunkKey, float]]]


def collect_arms(
    beir: Beir, data: Path, candidates: int, queries: dict[str, str] | None = None, label: str = ""
) -> dict[str, Arms]:
    """Per query: the keyword hits, the keyword reference score and the dense hits (cached)."""
    queries = beir.queries if queries is None else queries
    files, to_embed = build_chunks(beir, 1200, 150)
    embedder = TransformerEmbedder()
    vectors = embed_cached(embedder, to_embed, f"{data.name}-chunks")
    qids = list(queries)
    digest = hashlib.sha256(repr((sorted(queries.items()), candidates, vectors.shape)).encode()).hexdigest()
    path = CACHE_DIR / f"arms-{data.name}{label}-{digest[:16]}.pickle"
    if path.exists():
        return pickle.loads(path.read_bytes())
    qvecs = embed_cached(embedder, [queries[q] for q in qids], f"{data.name}{label}-queries")
    arms: dict[str, Arms] = {}
    with tempfile.TemporaryDirectory() as tmp:
        search = build_search(files, vectors, Path(tmp), (1.0, 1.0))
        for qid, qvec in zip(qids, qvecs, strict=True):
            text = queries[qid]
            keyword = [(h.key, h.score) for h in search.keywords.search(text, candidates)]
            dense = [(h.key, h.score) for h in search.vectors.search(qvec, candidates)]
            arms[qid] = (keyword, search.keywords.query_reference(text), dense)
        search.keywords.close()
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(arms))
    return arms


def ranked_docs(fused: list[tuple[ChunkKey, float]], limit: int = 100) -> list[tuple[str, float]]:
    """Best chunk per file, as HybridSearch._results keeps them: (doc id, score) best first."""
    seen: dict[str, float] = {}
    for (path, _), score in fused:
        doc = path[len(PREFIX) :]
        if doc not in seen:
            seen[doc] = score
            if len(seen) >= limit:
                break
    return list(seen.items())


def fusions(weight_grid: list[float], depth: int) -> dict[str, Fusion]:
    out: dict[str, Fusion] = {
        "rrf k=60": lambda a: [
            (k, s / rrf_ceiling()) for k, s in rrf([[key for key, _ in a[0]], [key for key, _ in a[2]]])
        ],
        "relative (min-max)": lambda a: relative_score([a[0], a[2]]),
    }
    for w in weight_grid:
        out[f"calibrated w_kw {w:.2f}, absent 0"] = lambda a, w=w: calibrated(a[0], a[1], a[2], (w, 1 - w))
        out[f"calibrated w_kw {w:.2f}, absent lowest"] = lambda a, w=w: calibrated(
            a[0], a[1], a[2], (w, 1 - w), depth
        )
    return out


def split_of(qid: str) -> str:
    return "tune" if int(hashlib.sha256(qid.encode()).hexdigest(), 16) % 2 == 0 else "check"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_SCIFACT)
    parser.add_argument("--split", default="train")
    parser.add_argument("--candidates", type=int, default=50, help="chunks per arm (the product's default)")
    args = parser.parse_args()
    beir = load_beir(args.data, args.split)
    arms = collect_arms(beir, args.data, args.candidates)
    halves = {
        name: {q: r for q, r in beir.qrels.items() if split_of(q) == name} for name in ("tune", "check")
    }
    print(
        f"{args.data.name}/{args.split}: {len(arms)} queries ({len(halves['tune'])} tune, "
        f"{len(halves['check'])} check), {args.candidates} candidates per arm"
    )
    results: dict[str, tuple[float, float, float]] = {}
    for name, fuse in fusions([round(x, 2) for x in np.arange(0.2, 0.81, 0.05)], args.candidates).items():
        runs = {q: [d for d, _ in ranked_docs(fuse(a))] for q, a in arms.items()}
        figures = tuple(evaluate(runs, qrels)[0] for qrels in (halves["tune"], halves["check"], beir.qrels))
        results[name] = figures  # type: ignore[assignment]
        print(f"{name:<36} nDCG@10 tune {figures[0]:.4f}  check {figures[1]:.4f}  all {figures[2]:.4f}")
    best = max((n for n in results if n.startswith("calibrated")), key=lambda n: results[n][0])
    print(
        f"SUMMARY best on the tune half: {best} (tune {results[best][0]:.4f}, check {results[best][1]:.4f}, "
        f"all {results[best][2]:.4f}); rrf all {results['rrf k=60'][2]:.4f}"
    )


if __name__ == "__main__":
    main()
