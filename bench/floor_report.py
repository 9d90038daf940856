"""The relevance floor, measured and calibrated (bench/quality.py --floor / --calibrate-floor).

Calibration follows engine/retrieval/relevance.py's definition, on SciFact train with the floor off:
the floor is relevance.calibrate of each query's first non-relevant fused score, the margin
relevance.calibrate_margin of each query's gap between its best score and its weakest relevant top-10
result. Every figure is computed from one unfloored run of the queries (the floor is a pure function of
a query's best-first scores), so the rule in force and the first rule (every hit below the floor cut)
are compared on the same run. The report prints nDCG@10 with and without the floor, the share of
queries that lose a relevant result (in the top 10, and in the top 100), how many results the floor
leaves, and the share of 200 generated nonsense queries answered with no result: 100 random letter
strings and 100 salads of dictionary words the corpus does not contain (never used to choose the
floor). A third, harder set, salads of any dictionary words (many of them in the corpus), is printed
for information.
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


def weakest_relevant_top10(runs: dict[str, list[tuple[str, float]]], beir: Beir) -> dict[str, float]:
    out = {}
    for qid, ranked in runs.items():
        scores = [s for d, s in ranked[:10] if d in beir.qrels.get(qid, {})]
        if scores:
            out[qid] = min(scores)
    return out


def first_non_relevant(runs: dict[str, list[tuple[str, float]]], beir: Beir) -> list[float]:
    return [next((s for d, s in ranked if d not in beir.qrels.get(q, {})), 0.0) for q, ranked in runs.items()]


def write_floor(floor: float, margin: float, queries: int, fusion: str, candidates: int) -> None:
    """Rewrite RELEVANCE_FLOOR, RELEVANCE_MARGIN and the comment above them in relevance.py."""
    source = RELEVANCE_MODULE.read_text(encoding="utf-8")
    share = f"{relevance.FLOOR_CUT_SHARE:.0%}"
    block = (
        "# Written by `python bench/quality.py --calibrate-floor` "
        f"(SciFact train, {queries} queries, fusion\n# {fusion}, candidates {candidates}): the floor is the "
        f"{share} quantile of the per-query first\n# non-relevant fused score; the margin the "
        f"{1 - relevance.FLOOR_CUT_SHARE:.0%} quantile of best minus weakest relevant top-10.\n"
        f"RELEVANCE_FLOOR = {floor:.4f}\nRELEVANCE_MARGIN = {margin:.4f}\n"
    )
    updated, count = re.subn(
        r"# Written by `python bench/quality\.py --calibrate-floor`.*?\nRELEVANCE_MARGIN = [^\n]*\n",
        block,
        source,
        flags=re.S,
    )
    if count != 1:
        raise SystemExit(f"could not find RELEVANCE_FLOOR's block in {RELEVANCE_MODULE}")
    RELEVANCE_MODULE.write_text(updated, encoding="utf-8")
    print(f"wrote RELEVANCE_FLOOR = {floor:.4f}, RELEVANCE_MARGIN = {margin:.4f} into {RELEVANCE_MODULE}")


def report(
    search: HybridSearch,
    beir: Beir,
    qvecs: dict[str, np.ndarray],
    embed_queries,
    calibrate: bool,
) -> None:
    """Print the floor's figures (and, with `calibrate`, first choose the floor and margin and write them)."""
    previous = search.floor
    unfloored = scored_runs(search, beir, qvecs, 0.0)
    weakest = weakest_relevant_top10(unfloored, beir)
    first_wrong = first_non_relevant(unfloored, beir)
    gaps = [unfloored[q][0][1] - w for q, w in weakest.items()]
    floor, margin = relevance.RELEVANCE_FLOOR, relevance.RELEVANCE_MARGIN
    if calibrate:
        floor, margin = relevance.calibrate(first_wrong), relevance.calibrate_margin(gaps)
        write_floor(floor, margin, len(beir.queries), search.fusion, 50)
    quantiles = statistics.quantiles(first_wrong, n=100)
    print(
        f"weakest relevant top-10 score: {len(weakest)} queries, min {min(weakest.values()):.4f}, "
        f"median {statistics.median(weakest.values()):.4f}; first non-relevant result: "
        f"1 % {quantiles[0]:.4f}, 5 % {quantiles[4]:.4f}, median {statistics.median(first_wrong):.4f}; "
        "best minus weakest relevant: "
        f"median {statistics.median(gaps):.4f}, 99 % {statistics.quantiles(gaps, n=100)[-1]:.4f}"
    )
    nonsense = {
        kind: [
            [(r.path, r.score) for r in search.search(q, limit=10, vector=v)]
            for q, v in zip(queries, embed_queries(queries), strict=True)
        ]
        for kind, queries in nonsense_queries(beir).items()
    }
    search.floor = previous
    first_rule = _figures(unfloored, nonsense, beir, relevance.RELEVANCE_FLOOR, 0.0, "first rule (every hit)")
    in_force = _figures(unfloored, nonsense, beir, floor, margin, "gate on the best, margin")

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    delta, lost10, share, harder = in_force
    print(
        f"SUMMARY floor {floor:.4f} margin {margin:.4f}: nDCG@10 Δ {delta:+.4f} "
        f"(target within 0.002: {verdict(abs(delta) <= 0.002)}); "
        f"relevant top-10 cut {lost10:.1%} (≤ 2 %: {verdict(lost10 <= 0.02)}); "
        f"200 nonsense queries 'No matches' {share:.1%} (≥ 95 %: {verdict(share >= 0.95)}); "
        f"harder salads of any words {harder:.0%}; first rule at {relevance.RELEVANCE_FLOOR:.4f}: "
        f"Δ {first_rule[0]:+.4f}, cut {first_rule[1]:.1%}, nonsense {first_rule[2]:.1%}"
    )


