"""Builders shared by the retrieval tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.embed import Embedder
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.vectors import VectorIndex


def filled_stores(
    folder: Path, texts: Mapping[str, Sequence[str]], embedder: Embedder
) -> tuple[KeywordIndex, VectorIndex]:
    """A keyword and a vector index under `folder` holding `texts` ({path: chunks}), written file by file
    as the indexer writes them, the vectors by `embedder`."""
    keywords = KeywordIndex(folder / "k.duckdb")
    vectors = VectorIndex(folder / "vectors", embedder.dim)
    for path, chunks in texts.items():
        keywords.upsert(path, chunks)
        vectors.upsert(path, chunks, embedder.embed(list(chunks)))
    return keywords, vectors


def brute_top_k(postings, k, allowed=None):
    """The k best chunks of `postings` ([(chunk ids, impacts)] per term) by a plain Python sum and sort,
    ties by chunk id: the reference postings_cache.top_k must equal. `allowed`: a set of chunk ids."""
    totals: dict[int, float] = {}
    for ids, weights in postings:
        for chunk_id, weight in zip(ids.tolist(), weights.tolist(), strict=True):
            if allowed is None or chunk_id in allowed:
                totals[chunk_id] = totals.get(chunk_id, 0.0) + weight
    return sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
