"""A real local HTTP server speaking OpenAI's `/v1/embeddings`, deterministic (a hashing embedder of the
requested size behind it), recording every request, for the endpoint embedder's tests."""

from __future__ import annotations

from typing import Any

from engine.embed import HashingEmbedder
from tests.fake_openai import FakeOpenAI, Raw


class EmbeddingsEndpoint(FakeOpenAI):
    """The tests' OpenAI fake (server, lifecycle, request log), answering embeddings instead of chat."""

    def __init__(self, model: str = "fake-embed", dim: int = 256):
        super().__init__(models=[model])
        self.model = model
        self.hashing = HashingEmbedder(dim)

    def answer(self, path: str, body: dict[str, Any]) -> Raw:
        if path != "/v1/embeddings":
            return Raw(404, {"error": {"message": f"no route {path}"}})
        if body.get("model") != self.model:
            return Raw(404, {"error": {"message": f"model {body.get('model')!r} not found"}})
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        vectors = self.hashing.embed(texts) * 3.0  # not normalised, as some servers answer
        data = [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]
        return Raw(
            body={"object": "list", "model": self.model, "data": data[::-1]}
        )  # out of order on purpose
