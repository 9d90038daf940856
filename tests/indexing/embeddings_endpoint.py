"""A real local HTTP server speaking OpenAI's `/v1/embeddings`, deterministic (a hashing embedder of the
requested size behind it), recording every request, for the endpoint embedder's tests."""

from __future__ import annotations

import http.server
import json
from typing import Any

from engine.indexing.embed import HashingEmbedder
from tests.e2e.openai_endpoint import ScriptedEndpoint, _handler_for


class EmbeddingsEndpoint(ScriptedEndpoint):
    """The e2e chat fake's server, lifecycle and request log, with an embeddings handler instead."""

    def __init__(self, model: str = "fake-embed", dim: int = 256):
        super().__init__([])
        self.model = model
        self.hashing = HashingEmbedder(dim)
        self._server.RequestHandlerClass = _embeddings_handler(self)

    def answer(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.requests.append({"path": path, **body})
        if path != "/v1/embeddings":
            return 404, {"error": {"message": f"no route {path}"}}
        if body.get("model") != self.model:
            return 404, {"error": {"message": f"model {body.get('model')!r} not found"}}
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        vectors = self.hashing.embed(texts) * 3.0  # not normalised, as some servers answer
        data = [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]
        return 200, {"object": "list", "model": self.model, "data": data[::-1]}  # out of order on purpose


def _embeddings_handler(endpoint: EmbeddingsEndpoint) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(_handler_for(endpoint)):  # type: ignore[misc]  # the scripted endpoint's plumbing
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            status, payload = endpoint.answer(self.path, body)
            self._send(status, "application/json", json.dumps(payload).encode())

    return Handler
