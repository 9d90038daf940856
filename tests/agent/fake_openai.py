"""A real HTTP fake of the chat-completions API on 127.0.0.1: the `openai` SDK talks real HTTP to it.

Each queued reply is served once, in order: a JSON completion, a stream of SSE chunks, or an error
status. Every request body is recorded.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


def completion(content: str | None = None, tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "cmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}
        ],
    }


def chunk(delta: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "cmpl-1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake",
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
    }


class Reply:
    def __init__(
        self,
        status: int = 200,
        body: Any = None,
        stream: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
    ):
        self.status, self.body, self.stream, self.headers = status, body, stream, headers or {}


class FakeOpenAI:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                fake.paths.append(self.path)
                self._send(fake.replies.pop(0) if fake.replies else Reply(404, {"error": {"message": "no"}}))

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                fake.requests.append(json.loads(self.rfile.read(length) or b"{}"))
                fake.paths.append(self.path)
                self._send(
                    fake.replies.pop(0) if fake.replies else Reply(500, {"error": {"message": "empty"}})
                )

            def _send(self, reply: Reply) -> None:
                self.send_response(reply.status)
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                if reply.stream is not None:
                    self.send_header("content-type", "text/event-stream")
                    self.end_headers()
                    for piece in reply.stream:
                        self.wfile.write(f"data: {json.dumps(piece)}\n\n".encode())
                    self.wfile.write(b"data: [DONE]\n\n")
                    return
                data = json.dumps(reply.body).encode()
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)
