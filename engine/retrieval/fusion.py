"""Fusion of the keyword and vector rankings: pure functions, tested without any store.

`rrf` (reciprocal-rank fusion) needs no score calibration between arms (BM25 and cosine live on
different scales) but throws away how confident each arm is; `relative_score` keeps it by normalising
each arm's scores to [0, 1] before combining them. Hybrid search uses the one that bench/quality.py
measures better (hybrid.py says which).
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)
ChunkKey = tuple[str, int]  # (absolute path, chunk index): the identity of a chunk in every store

RRF_K = 60


@dataclass(frozen=True)
class Hit:
    """One chunk found by a store; `score` is the store's own (BM25 sum, or cosine similarity)."""

    path: str
    chunk_index: int
    score: float

    @property
    def key(self) -> ChunkKey:
        return (self.path, self.chunk_index)


def rrf(
    rankings: Sequence[Sequence[Key]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[Key, float]]:
    """Fuse best-first rankings: each key scores sum(weight / (k + rank)), rank starting at 1.

    A key repeated inside one ranking counts at its best rank only. Ties keep first-seen order, so
    the result is deterministic for deterministic inputs.
    """
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError(f"rrf got {len(rankings)} rankings but {len(weights)} weights")
    scores: dict[Key, float] = {}
    for ranking, weight in zip(rankings, weights, strict=False):
        seen: set[Key] = set()
        for rank, key in enumerate(ranking, start=1):
            if key in seen:
                continue
            seen.add(key)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda item: item[1], reverse=True)


def relative_score(
    arms: Sequence[Sequence[tuple[Key, float]]], weights: Sequence[float] | None = None
) -> list[tuple[Key, float]]:
    """Fuse best-first (key, score) lists by a convex combination of their min-max-normalised scores.

    Within each arm the best score maps to 1 and the worst retrieved to 0; a key an arm did not
    retrieve gets that arm's 0; the fused score is sum(weight * normalised) / sum(weights), in [0, 1].
    Unlike RRF, which keeps only ranks, this keeps how far ahead a hit is: a chunk one arm ranks first
    by a wide margin and the other misses stays near the top, where RRF dropped such hits to ranks
    13-29 (issue 17). The method is the convex combination with min-max normalisation of Bruch, Gai
    and Ingber, "An Analysis of Fusion Functions for Hybrid Retrieval" (ACM TOIS 2023), which fits no
    parameter to the collection; it is also Weaviate's relativeScoreFusion. An arm whose scores are all
    equal gives each of its keys 1. A key repeated inside one arm counts at its first (best) entry;
    ties keep first-seen order.
    """
    if weights is None:
        weights = [1.0] * len(arms)
    if len(weights) != len(arms):
        raise ValueError(f"relative_score got {len(arms)} arms but {len(weights)} weights")
    total = sum(weights)
    if total <= 0:
        raise ValueError("relative_score needs a positive total weight")
    fused: dict[Key, float] = {}
    for arm, weight in zip(arms, weights, strict=False):
        best: dict[Key, float] = {}
        for key, score in arm:
            best.setdefault(key, score)
        if not best:
            continue
        high, low = max(best.values()), min(best.values())
        span = high - low
        for key, score in best.items():
            normalised = (score - low) / span if span > 0 else 1.0
            fused[key] = fused.get(key, 0.0) + weight * normalised / total
    return sorted(fused.items(), key=lambda item: item[1], reverse=True)


def rrf_ceiling(k: int = RRF_K, weights: Sequence[float] = (1.0, 1.0)) -> float:
    """The highest fused score possible: first in every ranking. Dividing by it gives [0, 1]."""
    return sum(weights) / (k + 1)


def scope_prefix(scope: str) -> str:
    """`scope` plus one separator: a path is inside the scope when equal to it or starting with this."""
    return scope if scope.endswith(os.sep) else scope + os.sep
