"""The relevance floor, measured and calibrated (bench/quality.py --floor / --calibrate-floor).

Calibration follows engine/retrieval/relevance.py's definition: per SciFact-train query, the fused
score of the weakest relevant result among the first ten (floor off); the floor is relevance.calibrate
of those. The report prints nDCG@10 with and without the floor, the share of queries that lose a
relevant result (in the top 10, and in the top 100), how many results the floor leaves, and the share
of 200 generated nonsense queries answered with no result: 100 random letter strings and 100 salads of
dictionary words the corpus does not contain (never used to choose the floor). A third, harder set,
salads of any dictionary words (many of them in the corpus), is printed for information.
"""

from __future__ import annotations

import random
import re
import statistics
from pathlib import Path

import numpy as np
from _common import Beir, evaluate

from engine.retrieval import relevance
from engine.retrieval.hybrid import HybridSearch

RELEVANCE_MODULE = Path(relevance.__file__)
DICTIONARY = Path("/usr/share/dict/words")  # Debian's wamerican (apt-get install wamerican)
_WORD = re.compile(r"[a-z]+")


def nonsense_queries(beir: Beir, dictionary: Path = DICTIONARY, seed: int = 17) -> dict[str, list[str]]:
    """{kind: queries}: 100 letter strings, 100 salads of words absent from the corpus, 100 of any words."""
    rng = random.Random(seed)
    letters = [
        " ".join(
            "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10)))
            for _ in range(rng.randint(1, 4))
        )
        for _ in range(100)
    ]
    if not dictionary.exists():
        raise SystemExit(f"{dictionary} is missing: apt-get install wamerican (a plain English word list)")
    words = sorted({w for w in dictionary.read_text(encoding="utf-8").split() if _WORD.fullmatch(w)})
    seen = {w for title, text in beir.corpus.values() for w in _WORD.findall(f"{title} {text}".lower())}
    absent = [w for w in words if w not in seen]
    salad = [" ".join(rng.sample(absent, rng.randint(2, 6))) for _ in range(100)]
    anything = [" ".join(rng.sample(words, rng.randint(2, 6))) for _ in range(100)]
    return {
        "letter strings": letters,
        "salads of words not in the corpus": salad,
        "salads of any words": anything,
    }


def scored_runs(
    search: HybridSearch, beir: Beir, qvecs: dict[str, np.ndarray], floor: float
) -> dict[str, list[tuple[str, float]]]:
    """Per query: (doc id, fused score) of the hybrid's first 100 files, with the given floor."""
    search.floor = floor
    return {
        qid: [(r.path.split("/")[-1], r.score) for r in search.search(text, limit=100, vector=qvecs[qid])]
        for qid, text in beir.queries.items()
    }


def weakest_relevant_top10(runs: dict[str, list[tuple[str, float]]], beir: Beir) -> list[float]:
    out = []
    for qid, ranked in runs.items():
        scores = [s for d, s in ranked[:10] if d in beir.qrels.get(qid, {})]
        if scores:
            out.append(min(scores))
    return out


def write_floor(value: float, queries: int, fusion: str, candidates: int) -> None:
    """Rewrite RELEVANCE_FLOOR and the comment above it in engine/retrieval/relevance.py."""
    source = RELEVANCE_MODULE.read_text(encoding="utf-8")
    share = f"{relevance.FLOOR_CUT_SHARE:.0%}"
    block = (
        "# Written by `python bench/quality.py --calibrate-floor` "
        f"(SciFact train, {queries} queries, fusion\n# {fusion}, candidates {candidates}): "
        f"the {share} quantile of the per-query weakest relevant top-10 fused score.\n"
        f"RELEVANCE_FLOOR = {value:.4f}\n"
    )
    updated, count = re.subn(
        r"# Written by `python bench/quality\.py --calibrate-floor`.*?\nRELEVANCE_FLOOR = [^\n]*\n",
        block,
        source,
        flags=re.S,
    )
    if count != 1:
        raise SystemExit(f"could not find RELEVANCE_FLOOR's block in {RELEVANCE_MODULE}")
    RELEVANCE_MODULE.write_text(updated, encoding="utf-8")
    print(f"wrote RELEVANCE_FLOOR = {value:.4f} into {RELEVANCE_MODULE}")


