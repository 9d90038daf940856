"""Embeddings from an OpenAI-compatible endpoint, through a real local HTTP server: the dimension is
probed and remembered, vectors come back normalised and in order, failures say where to fix them, and
switching `embedding.provider` re-embeds exactly like a local model switch."""

from __future__ import annotations

import numpy as np
import pytest

from engine.embed_endpoint import EndpointEmbedder
from engine.errors import EndpointError
from engine.indexing.reembed import read_active
from tests.indexing.embeddings_endpoint import EmbeddingsEndpoint
from tests.indexing.helpers import SAMPLE, write_docs
from tests.indexing.test_model_switch import start_engine


def test_the_dimension_is_probed_once_remembered_and_vectors_are_normalised_in_order(tmp_path):
    dims = tmp_path / "dims.json"
    texts = [f"text number {i} about apples" for i in range(5)]
    with EmbeddingsEndpoint(dim=256) as server:
        embedder = EndpointEmbedder(server.base_url, "fake-embed", dims_file=dims, batch_size=2)
        assert embedder.dim == 256
        vectors = embedder.embed(texts)
        calls = [len(r["input"]) for r in server.requests]
    expected = server.hashing.embed(texts)
    assert calls == [1, 2, 2, 1]  # the probe, then batches of 2
    assert np.allclose(vectors, expected, atol=1e-6)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert embedder.embedded == 5
    # The server is gone: the dimension is still known, so the index can open.
    assert EndpointEmbedder("http://127.0.0.1:9/v1", "fake-embed", dims_file=dims).dim == 256


def test_an_unknown_model_and_an_unreachable_server_raise_clear_endpoint_errors(tmp_path):
    with EmbeddingsEndpoint() as server:
        with pytest.raises(EndpointError, match="refused model 'nope'.*Settings → Embedding"):
            _ = EndpointEmbedder(server.base_url, "nope").dim
        url = server.base_url
    with pytest.raises(EndpointError, match="Cannot reach the embedding endpoint"):
        EndpointEmbedder(url, "fake-embed").embed(["x"])


def test_switching_to_the_endpoint_reembeds_in_the_background_path_and_search_uses_it(
    tmp_path, sensetree_home
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = start_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        with EmbeddingsEndpoint(dim=256) as server:
            engine.set_config(
                {
                    "embedding": {
                        "provider": "endpoint",
                        "base_url": server.base_url,
                        "model": "fake-embed",
                        "api_key": "secret",
                    }
                }
            )
            assert engine.parts.embedder.name == "endpoint:fake-embed" and engine.parts.vectors.dim == 256
            assert read_active(engine.parts.vectors_dir) == "endpoint:fake-embed"
            hit = engine.semantic_search("sourdough flour")[0].path
            embedded = sum(len(r["input"]) for r in server.requests)
            chunks = sum(engine.parts.vectors.chunk_counts().values())
        assert engine.get_config().embedding.api_key != "secret"
    finally:
        engine.running.close()
    assert hit == str(root / "recipes" / "bread.txt")
    assert chunks > 0 and embedded == chunks + 2  # every stored chunk once, the probe, the query
    # A restart with the server down still opens the endpoint's index (the dimension was remembered).
    again = start_engine(sensetree_home, model="fake-embed")
    try:
        assert again.parts.embedder.name == "endpoint:fake-embed" and again.parts.vectors.dim == 256
    finally:
        again.running.close()


def test_a_switch_to_an_endpoint_that_does_not_answer_is_refused_and_nothing_is_saved(
    tmp_path, sensetree_home
):
    engine = start_engine(sensetree_home)
    try:
        with pytest.raises(EndpointError):
            engine.set_config(
                {
                    "embedding": {
                        "provider": "endpoint",
                        "base_url": "http://127.0.0.1:9/v1",
                        "model": "fake-embed",
                    }
                }
            )
        assert (
            engine.running.settings.embedding.provider == "local"
            and engine.parts.embedder.name == "hashing-384"
        )
    finally:
        engine.running.close()
