"""Fusion of the keyword and vector rankings: pure functions, tested without any store.

`rrf` (reciprocal-rank fusion) needs no score calibration between arms (BM25 and cosine live on
different scales) but throws away how confident each arm is; `relative_score` keeps it by normalising
each arm's scores to [0, 1] before combining them. Hybrid search uses the one that bench/quality.py
measures better (hybrid.py says which).
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)
ChunkKey = tuple[str, int]  # (absolute path, chunk index): the identity of a chunk in every store

RRF_K = 60
NAME_SCORE_GROUPS = 16  # name_order reads the paths once per distinct score, up to this many scores


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


def calibrated(
    keyword: Sequence[tuple[Key, float]],
    keyword_reference: float,
    dense: Sequence[tuple[Key, float]],
    weights: Sequence[float] = (1.0, 1.0),
    depth: int | None = None,
) -> list[tuple[Key, float]]:
    """Fuse the keyword arm's BM25 hits and the dense arm's cosine hits on one absolute scale, [0, 1].

    Each arm's score is first put on a scale that does not depend on the collection or the query:
    BM25 divided by `keyword_reference` (the score of a chunk holding every query term once at
    average length, KeywordIndex.query_reference; capped at 1), and cosine similarity clipped to
    [0, 1] (the embedding model's own scale). The fused score is the weighted mean of the two.

    A chunk one arm did not retrieve scores 0 there, unless `depth` (the hits each arm was asked for)
    says the arm was cut off: an arm that returned `depth` hits may have missed it, and then it takes
    that arm's lowest retrieved score, the most it can have there (the arm returns its best first).

    Why not RRF: ranks throw away how far ahead a hit is, so a chunk one arm ranks first by a wide
    margin and the other misses fell to ranks 13-29 (issue 17). Why not min-max normalisation per
    query (relative_score): it maps every query's best hit to 1, gibberish included, so no score
    threshold can tell a real match from none; on this scale a fixed relevance floor can
    (relevance.py). This is the convex combination Bruch, Gai and Ingber ("An Analysis of Fusion
    Functions for Hybrid Retrieval", ACM TOIS 2023) found better than RRF, with normalisers fixed in
    advance rather than taken from the retrieved scores. Ties keep first-seen order.
    """
    if len(weights) != 2:
        raise ValueError(f"calibrated fuses two arms but got {len(weights)} weights")
    keyword_weight, dense_weight = weights
    total = keyword_weight + dense_weight
    if total <= 0:
        raise ValueError("calibrated needs a positive total weight")
    # One plain pass per arm and one over the union (a search's hot path: 0.57 -> 0.22 ms for two arms of
    # 50, against lambdas and a generator per key); the arithmetic is the weighted mean, term by term.
    lexical, semantic = arm_scales(keyword, keyword_reference, dense)
    absent_lexical, absent_semantic = (
        min(arm.values()) if depth is not None and len(arm) >= depth > 0 else 0.0
        for arm in (lexical, semantic)
    )
    fused = {
        key: (keyword_weight * score + dense_weight * semantic.get(key, absent_semantic)) / total
        for key, score in lexical.items()
    }
    for key, score in semantic.items():
        if key not in fused:
            fused[key] = (keyword_weight * absent_lexical + dense_weight * score) / total
    return sorted(fused.items(), key=lambda item: item[1], reverse=True)


def arm_scales(
    keyword: Sequence[tuple[Key, float]], keyword_reference: float, dense: Sequence[tuple[Key, float]]
) -> tuple[dict[Key, float], dict[Key, float]]:
    """Each arm's hits on calibrated fusion's absolute scale (its docstring): BM25 over the query's
    reference score capped at 1, and cosine clipped to [0, 1]; a key's first (best) entry counts."""
    lexical: dict[Key, float] = {}
    for key, score in keyword:
        if key not in lexical:
            lexical[key] = min(score / keyword_reference, 1.0) if keyword_reference > 0 else 0.0
    semantic: dict[Key, float] = {}
    for key, score in dense:
        if key not in semantic:
            semantic[key] = min(max(score, 0.0), 1.0)
    return lexical, semantic


def with_names(
    fused: Sequence[tuple[ChunkKey, float]],
    names: Mapping[str, float],
    weight: float,
    added: int,
    best_first: Sequence[str] | None = None,
) -> list[tuple[ChunkKey, float]]:
    """A fused ranking with the name field's evidence folded in (names.py): a chunk of a file whose path
    holds the query's terms moves `weight * name` of the way from its fused score to 1 (so the result
    stays in [0, 1] and a full name match counts alike on every file), and the `added` files with the
    best name scores that neither arm found join as their chunk #0, at `weight * name`. `best_first` is
    `name_order(names, n)` when it was made before (while the vector search runs: a query word in every
    path gives thousands of name scores to order), n at least `added` plus the files of `fused`."""
    if not names or weight <= 0:
        return list(fused)
    out: dict[ChunkKey, float] = {}
    present = set()
    for key, score in fused:
        name = names.get(key[0], 0.0)
        out[key] = score + weight * name * (1.0 - score)
        present.add(key[0])
    wanted = max(added, 0)
    order = name_order(names, wanted + len(present)) if best_first is None else best_first
    extras = list(islice((path for path in order if path not in present), wanted))
    if len(extras) < wanted and len(order) < len(names):  # `best_first` was cut too short to skip `present`
        extras = list(
            islice((p for p in name_order(names, wanted + len(present)) if p not in present), wanted)
        )
    for path in extras:
        out[(path, 0)] = weight * names[path]
    return sorted(out.items(), key=lambda item: item[1], reverse=True)


def name_order(names: Mapping[str, float], count: int | None = None) -> list[str]:
    """The paths of `names`, best name score first, then by path; with `count`, only the first `count`.

    A query word in many paths gives thousands of scores but few distinct ones (a score depends only on
    which query terms a path holds), so the first `count` come from the best scores' groups, each cut
    with a heap of plain strings, instead of sorting every path by a key (~9 -> ~1 ms for 7,000 paths)."""
    if count is None or count >= len(names):
        return sorted(names, key=lambda p: (-names[p], p))
    distinct = sorted(set(names.values()), reverse=True)
    if len(distinct) > NAME_SCORE_GROUPS:  # scores of many kinds: one pass with a heap of keys
        return heapq.nsmallest(count, names, key=lambda p: (-names[p], p))
    out: list[str] = []
    for score in distinct:
        group, need = [path for path, s in names.items() if s == score], count - len(out)
        out.extend(sorted(group) if len(group) <= need else heapq.nsmallest(need, group))
        if len(out) >= count:
            break
    return out


def with_phrases(
    fused: Sequence[tuple[Key, float]], phrases: Mapping[Key, float], weight: float
) -> list[tuple[Key, float]]:
    """A fused ranking with the typed-words signal folded in (keyword/phrase.py): a chunk whose text holds
    the query's words moves `weight * strength` of the way from its fused score to 1, like a name match
    (`with_names`), so a chunk holding the query as typed outranks the partial matches of common words
    around it and the result stays in [0, 1]. Ties keep the fused order."""
    if not phrases or weight <= 0:
        return list(fused)
    moved = [(key, score + weight * phrases.get(key, 0.0) * (1.0 - score)) for key, score in fused]
    return sorted(moved, key=lambda item: item[1], reverse=True)


def rrf_ceiling(k: int = RRF_K, weights: Sequence[float] = (1.0, 1.0)) -> float:
    """The highest fused score possible: first in every ranking. Dividing by it gives [0, 1]."""
    return sum(weights) / (k + 1)


def scope_prefix(scope: str) -> str:
    """`scope` plus one separator: a path is inside the scope when equal to it or starting with this."""
    return scope if scope.endswith(os.sep) else scope + os.sep


def fuse(
    fusion: str,
    keyword_hits: list[Hit],
    dense_hits: list[Hit],
    weights: Sequence[float],
    keyword_reference: float = 0.0,
    depth: int | None = None,
) -> list[tuple[ChunkKey, float]]:
    """The two arms as one ranking with scores in [0, 1] (1 = the best possible), by `fusion`;
    `keyword_reference` is KeywordIndex.query_reference of the query and `depth` the hits each arm
    was asked for (calibrated fusion only)."""
    if fusion == "calibrated":
        return calibrated(
            [(h.key, h.score) for h in keyword_hits],
            keyword_reference,
            [(h.key, h.score) for h in dense_hits],
            weights,
            depth,
        )
    if fusion == "relative":
        return relative_score(
            [[(h.key, h.score) for h in keyword_hits], [(h.key, h.score) for h in dense_hits]], weights
        )
    ceiling = rrf_ceiling(RRF_K, weights)
    fused = rrf([[h.key for h in keyword_hits], [h.key for h in dense_hits]], RRF_K, weights)
    return [(key, score / ceiling) for key, score in fused]


def single_arm(hits: list[Hit]) -> list[tuple[ChunkKey, float]]:
    """One arm's ranking scored like a fused one (rank 1 = 1.0), so scores mean the same everywhere."""
    ceiling = rrf_ceiling(RRF_K, (1.0,))
    return [(key, score / ceiling) for key, score in rrf([[h.key for h in hits]], RRF_K)]