def _figures(
    unfloored: dict[str, list[tuple[str, float]]],
    nonsense: dict[str, list[list[tuple[str, float]]]],
    beir: Beir,
    floor: float,
    margin: float,
    label: str,
) -> tuple[float, float, float, float]:
    """(nDCG@10 delta, share losing a relevant top-10 result, nonsense 'No matches' share, harder share)."""
    floored = {q: relevance.above_floor(r, floor, margin) for q, r in unfloored.items()}
    ndcg_off = evaluate({q: [d for d, _ in r] for q, r in unfloored.items()}, beir.qrels)[0]
    ndcg_on = evaluate({q: [d for d, _ in r] for q, r in floored.items()}, beir.qrels)[0]
    lost10 = _share_losing(unfloored, floored, beir, 10)
    lost100 = _share_losing(unfloored, floored, beir, 100)
    kept = statistics.fmean(len(r) for r in floored.values())
    print(
        f"{label}, floor {floor:.4f} margin {margin:.4f}: nDCG@10 {ndcg_on:.4f} with, {ndcg_off:.4f} "
        f"without (Δ {ndcg_on - ndcg_off:+.4f}); queries losing a relevant top-10 result {lost10:.1%}, "
        f"a relevant top-100 result {lost100:.1%}; results kept per query {kept:.1f} of 100"
    )
    _print_losses(unfloored, floored, beir)
    empty: dict[str, float] = {}
    for kind, answers in nonsense.items():
        shown = [relevance.above_floor(a, floor, margin) for a in answers]
        empty[kind] = sum(not a for a in shown) / len(shown)
        tops = sorted(a[0][1] for a in shown if a)
        rest = (
            f"; top scores of the rest: median {statistics.median(tops):.4f}, max {tops[-1]:.4f}"
            if tops
            else ""
        )
        print(f"  nonsense, {kind}: {empty[kind]:.0%} 'No matches'{rest}")
    share = (empty["letter strings"] + empty["salads of words not in the corpus"]) / 2
    return ndcg_on - ndcg_off, lost10, share, empty["salads of any words"]


def _print_losses(unfloored, floored, beir: Beir) -> None:
    """Where the nDCG@10 the floor costs comes from: per query that loses a relevant top-10 result, its
    best score and the (rank, score) of each relevant top-10 result cut."""
    losses = []
    for qid, ranked in unfloored.items():
        kept = {d for d, _ in floored[qid]}
        cut = [
            (rank, score)
            for rank, (d, score) in enumerate(ranked[:10], 1)
            if d in beir.qrels.get(qid, {}) and d not in kept
        ]
        if cut:
            losses.append(f"q{qid} best {ranked[0][1]:.3f} cut " + ",".join(f"#{r}:{s:.3f}" for r, s in cut))
    if losses:
        print(f"  {len(losses)} queries lose relevant top-10 results: " + "; ".join(losses[:12]))


def _share_losing(before, after, beir: Beir, depth: int) -> float:
    lost = 0
    for qid, ranked in before.items():
        relevant = beir.qrels.get(qid, {})
        had = {d for d, _ in ranked[:depth] if d in relevant}
        if had - {d for d, _ in after[qid][:depth]}:
            lost += 1
    return lost / max(len(before), 1)
