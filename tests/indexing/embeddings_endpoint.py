"""A real local HTTP server speaking OpenAI's `/v1/embeddings`, deterministic (a hashing embedder of the
requested size behind it), recording every request, for the endpoint embedder's tests."""

from __future__ import annotations

import http.server
import json
import threading
from typing import Any, Self

from engine.indexing.embed import HashingEmbedder


class EmbeddingsEndpoint:
    def __init__(self, model: str = "fake-embed", dim: int = 256):
        self.model = model
        self.hashing = HashingEmbedder(dim)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

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


def _handler_for(endpoint: EmbeddingsEndpoint) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            status, payload = endpoint.answer(self.path, body)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