def report(
    search: HybridSearch,
    beir: Beir,
    qvecs: dict[str, np.ndarray],
    embed_queries,
    calibrate: bool,
) -> None:
    """Print the floor's figures (and, with `calibrate`, first choose the floor and write it)."""
    previous = search.floor
    unfloored = scored_runs(search, beir, qvecs, 0.0)
    weakest = weakest_relevant_top10(unfloored, beir)
    floor = relevance.calibrate(weakest) if calibrate else relevance.RELEVANCE_FLOOR
    if calibrate:
        write_floor(floor, len(beir.queries), search.fusion, 50)
    first_wrong = [
        next((s for d, s in ranked if d not in beir.qrels.get(q, {})), 0.0) for q, ranked in unfloored.items()
    ]
    quantiles = statistics.quantiles(first_wrong, n=20)
    print(
        f"weakest relevant top-10 score: {len(weakest)} queries, min {min(weakest):.4f}, "
        f"median {statistics.median(weakest):.4f}; first non-relevant result: 5 % {quantiles[0]:.4f}, "
        f"median {statistics.median(first_wrong):.4f}, 95 % {quantiles[-1]:.4f}"
    )
    floored = {q: [(d, s) for d, s in ranked if s >= floor] for q, ranked in unfloored.items()}
    ndcg_off = evaluate({q: [d for d, _ in r] for q, r in unfloored.items()}, beir.qrels)[0]
    ndcg_on = evaluate({q: [d for d, _ in r] for q, r in floored.items()}, beir.qrels)[0]
    lost10 = _share_losing(unfloored, floored, beir, 10)
    lost100 = _share_losing(unfloored, floored, beir, 100)
    kept = statistics.fmean(len(r) for r in floored.values())
    print(
        f"relevance floor {floor:.4f}: nDCG@10 {ndcg_on:.4f} with, {ndcg_off:.4f} without "
        f"(Δ {ndcg_on - ndcg_off:+.4f}); queries losing a relevant top-10 result {lost10:.1%}, a relevant "
        f"top-100 result {lost100:.1%}; results kept per query {kept:.1f} of 100"
    )
    nonsense = nonsense_queries(beir)
    empty: dict[str, float] = {}
    search.floor = floor
    for kind, queries in nonsense.items():
        vectors = embed_queries(queries)
        answered = [search.search(q, limit=10, vector=v) for q, v in zip(queries, vectors, strict=True)]
        empty[kind] = sum(not a for a in answered) / len(queries)
        tops = sorted(a[0].score for a in answered if a)
        print(
            f"nonsense, {kind}: {empty[kind]:.0%} 'No matches'"
            + (
                f"; top scores of the rest: median {statistics.median(tops):.4f}, max {tops[-1]:.4f}"
                if tops
                else ""
            )
        )
    share = (empty["letter strings"] + empty["salads of words not in the corpus"]) / 2

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print(
        f"SUMMARY floor {floor:.4f}: nDCG@10 Δ {ndcg_on - ndcg_off:+.4f} "
        f"(target within 0.002: {verdict(abs(ndcg_on - ndcg_off) <= 0.002)}); "
        f"relevant top-10 cut {lost10:.1%} (≤ 2 %: {verdict(lost10 <= 0.02)}); "
        f"200 nonsense queries 'No matches' {share:.1%} (≥ 95 %: {verdict(share >= 0.95)}); "
        f"harder salads of any words {empty['salads of any words']:.0%}"
    )
    search.floor = previous


def _share_losing(before, after, beir: Beir, depth: int) -> float:
    lost = 0
    for qid, ranked in before.items():
        relevant = beir.qrels.get(qid, {})
        had = {d for d, _ in ranked[:depth] if d in relevant}
        if had - {d for d, _ in after[qid][:depth]}:
            lost += 1
    return lost / max(len(before), 1)
