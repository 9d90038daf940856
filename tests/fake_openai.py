"""The one fake OpenAI-compatible endpoint for tests: a real HTTP server on 127.0.0.1.

The real adapter (the `openai` client over HTTP) talks to it exactly as it would to Ollama or a hosted
API, so the tests cover the wire format too. Two kinds of scripted answer share one queue:

- `Reply(content, tool_calls)`: a model reply for the agent loop. It answers the next request that
  offers tools, as a JSON completion or as server-sent chunks (words streamed one by one), whichever
  the client asked for. A request without tools (file qualification, the final forced answer) gets
  `plain_answer` instead and leaves the script alone.
- `Raw(status, body | stream, headers)`: one exact HTTP answer, for the adapter's own tests (error
  statuses, retry headers, tool-call pieces split across chunks). It answers the next POST, whatever
  it offers. `stream` may be any iterable of chunks; each one is written and flushed as it is
  produced, so a generator that waits on an event is a model still thinking.

Pictures and sound (issue 33): a chat request whose messages carry an `image_url` content part is a
caption request; it gets `caption` (the decoded picture lands in `images`) and leaves the script alone.
`POST …/audio/transcriptions` (multipart, as the SDK sends it) gets `{"text": transcript}`; its form
fields land in `requests` as `{"model", "file_name", "file_bytes"}`. A scripted `Raw` at the head of the
script still answers either, for failure tests.

`GET …/models` lists `models`. Every POST body lands in `requests`; the path and headers of every
request, GET or POST, in `paths` and `headers`. A test needing another route overrides
`answer(path, body)`.

engine/agent/testing.py holds the in-process fakes (`ScriptedModel`, `FunctionModel`) that most tests
use; this server is for what must cross HTTP.
"""

from __future__ import annotations

import base64
import http.server
import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any, Self

SSE_DONE = b"data: [DONE]\n\n"


@dataclass
class Reply:
    """One scripted model reply: plain content, or tool calls as (name, arguments) pairs."""

    content: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@dataclass
class Raw:
    """One exact HTTP answer: a JSON `body`, or a `stream` of chunk payloads sent as SSE."""

    status: int = 200
    body: Any = None
    stream: Iterable[dict[str, Any]] | None = None
    headers: dict[str, str] = field(default_factory=dict)


def completion(content: str | None = None, tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A chat.completion payload with these exact tool-call dicts (arguments as sent on the wire)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop"}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    """A chat.completion.chunk payload carrying `delta`."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "scripted",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _tool_call_dicts(reply: Reply) -> list[dict[str, Any]]:
    return [
        {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for i, (name, args) in enumerate(reply.tool_calls)
    ]


def _chunks(reply: Reply) -> list[dict[str, Any]]:
    pieces = [chunk({"role": "assistant", "content": ""})]
    words = reply.content.split(" ") if reply.content else []
    pieces += [chunk({"content": w if i == 0 else " " + w}) for i, w in enumerate(words)]
    pieces += [chunk({"tool_calls": [{"index": i, **c}]}) for i, c in enumerate(_tool_call_dicts(reply))]
    pieces.append(chunk({}, "tool_calls" if reply.tool_calls else "stop"))
    return pieces


def _as_raw(reply: Reply, stream: bool) -> Raw:
    if stream:
        return Raw(stream=_chunks(reply))
    return Raw(body=completion(reply.content or None, _tool_call_dicts(reply) or None))


class FakeOpenAI:
    def __init__(
        self,
        script: Iterable[Reply | Raw] = (),
        plain_answer: str = "[note] A small test document.",
        models: Iterable[str] = ("scripted",),
        caption: str = "A photo.",
        transcript: str = "A recording.",
    ):
        self.script: list[Reply | Raw] = list(script)
        self.plain_answer = plain_answer
        self.caption, self.transcript = caption, transcript
        self.images: list[bytes] = []  # every picture a caption request carried, decoded
        self.models = list(models)
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.headers: list[Message] = []  # read them case-insensitively: `.get(name)`
        self._lock = threading.Lock()
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def answer(self, path: str, body: dict[str, Any]) -> Raw:
        """The answer to a POST (already recorded): the next scripted one that fits, else the plain one."""
        with self._lock:
            head = self.script[0] if self.script else None
            if isinstance(head, Raw) or (head is not None and body.get("tools")):
                self.script.pop(0)
        if isinstance(head, Raw):
            return head
        if path.rstrip("/").endswith("/audio/transcriptions"):
            return Raw(body={"text": self.transcript})
        images = _images(body)
        if images:
            with self._lock:
                self.images.extend(images)
            return _as_raw(Reply(content=self.caption), bool(body.get("stream")))
        reply = head if head is not None and body.get("tools") else Reply(content=self.plain_answer)
        return _as_raw(reply, bool(body.get("stream")))

    def remaining(self) -> int:
        with self._lock:
            return len(self.script)

    def _record(self, path: str, headers: Message, body: dict[str, Any] | None = None) -> None:
        with self._lock:
            self.paths.append(path)
            self.headers.append(headers)
            if body is not None:
                self.requests.append(body)


def _images(body: dict[str, Any]) -> list[bytes]:
    """The pictures of a chat request's `image_url` content parts (data URLs), decoded."""
    found = []
    for message in body.get("messages") or []:
        content = message.get("content")
        for part in content if isinstance(content, list) else []:
            url = part.get("image_url", {}).get("url", "") if part.get("type") == "image_url" else ""
            if url.startswith("data:") and "," in url:
                found.append(base64.b64decode(url.split(",", 1)[1]))
    return found


def _form(content_type: str, raw: bytes) -> dict[str, Any]:
    """A multipart/form-data body as `{field: value, "file_name", "file_bytes"}`."""
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        payload = part.get_payload(decode=True) or b""
        if part.get_filename():
            fields["file_name"], fields["file_bytes"] = part.get_filename(), len(payload)
        else:
            fields[str(part.get_param("name", header="content-disposition"))] = payload.decode()
    return fields


def _handler_for(fake: FakeOpenAI) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            fake._record(self.path, self.headers)
            if self.path.rstrip("/").endswith("/models"):
                data = [{"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in fake.models]
                self._send(Raw(body={"object": "list", "data": data}))
            else:
                self._send(Raw(404, {"error": {"message": f"no route {self.path}"}}))

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            kind = self.headers.get("Content-Type") or ""
            body = _form(kind, raw) if kind.startswith("multipart/") else json.loads(raw or b"{}")
            fake._record(self.path, self.headers, body)
            self._send(fake.answer(self.path, body))

        def _send(self, raw: Raw) -> None:
            self.send_response(raw.status)
            for key, value in raw.headers.items():
                self.send_header(key, value)
            if raw.stream is None:
                data = json.dumps(raw.body).encode()
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")  # the stream ends when the connection does
            self.close_connection = True
            self.end_headers()
            for piece in raw.stream:
                self.wfile.write(f"data: {json.dumps(piece)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(SSE_DONE)

    return Handler
