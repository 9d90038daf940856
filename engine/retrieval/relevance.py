"""The relevance floor: a fused score below which a hit is not shown, so nonsense finds "No matches".

Hybrid search fuses its arms on an absolute scale (fusion.calibrated: BM25 over the query's own
reference score, cosine similarity as the model gives it), so one number means the same on every
collection and every query, and a fixed floor can cut the tail of weak hits. Without it any query,
gibberish included, got a full page of results (issue 12).

How the floor applies (`above_floor`): it decides whether a query has matches at all, and cuts the
tail, but never a query's head. A query whose best hit is below the floor has nothing related in the
collection: "No matches". Otherwise the hits shown are those that reach the floor, and also those
within RELEVANCE_MARGIN of the query's best, however weak the query's scores are on the whole: a hard
question whose answers all score low keeps its answers, while nonsense (whose best hit is noise) keeps
nothing. Cutting every hit below the floor, the first rule tried, cut relevant answers at the top of
weak but real queries (nDCG@10 -0.0031 on SciFact train, issue 12).

How both are chosen (reproducible: `python bench/quality.py --calibrate-floor` rewrites the constants
below), on SciFact train with the floor off, by the issue's rule: the floor is the FLOOR_CUT_SHARE
quantile of the fused score of each query's first non-relevant result (a best hit below what the first
wrong answer of 99 queries in 100 reaches is noise; as a query's best is at least its first
non-relevant score, the floor empties at most that share of the queries); the margin is the
(1 - FLOOR_CUT_SHARE) quantile of the gap between a query's best score and its weakest relevant top-10
result (99 queries in 100 have every relevant top-10 result within it). The share of 200 generated
nonsense queries that end with no result is printed beside them; neither constant is tuned on it.

The dense half of the scale is the embedding model's cosine, so the floor belongs to the model it was
calibrated with (RELEVANCE_FLOOR_MODEL). With any other embedder (a model the person configured, the
hashing embedder of the tests) `floor_for` gives 0: no floor, every hit shown, rather than a cut on a
scale nobody measured.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

from engine.indexing.embed import DEFAULT_MODEL

Key = TypeVar("Key")

FLOOR_CUT_SHARE = 0.01  # the share of calibration queries each rule may cut (see the module docstring)

# Written by `python bench/quality.py --calibrate-floor` (SciFact train, 809 queries, fusion
# calibrated, candidates 50): the floor is the 1% quantile of the per-query first
# non-relevant fused score; the margin the 99% quantile of best minus weakest relevant top-10.
RELEVANCE_FLOOR = 0.3108
RELEVANCE_MARGIN = 0.2816
RELEVANCE_FLOOR_MODEL = DEFAULT_MODEL  # the embedder (its `name`) the floor was calibrated with


def floor_for(embedder_name: str) -> float:
    """The relevance floor for an embedder: the calibrated one for its model, else 0 (no floor)."""
    known = (RELEVANCE_FLOOR_MODEL, "sentence-transformers/" + RELEVANCE_FLOOR_MODEL)
    return RELEVANCE_FLOOR if embedder_name in known else 0.0


def above_floor(
    ranked: Sequence[tuple[Key, float]], floor: float = RELEVANCE_FLOOR, margin: float | None = None
) -> list[tuple[Key, float]]:
    """The entries of a best-first (key, fused score) ranking that are shown: none when the best is
    below `floor`; else those reaching `floor` or within `margin` (default RELEVANCE_MARGIN) of the best."""
    if not ranked or ranked[0][1] < floor:
        return []
    cut = min(floor, ranked[0][1] - (RELEVANCE_MARGIN if margin is None else margin))
    return [(key, score) for key, score in ranked if score >= cut]


def calibrate(scores: Sequence[float], cut_share: float = FLOOR_CUT_SHARE) -> float:
    """The largest floor that leaves at most `cut_share` of `scores` below it (see the module docstring):
    the scores sorted, the one at position floor(cut_share * n). An empty list gives 0 (no floor)."""
    if not scores:
        return 0.0
    ordered = sorted(scores)
    return ordered[min(int(cut_share * len(ordered)), len(ordered) - 1)]


def calibrate_margin(gaps: Sequence[float], cut_share: float = FLOOR_CUT_SHARE) -> float:
    """The smallest margin that holds all but `cut_share` of `gaps` (best score minus weakest relevant
    top-10 score, per query): the gaps sorted, the one at position ceil((1 - cut_share) * n) - 1."""
    if not gaps:
        return 0.0
    ordered = sorted(gaps)
    return ordered[max(math.ceil((1 - cut_share) * len(ordered)) - 1, 0)]
