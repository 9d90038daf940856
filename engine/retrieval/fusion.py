"""Reciprocal-rank fusion: the one pure function that merges the keyword and vector rankings.

RRF needs no score calibration between arms (BM25 and cosine live on different scales), which is
why hybrid search uses it. It is pure so it is tested without any store.
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


def rrf(rankings: Sequence[Sequence[Key]], k: int = RRF_K,
        weights: Sequence[float] | None = None) -> list[tuple[Key, float]]:
    """Fuse best-first rankings: each key scores sum(weight / (k + rank)), rank starting at 1.

    A key repeated inside one ranking counts at its best rank only. Ties keep first-seen order, so
    the result is deterministic for deterministic inputs.
    """
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError(f"rrf got {len(rankings)} rankings but {len(weights)} weights")
    scores: dict[Key, float] = {}
    for ranking, weight in zip(rankings, weights):
        seen: set[Key] = set()
        for rank, key in enumerate(ranking, start=1):
            if key in seen:
                continue
            seen.add(key)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda item: item[1], reverse=True)


def rrf_ceiling(k: int = RRF_K, weights: Sequence[float] = (1.0, 1.0)) -> float:
    """The highest fused score possible: first in every ranking. Dividing by it gives [0, 1]."""
    return sum(weights) / (k + 1)


def scope_prefix(scope: str) -> str:
    """`scope` plus one separator: a path is inside the scope when equal to it or starting with this."""
    return scope if scope.endswith(os.sep) else scope + os.sep
