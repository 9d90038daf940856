"""A failing embedding or rerank endpoint degrades search to keyword matches, and vectors that cannot be
searched are refused with a sentence (issue 31, N6 and N16): an endpoint that answered 500s, NaN or
vectors of the wrong size made every search fail though the keyword index could answer."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.embed_endpoint import EndpointEmbedder
from engine.engine import Engine
from engine.errors import EndpointError, InvalidInput
from engine.retrieval.vectors import VectorIndex
from tests.fake_openai import Raw
from tests.indexing.embeddings_endpoint import EmbeddingsEndpoint
from tests.indexing.helpers import SAMPLE, write_docs

BREAD = "recipes/bread.txt"


class FailingEndpoint(EmbeddingsEndpoint):
    """Answers like `EmbeddingsEndpoint` until `mode` says how to fail: "500", "nan" or "dim"."""

    mode = "ok"

    def answer(self, path: str, body: dict[str, Any]) -> Raw:
        if self.mode == "500":
            return Raw(500, {"error": {"message": "internal error"}})
        raw = super().answer(path, body)
        if self.mode in ("nan", "dim") and raw.status == 200:
            for row in raw.body["data"]:
                row["embedding"] = [float("nan")] * 256 if self.mode == "nan" else row["embedding"][:128]
        return raw


def _endpoint_engine(home, server) -> Engine:
    embedding = {"provider": "endpoint", "base_url": server.base_url, "model": "fake-embed"}
    (home / "settings.json").write_text(json.dumps({"embedding": embedding}), encoding="utf-8")
    return Engine(home)


@contextlib.contextmanager
def indexed_on_endpoint(tmp_path, home) -> Iterator[tuple[Path, FailingEndpoint, Engine]]:
    """SAMPLE indexed through a FailingEndpoint that still answers; (root, endpoint, engine), closed after."""
    root = write_docs(tmp_path / "Docs", SAMPLE)
    with FailingEndpoint(dim=256) as server:
        engine = _endpoint_engine(home, server)
        try:
            engine.add_indexed_folder(str(root))
            engine.parts.index.drain()
            yield root, server, engine
        finally:
            engine.running.close()


@pytest.mark.parametrize(
    ("mode", "query"), [("500", "sourdough flour"), ("nan", "sourdough starter"), ("dim", "bake flour salt")]
)
def test_search_answers_from_the_keyword_index_when_the_embedding_endpoint_fails(
    tmp_path, sensetree_home, mode, query
):
    with indexed_on_endpoint(tmp_path, sensetree_home) as (root, server, engine):
        server.mode = mode
        hits = engine.semantic_search(query)
    assert hits and hits[0].path == str(root / BREAD)
    assert {hit.semantic for hit in hits} == {"keyword-only"}  # and each result says so


def test_vectors_with_nan_or_the_wrong_size_from_an_endpoint_are_refused_with_a_sentence(tmp_path):
    with FailingEndpoint(dim=256) as server:
        embedder = EndpointEmbedder(server.base_url, "fake-embed", dims_file=tmp_path / "dims.json")
        assert embedder.dim == 256
        server.mode = "nan"
        with pytest.raises(EndpointError, match="missing values"):
            embedder.embed(["a text"])
        server.mode = "dim"
        with pytest.raises(EndpointError, match="now returns 128-d vectors"):
            embedder.embed(["a text"])


def test_the_vector_index_refuses_nan_with_a_sentence_not_lancedbs_error(tmp_path):
    index = VectorIndex(tmp_path / "vectors", 4)
    with pytest.raises(InvalidInput, match="missing values") as caught:
        index.upsert("/docs/a.txt", ["text"], np.array([[np.nan, 0, 0, 1]], np.float32))
    assert ".cargo" not in caught.value.message and index.count() == 0


def test_search_keeps_the_fused_order_when_the_rerank_endpoint_fails(tmp_path, sensetree_home):
    from tests.indexing.helpers import indexed_sample

    root, engine = indexed_sample(tmp_path, sensetree_home)

    class DownReranker:
        def score(self, query: str, texts: list[str]) -> list[float]:
            raise EndpointError("Cannot reach the rerank endpoint at http://127.0.0.1:9/v1 (ConnectError).")

    try:
        engine.parts.search.reranker = DownReranker()
        assert engine.semantic_search("Lisbon Alfama")[0].path == str(root / "notes/travel.txt")
    finally:
        engine.running.close()
