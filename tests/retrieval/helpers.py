"""Builders shared by the retrieval tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.indexing.embed import Embedder
from engine.retrieval.bm25 import KeywordIndex
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
