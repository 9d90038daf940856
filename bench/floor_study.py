"""Is a dense hit's stand-out from its query's own neighbours evidence the floor lacks? (issue 28)

The floor's dense evidence is one absolute cosine (relevance.SEMANTIC_EVIDENCE). On the full-size personal
folders, more chunks lift the best cosine nonsense reaches, and paraphrases whose right file the dense arm
ranks first at a cosine of 0.21-0.31 find "No matches". One candidate rule is relative: noise is flat, so a
hit whose cosine stands far above the query's other files (its z-score among the files of the dense arm's
candidates, name-only chunks left out as the floor leaves them out) might be evidence where its cosine
alone is not. This prints, from the evidence bench/calibrate_floor.py collects, what such a rule would
buy: its threshold at NOISE_SHARE of each collection's nonsense (`relevance.above_noise`), how many right
answers the calibrated arms hide that it would show, how many nonsense queries the arms keep out that it
would let through, and the stand-out threshold at which the arms and it together still keep NOISE_SHARE
of every collection's nonsense out. A rule is adopted only if that last line shows answers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from engine.retrieval import relevance
from engine.retrieval.names import name_only

MIN_FILES = 5  # a profile of fewer files tells nothing about how flat the query's neighbours are


def profile(search, vector, scope: str | None = None, candidates: int = 50) -> tuple[float, float] | None:
    """(mean, std) of the best cosine per file among the dense arm's candidates, name-only chunks left
    out; None when fewer than MIN_FILES files have one."""
    hits, texts = search.vectors.search_with_text(vector, candidates, scope)
    best: dict[str, float] = {}
    for hit in hits:
        if not name_only(texts.get(hit.key, ""), hit.path):
            best.setdefault(hit.path, hit.score)
    if len(best) < MIN_FILES:
        return None
    values = np.fromiter(best.values(), dtype=float)
    return float(values.mean()), max(float(values.std()), 1e-6)


def standout(cosine: float, stats: tuple[float, float] | None) -> float:
    """How many standard deviations a hit's cosine lies above its query's file profile (0 without one)."""
    if stats is None or cosine <= 0:
        return 0.0
    return (cosine - stats[0]) / stats[1]


def _shown_by_arms(floor: relevance.Floor, lexical: float, semantic: float, folder: float) -> bool:
    return lexical > floor.lexical or semantic > floor.semantic or folder > floor.folder


def union_threshold(noise: Sequence[Sequence[tuple[bool, float]]], share: float) -> float:
    """The lowest stand-out threshold at which, in every collection, the arms and the stand-out together
    still keep `share` of the nonsense out (`noise[i]`: per nonsense query, whether the arms show it and
    its best stand-out); inf when the arms alone already let more through."""
    level = 0.0
    for group in noise:
        if not group:
            continue
        allowed = math.floor((1 - share) * len(group) + 1e-9) - sum(shown for shown, _ in group)
        if allowed < 0:
            return math.inf
        rest = sorted((value for shown, value in group if not shown), reverse=True)
        if allowed < len(rest):
            level = max(level, rest[allowed])
    return level


def report(floor: relevance.Floor, personal: dict[str, list], sci) -> None:
    """Print the study (module docstring) for `floor` over each size's evidence and SciFact's."""
    noise = {
        size: [
            (_shown_by_arms(floor, s.best_lexical, s.best_semantic, s.best_folder), s.best_standout)
            for s in seen
            if s.kind == "nonsense"
        ]
        for size, seen in personal.items()
    }
    noise["SciFact"] = [
        (_shown_by_arms(floor, lexical, semantic, 0.0), value)
        for lexical, semantic, value in zip(
            sci.noise_lexical, sci.noise_semantic, sci.noise_standout, strict=True
        )
    ]
    print(
        "  the arms together, nonsense 'No matches': "
        + ", ".join(
            f"{name} {1 - sum(shown for shown, _ in group) / max(len(group), 1):.1%} of {len(group)}"
            for name, group in noise.items()
        )
    )
    hidden = [
        s.right_standout
        for seen in personal.values()
        for s in seen
        if s.kind == "meaning"
        and not _shown_by_arms(floor, s.right_lexical, s.right_semantic, s.right_folder)
    ]
    alone = relevance.above_noise([[value for _, value in group] for group in noise.values()])
    union = union_threshold(list(noise.values()), relevance.NOISE_SHARE)
    for label, level in (("at its own noise quantile", alone), ("with the arms' nonsense budget", union)):
        let_in = {
            name: sum(not shown and value > level for shown, value in group) for name, group in noise.items()
        }
        print(
            f"  stand-out {label}: z > {level:.3f} shows {sum(v > level for v in hidden)} of the "
            f"{len(hidden)} meaning answers the arms hide, and lets in nonsense {let_in}"
        )
