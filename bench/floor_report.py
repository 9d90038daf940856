"""The relevance floor on SciFact train: its evidence, its cost in nDCG@10, nonsense answered "No matches".

The floor (engine/retrieval/relevance.py) shows a hit when one arm has evidence for it. Here, on SciFact
train through the product's HybridSearch: nDCG@10 with the floor and without it, the share of queries
that lose a relevant top-10 result, and the share of generated nonsense queries with no result (100
random letter strings and 100 salads of made-up pronounceable words; with /usr/share/dict/words, also 100
salads of dictionary words SciFact does not hold). `evidence` returns what bench/calibrate_floor.py
chooses the thresholds from: per query the best keyword-or-name and dense evidence of its relevant
documents, per nonsense query the best of any hit, and per query the gap between its best fused score
and its weakest relevant top-10 result (the margin's data).

    python bench/quality.py --floor        # these figures, for the floor in force
"""

from __future__ import annotations

import random
import re
import statistics
from dataclasses import dataclass
from pathlib import Path

import floor_study
import numpy as np
from _common import Beir, evaluate

from engine.retrieval import relevance
from engine.retrieval.hybrid import HybridSearch

DICTIONARY = Path("/usr/share/dict/words")  # Debian's wamerican, when installed
_WORD = re.compile(r"[a-z]+")
PREFIX = "/scifact/"


def nonsense_queries(beir: Beir, dictionary: Path = DICTIONARY, seed: int = 17) -> dict[str, list[str]]:
    """{kind: 100 queries}: letter strings, salads of made-up words, (with a dictionary) of absent words."""
    rng = random.Random(seed)
    letters = [
        " ".join(
            "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10)))
            for _ in range(rng.randint(1, 4))
        )
        for _ in range(100)
    ]
    onsets, vowels = "bdfgklmnprstvz", "aeiou"
    made_up = [
        " ".join(
            "".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(rng.randint(2, 4)))
            for _ in range(rng.randint(2, 4))
        )
        for _ in range(100)
    ]
    kinds = {"letter strings": letters, "made-up words": made_up}
    if dictionary.exists():
        words = sorted({w for w in dictionary.read_text(encoding="utf-8").split() if _WORD.fullmatch(w)})
        seen = {w for title, text in beir.corpus.values() for w in _WORD.findall(f"{title} {text}".lower())}
        absent = [w for w in words if w not in seen]
        kinds["words not in the corpus"] = [
            " ".join(rng.sample(absent, rng.randint(2, 6))) for _ in range(100)
        ]
    return kinds


@dataclass
class SciFactEvidence:
    right_lexical: list[float]  # per query: its relevant documents' best keyword-or-name evidence
    right_semantic: list[float]
    noise_lexical: list[float]  # per nonsense query: the best keyword-or-name evidence of any hit
    noise_semantic: list[float]
    gaps: list[float]  # per query: best fused score minus its weakest relevant top-10 score
    noise_standout: list[float]  # per nonsense query: floor_study.standout of its best hit


def _doc(path: str) -> str:
    return path[len(PREFIX) :] if path.startswith(PREFIX) else path.rsplit("/", 1)[-1]


def evidence(
    search: HybridSearch, beir: Beir, qvecs: dict[str, np.ndarray], embed_queries
) -> SciFactEvidence:
    """The evidence the floor's thresholds and margin are chosen from (the module docstring)."""
    out = SciFactEvidence([], [], [], [], [], [])
    for qid, text in beir.queries.items():
        fused, of = search.evidenced(text, None, 50, vector=qvecs[qid])
        relevant = beir.qrels.get(qid, {})
        lexical = semantic = 0.0
        best_per_doc: dict[str, float] = {}
        for key, score in fused:
            best_per_doc.setdefault(_doc(key[0]), score)
            if _doc(key[0]) in relevant:
                e = of(key)
                lexical, semantic = max(lexical, e.lexical, e.name), max(semantic, e.semantic)
        out.right_lexical.append(lexical)
        out.right_semantic.append(semantic)
        top10 = list(best_per_doc.items())[:10]
        weakest = [s for d, s in top10 if d in relevant]
        if weakest and fused:
            out.gaps.append(fused[0][1] - min(weakest))
    for queries in nonsense_queries(beir).values():
        for query, vector in zip(queries, embed_queries(queries), strict=True):
            fused, of = search.evidenced(query, None, 50, vector=vector)
            found = [of(key) for key, _ in fused]
            out.noise_lexical.append(max((max(e.lexical, e.name) for e in found), default=0.0))
            out.noise_semantic.append(max((e.semantic for e in found), default=0.0))
            stats = floor_study.profile(search, vector)
            out.noise_standout.append(
                max((floor_study.standout(e.semantic, stats) for e in found), default=0.0)
            )
    return out


def figures(
    search: HybridSearch, beir: Beir, qvecs: dict[str, np.ndarray], embed_queries, floor
) -> tuple[float, float, float, dict[str, float]]:
    """(nDCG@10 with `floor`, without, share of queries losing a relevant top-10 result, nonsense
    "No matches" share per kind), through HybridSearch.search."""
    previous = search.floor
    runs = {}
    for label, value in (("on", floor), ("off", None)):
        search.floor = value
        runs[label] = {
            qid: [_doc(r.path) for r in search.search(text, limit=100, vector=qvecs[qid])]
            for qid, text in beir.queries.items()
        }
    search.floor = floor
    empty = {}
    for kind, queries in nonsense_queries(beir).items():
        answers = [
            search.search(q, limit=10, vector=v) for q, v in zip(queries, embed_queries(queries), strict=True)
        ]
        empty[kind] = sum(not a for a in answers) / len(answers)
    search.floor = previous
    lost = sum(
        bool({d for d in runs["off"][q][:10] if d in rel} - set(runs["on"][q][:10]))
        for q, rel in beir.qrels.items()
    ) / max(len(beir.qrels), 1)
    return evaluate(runs["on"], beir.qrels)[0], evaluate(runs["off"], beir.qrels)[0], lost, empty


def report(
    search: HybridSearch, beir: Beir, qvecs: dict[str, np.ndarray], embed_queries, calibrate: bool
) -> None:
    """Print the figures of the floor in force (bench/search_meaning.py --calibrate chooses it)."""
    if calibrate:
        raise SystemExit(
            "the floor is calibrated on SciFact and personal folders together: "
            "bench/search_meaning.py --calibrate"
        )
    floor = relevance.RELEVANCE
    on, off, lost, empty = figures(search, beir, qvecs, embed_queries, floor)
    nonsense = ", ".join(f"{k} {v:.0%}" for k, v in empty.items())
    print(
        f"SUMMARY floor {floor}: SciFact train nDCG@10 {on:.4f} with, {off:.4f} without (Δ {on - off:+.4f}; "
        f"within 0.005: {'met' if abs(on - off) <= 0.005 else 'MISSED'}, ≥ 0.718 without: "
        f"{'met' if off >= 0.718 else 'MISSED'}); queries losing a relevant top-10 result {lost:.1%}; "
        f"nonsense 'No matches': {nonsense}"
    )


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0
