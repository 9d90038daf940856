"""The rerank stage: off by default, an endpoint reranker tested against a real local HTTP server."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from engine.config import RerankSettings
from engine.errors import ConfigError, EndpointError
from engine.retrieval.rerank import CrossEncoderReranker, EndpointReranker, make_reranker


class _RerankServer:
    """A tiny /v1/rerank server on 127.0.0.1 that scores documents by how often they contain the query."""

    def __init__(self, status=200, body=None):
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(
                    {"path": self.path, "auth": self.headers.get("Authorization"), **payload}
                )
                reply = (
                    body
                    if body is not None
                    else {
                        "results": [
                            {"index": i, "relevance_score": min(1.0, doc.count(payload["query"]) / 3)}
                            for i, doc in reversed(list(enumerate(payload["documents"])))
                        ]
                    }
                )
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def test_endpoint_reranker_posts_model_query_and_documents_and_maps_scores_back_by_index():
    with _RerankServer() as server:
        reranker = EndpointReranker(server.url, api_key="sk-test", model="bge-reranker")
        scores = reranker.score("cat", ["dog", "cat cat cat", "cat"])
        reranker.close()
    assert scores == pytest.approx([0.0, 1.0, 1 / 3])
    request = server.requests[0]
    assert request["path"] == "/v1/rerank"
    assert request["auth"] == "Bearer sk-test"
    assert request["model"] == "bge-reranker" and request["query"] == "cat"
    assert request["documents"] == ["dog", "cat cat cat", "cat"]


def test_endpoint_scores_outside_zero_one_are_squashed_into_probabilities():
    body = {"results": [{"index": 0, "relevance_score": 4.0}, {"index": 1, "relevance_score": -4.0}]}
    with _RerankServer(body=body) as server:
        scores = EndpointReranker(server.url).score("q", ["a", "b"])
    assert 0.98 < scores[0] < 1.0 and 0.0 < scores[1] < 0.02


def test_endpoint_http_error_names_the_url_and_what_to_check():
    with (
        _RerankServer(status=401, body={"error": "bad key"}) as server,
        pytest.raises(EndpointError, match=r"HTTP 401.*rerank.api_key"),
    ):
        EndpointReranker(server.url).score("q", ["a"])


def test_endpoint_answer_of_the_wrong_shape_is_an_endpoint_error():
    with _RerankServer(body={"data": []}) as server, pytest.raises(EndpointError, match="unexpected shape"):
        EndpointReranker(server.url).score("q", ["a"])


def test_unreachable_endpoint_is_an_endpoint_error_that_says_what_to_do():
    with _RerankServer() as server:
        url = server.url
    with pytest.raises(EndpointError, match="could not be reached.*turn rerank off"):
        EndpointReranker(url, timeout_s=5).score("q", ["a"])


def test_rerank_is_off_by_default():
    assert make_reranker(RerankSettings()) is None


def test_make_reranker_builds_the_configured_kind():
    endpoint = make_reranker(RerankSettings(kind="endpoint", base_url="http://127.0.0.1:9/v1", model="m"))
    assert isinstance(endpoint, EndpointReranker)
    with pytest.raises(ConfigError, match="base_url is empty"):
        make_reranker(RerankSettings(kind="endpoint"))


def test_a_cross_encoder_folder_without_a_model_is_refused_with_what_to_do(tmp_path):
    with pytest.raises(ConfigError, match="no config.json"):
        make_reranker(RerankSettings(kind="cross-encoder", model_path=str(tmp_path)))
    with pytest.raises(ConfigError):
        CrossEncoderReranker(tmp_path / "missing")
