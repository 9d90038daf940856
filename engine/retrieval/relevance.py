"""The relevance floor: a fused score below which a hit is not shown, so nonsense finds "No matches".

Hybrid search fuses its arms on an absolute scale (fusion.calibrated: BM25 over the query's own
reference score, cosine similarity as the model gives it), so one number means the same on every
collection and every query, and a fixed floor can cut the tail of weak hits. Without it any query,
gibberish included, got a full page of results (issue 12).

How the floor is chosen (reproducible: `python bench/quality.py --calibrate-floor` rewrites the
constant below): on SciFact train, for every query that has a relevant document among its first ten
results, take the fused score of the weakest such relevant result; the floor is the largest value
that cuts at most FLOOR_CUT_SHARE of those queries, i.e. that quantile of those scores. Put the other
way round: above the floor, a result is as strong as the weakest relevant result of 99 queries in
100. The scores of the first non-relevant results, and how many of 200 generated nonsense queries end
up with no result, are printed beside it; the constant is never tuned on the nonsense queries.

The dense half of the scale is the embedding model's cosine, so the floor belongs to the model it was
calibrated with (RELEVANCE_FLOOR_MODEL). With any other embedder (a model the person configured, the
hashing embedder of the tests) `floor_for` gives 0: no floor, every hit shown, rather than a cut on a
scale nobody measured.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.indexing.embed import DEFAULT_MODEL

Key = TypeVar("Key")

FLOOR_CUT_SHARE = 0.01  # the share of calibration queries whose weakest relevant top-10 hit may fall below

# Written by `python bench/quality.py --calibrate-floor` (SciFact train, 809 queries, fusion
# calibrated, candidates 50): the 1% quantile of the per-query weakest relevant top-10 fused score.
RELEVANCE_FLOOR = 0.2996
RELEVANCE_FLOOR_MODEL = DEFAULT_MODEL  # the embedder (its `name`) the floor was calibrated with


def floor_for(embedder_name: str) -> float:
    """The relevance floor for an embedder: the calibrated one for its model, else 0 (no floor)."""
    known = (RELEVANCE_FLOOR_MODEL, "sentence-transformers/" + RELEVANCE_FLOOR_MODEL)
    return RELEVANCE_FLOOR if embedder_name in known else 0.0


def above_floor(
    ranked: Sequence[tuple[Key, float]], floor: float = RELEVANCE_FLOOR
) -> list[tuple[Key, float]]:
    """The entries of a best-first (key, fused score) ranking that reach `floor`."""
    return [(key, score) for key, score in ranked if score >= floor]


def calibrate(weakest_relevant: Sequence[float], cut_share: float = FLOOR_CUT_SHARE) -> float:
    """The largest floor that leaves at most `cut_share` of the scores below it (see the module docstring):
    the scores sorted, the one at position floor(cut_share * n). An empty list gives 0 (no floor)."""
    if not weakest_relevant:
        return 0.0
    ordered = sorted(weakest_relevant)
    return ordered[min(int(cut_share * len(ordered)), len(ordered) - 1)]
