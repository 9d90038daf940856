"""A scripted OpenAI-compatible endpoint on 127.0.0.1 for end-to-end tests.

The real adapter (the `openai` client over HTTP) talks to it exactly as it would to Ollama or a hosted
API, so the end-to-end tests cover the wire format too. Requests that offer tools (the agent loop)
take the next scripted reply; requests without tools (file qualification, the final forced answer)
get a short plain answer. Replies stream as server-sent chunks when the client asks for a stream.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Self


@dataclass
class Reply:
    """One scripted model reply: plain content, or tool calls as (name, arguments) pairs."""

    content: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


class ScriptedEndpoint:
    def __init__(self, script: list[Reply], plain_answer: str = "[note] A small test document."):
        self.script = list(script)
        self.plain_answer = plain_answer
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

    def next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if body.get("tools") and self.script:
                return self.script.pop(0)
        return Reply(content=self.plain_answer)

    def remaining(self) -> int:
        with self._lock:
            return len(self.script)


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    payload = {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": "scripted",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(payload)}\n\n".encode()


def _tool_call_dicts(reply: Reply) -> list[dict[str, Any]]:
    return [
        {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for i, (name, args) in enumerate(reply.tool_calls)
    ]


def _stream(reply: Reply) -> bytes:
    parts = [_chunk({"role": "assistant", "content": ""})]
    words = reply.content.split(" ")
    parts += [_chunk({"content": w if i == 0 else " " + w}) for i, w in enumerate(words) if reply.content]
    for i, call in enumerate(_tool_call_dicts(reply)):
        parts.append(_chunk({"tool_calls": [{"index": i, **call}]}))
    parts.append(_chunk({}, "tool_calls" if reply.tool_calls else "stop"))
    return b"".join(parts) + b"data: [DONE]\n\n"


def _completion(reply: Reply) -> bytes:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.tool_calls:
        message["tool_calls"] = _tool_call_dicts(reply)
    payload = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "scripted",
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if reply.tool_calls else "stop"}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    return json.dumps(payload).encode()


def _handler_for(endpoint: ScriptedEndpoint) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            body = json.dumps({"object": "list", "data": [{"id": "scripted", "object": "model"}]}).encode()
            self._send(200, "application/json", body)

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            reply = endpoint.next_reply(body)
            if body.get("stream"):
                self._send(200, "text/event-stream", _stream(reply))
            else:
                self._send(200, "application/json", _completion(reply))

        def _send(self, status: int, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler
