"""The coordination power on SciFact train: keyword-arm nDCG@10 with each power, and hybrid when the
embeddings are cached (engine/retrieval/coordination.py).

The keyword arm alone needs no embedding, so this prints in a minute on any machine; the hybrid figure
(the product's fusion with the floor off, as bench/quality.py measures it) needs SciFact's chunk
embeddings, which bench/quality.py caches in bench/.cache/ (`--hybrid` computes them when missing, about
10 minutes on an idle 2-core machine).

    python bench/coordination_study.py --data /work/shared/data/scifact [--hybrid] [--powers 0 1 2]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import quality
from _common import evaluate, load_beir, write_constant

from engine.retrieval import relevance
from engine.retrieval.coordination import coordinated, share_held
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.terms import shared_matcher


def _documents(hits, k: int = 10) -> list[str]:
    """The first `k` distinct documents of best-first chunk hits (their best chunk counts)."""
    out: list[str] = []
    for hit in hits:
        doc = hit.path[len(quality.PREFIX) :]
        if doc not in out:
            out.append(doc)
        if len(out) == k:
            break
    return out


def keyword_ndcg(keywords: KeywordIndex, beir, power: float, only=None, candidates: int = 200) -> float:
    """The keyword arm's nDCG@10 over SciFact train (or the queries `only`) with the hits coordinated
    at `power`."""
    runs = {}
    for qid, text in beir.queries.items():
        if qid not in beir.qrels or (only is not None and qid not in only):
            continue
        answer = keywords.answer(text, candidates)
        hits = coordinated(answer.hits, answer.texts, answer.terms.terms, power, shared_matcher())
        runs[qid] = _documents(hits)
    return evaluate(runs, beir.qrels)[0]


def touched(keywords: KeywordIndex, beir, files, related: float, candidates: int = 200) -> list[str]:
    """(queries the rule could change, queries): a query is counted when its best keyword hit holds only
    part of its terms and that chunk's cosine with it (embedded as bench/quality.py embeds chunks) is at
    most `related`. The product applies the rule to no more of them (coordination.coincidental gives a
    chunk outside the dense arm's cut at most the arm's lowest cosine), so this bounds the share of
    SciFact queries whose ranking it can move, without embedding the whole corpus."""
    import numpy as np

    from engine.embed import TransformerEmbedder

    titles = {quality.PREFIX + doc: title for doc, (title, _) in beir.corpus.items()}
    matcher = shared_matcher()
    partial: dict[str, tuple[str, str]] = {}
    for qid, text in beir.queries.items():
        answer = keywords.answer(text, candidates)
        if qid in beir.qrels and answer.hits and len(answer.terms.terms) > 1:
            best = answer.hits[0]
            chunk = answer.texts[best.key]
            matcher.learn([chunk], answer.terms.terms)
            if share_held(chunk, answer.terms.terms, matcher) < 1.0:
                shown = chunk if best.chunk_index == 0 else f"{titles[best.path]} · {chunk}"
                partial[qid] = (text, shown)
    embedder = TransformerEmbedder()
    queries = np.asarray(embedder.embed([q for q, _ in partial.values()]), dtype=np.float32)
    chunks = np.asarray(embedder.embed([c for _, c in partial.values()]), dtype=np.float32)
    cosines = (queries * chunks).sum(1) / (np.linalg.norm(queries, axis=1) * np.linalg.norm(chunks, axis=1))
    print(f"  SciFact queries whose best keyword hit holds part of the query: {len(partial)}")
    return [qid for qid, cosine in zip(partial, cosines, strict=True) if cosine <= related]


def hybrid_ndcg(search, beir, qvecs, power: float) -> float:
    """The product's hybrid search (floor off) nDCG@10 with coordination at `power`."""
    search.coordination = power
    runs = {
        qid: quality.doc_ids(search.search(beir.queries[qid], limit=10, candidates=200, vector=qvecs[qid]))
        for qid in beir.qrels
    }
    return evaluate(runs, beir.qrels)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=quality.DEFAULT_SCIFACT)
    parser.add_argument("--powers", type=float, nargs="+", default=[0.0, 1.0, 2.0])
    parser.add_argument("--touched", action="store_true", help="the queries the rule can change")
    parser.add_argument("--hybrid", action="store_true", help="also the hybrid figure (needs embeddings)")
    args = parser.parse_args()
    beir = load_beir(args.data, "train")
    files, _ = quality.build_chunks(beir, 1200, 150, True)
    with tempfile.TemporaryDirectory() as tmp:
        keywords = KeywordIndex(Path(tmp) / "k.duckdb")
        keywords.upsert_many(files)
        if args.touched:
            qids = set(touched(keywords, beir, files, relevance.SEMANTIC_EVIDENCE))
            total = sum(1 for q in beir.queries if q in beir.qrels)
            share = len(qids) / total
            print(f"SciFact train queries the rule can change: {len(qids)} of {total} ({share:.1%})")
            for power in args.powers:
                ndcg = keyword_ndcg(keywords, beir, power, qids)
                print(f"  power {power}: their keyword-arm nDCG@10 {ndcg:.4f}")
        else:
            for power in args.powers:
                ndcg = keyword_ndcg(keywords, beir, power)
                print(
                    f"power {power}: SciFact train keyword-arm nDCG@10, every query coordinated: {ndcg:.4f}"
                )
        keywords.close()
        if args.hybrid:
            import calibrate_floor

            _, search, qvecs, _ = calibrate_floor.scifact(args.data, Path(tmp) / "scifact")
            search.floor = None
            for power in args.powers:
                ndcg = hybrid_ndcg(search, beir, qvecs, power)
                print(f"power {power}: SciFact train hybrid nDCG@10 {ndcg:.4f}")


if __name__ == "__main__":
    main()


POWERS = (0.0, 1.0, 2.0, 3.0)


def calibrate(args, index, run, table, verdict) -> None:
    """`search_meaning.py --calibrate-coordination`: on the calibration seeds, the smallest power of POWERS
    with the best meaning top-3 among those that keep keyword and topic top-1 and known-item top-10 at
    least as high as power 0; written into coordination.py, then the held-out seeds measured."""

    from engine.retrieval import coordination

    with tempfile.TemporaryDirectory() as tmp:
        indexed = [index(seed, args.size, args.keep_in or Path(tmp)) for seed in args.seeds]
        chosen, best, base = 0.0, -1.0, None
        for power in POWERS:
            for one in indexed:
                one.engine.parts.search.coordination = power
            figures = table(f"power {power}", [s for one in indexed for s in run(one, False)])
            kept = [figures["keyword"]["top1"], figures["topic"]["top1"], figures["known_item"]["top10"]]
            base = base or kept
            if (
                all(k >= b for k, b in zip(kept, base, strict=True))
                and figures["meaning"]["top3"] > best + 1e-9
            ):
                chosen, best = power, figures["meaning"]["top3"]
        for one in indexed:
            one.engine.running.close()
        write_constant(Path(coordination.__file__), "COORDINATION", chosen)
        held = []
        for seed in args.held_out:
            one = index(seed, args.size, args.keep_in or Path(tmp))
            one.engine.parts.search.coordination = chosen
            held += run(one, False)
            one.engine.running.close()
        if held:
            print(
                "SUMMARY held-out: " + verdict(table(f"held-out seeds {args.held_out} ({args.size})", held))
            )
