"""`sensetree serve`: the same web UI as the window, over HTTP on 127.0.0.1, for browsers and headless use.

It exists so SenseTree works without a display (and so the UI can be tested in a real browser). The
surface is deliberately small: static files from `web/`, `POST /api/<command>` mapped onto
`bridge.Api` (a JSON object of keyword arguments in, the bridge's envelope out) and
`GET /api/events` as server-sent events. Every command must carry the per-launch secret token in
the `X-SenseTree-Token` header and the event stream in `?token=` (EventSource cannot send headers);
anything else gets 403. There is no cookie: browsers send cookies to every port of 127.0.0.1, so a
token cookie would reach any other local server the person opens. The page keeps the token from its
link in sessionStorage instead, which is why the static files themselves (the UI's code, no data)
are served without it. No CORS headers, a Host check against DNS rebinding, and the listener binds
loopback only. A request that is not what the API takes (no or a wrong Content-Length, a body that
is not a JSON object, nesting that would exhaust the parser) is answered 400 with the envelope and
the connection closed, and a client that stops sending mid-request is timed out: nothing is dropped
silently or left waiting. The stdlib threading server is enough: a long chat turn holds one thread
while other requests are answered on theirs.

JSON edge: the HTTP server's request bodies and JSON answers, and the events it streams.
"""

from __future__ import annotations

import contextlib
import hmac
import http.server
import json
import logging
import mimetypes
import queue
import re
import secrets
import threading
import urllib.parse
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bridge.api import COMMANDS, Api, event_bus, failure
from bridge.slow_clients import Gate, reader_of
from bridge.static_paths import MalformedPath, web_relative
from engine.events import EventBus
from engine.resources import web_dir

log = logging.getLogger(__name__)

TOKEN_HEADER = "X-SenseTree-Token"
MAX_BODY = 16 * 1024 * 1024
REQUEST_TIMEOUT_S = 30.0  # a request (line, headers, body) must arrive within this, in total (N9)
SLOW_CLIENTS = 32  # connections waiting for their request at once; past it, the oldest is pushed out
HEARTBEAT_S = 15.0
_LOOPBACK = {"127.0.0.1", "localhost"}
_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


class EventHub:
    """Fans engine events out to every open event stream; a slow stream drops events, never blocks."""

    def __init__(self, bus: EventBus | None) -> None:
        self._clients: set[queue.Queue[tuple[str, dict[str, Any]] | None]] = set()
        self._lock = threading.Lock()
        self._unsubscribe = bus.subscribe(self._publish) if bus is not None else None

    def _publish(self, topic: str, payload: dict[str, Any]) -> None:
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            with contextlib.suppress(queue.Full):
                client.put_nowait((topic, payload))

    def open(self) -> queue.Queue[tuple[str, dict[str, Any]] | None]:
        client: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue(maxsize=5000)
        with self._lock:
            self._clients.add(client)
        return client

    def close_client(self, client: queue.Queue[tuple[str, dict[str, Any]] | None]) -> None:
        with self._lock:
            self._clients.discard(client)

    def close(self) -> None:
        """Stop listening to the engine and end every open stream."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        with self._lock:
            clients, self._clients = list(self._clients), set()
        for client in clients:
            with contextlib.suppress(queue.Full):
                client.put_nowait(None)


class UiServer(http.server.ThreadingHTTPServer):
    """The listening server; `url` carries the token a person needs to open the UI."""

    daemon_threads = True

    def __init__(self, api: Api, host: str, port: int, events: EventBus | None, token: str | None = None):
        if host not in _LOOPBACK:
            raise ValueError(f"SenseTree serves on 127.0.0.1 only, not {host!r}")
        super().__init__(("127.0.0.1", port), _Handler)
        self.api = api
        self.token = token or secrets.token_urlsafe(24)
        self.web_root = web_dir().resolve()
        self.hub = EventHub(events)
        self.request_timeout_s = REQUEST_TIMEOUT_S
        self.gate = Gate(SLOW_CLIENTS)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.token}"

    def start(self) -> UiServer:
        """Serve on a background thread (tests, and the window's browser fallback)."""
        self._thread = threading.Thread(target=self.serve_forever, name="sensetree-http", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.hub.close()
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


def start_server(
    api: Api, *, port: int = 0, events: EventBus | None = None, token: str | None = None
) -> UiServer:
    """A running server on 127.0.0.1 (port 0 picks a free one), forwarding the engine's events."""
    return UiServer(api, "127.0.0.1", port, events if events is not None else event_bus(api), token).start()


def serve(
    api: Api,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = False,
    ready: Callable[[str], None] | None = None,
    *,
    stop: threading.Event | None = None,
) -> None:
    """Serve until Ctrl+C (or `stop` is set). The first line printed is `SenseTree UI: <url>`."""
    server = UiServer(api, host, port, event_bus(api))
    print(f"SenseTree UI: {server.url}", flush=True)
    server.start()
    try:
        if ready is not None:
            ready(server.url)
        if open_browser:
            webbrowser.open(server.url)
        (stop or threading.Event()).wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


class _Handler(http.server.BaseHTTPRequestHandler):
    server: UiServer
    protocol_version = "HTTP/1.1"
    server_version = "SenseTree"
    sys_version = ""
    # A response is written as headers, then body. On a kept-alive connection (a browser's) Nagle's
    # algorithm holds the body until the client acknowledges the headers, and the client delays that
    # acknowledgement: 52 ms p50 per command measured on loopback here, 0.75 ms with TCP_NODELAY.
    disable_nagle_algorithm = True

    def setup(self) -> None:
        super().setup()
        # StreamRequestHandler's `timeout` is a class-wide setting; this server's bound is per instance.
        # Reads share one deadline per request (slow_clients.py); each write waits as long at most.
        self._incoming, self.rfile = reader_of(self.connection, self.server.request_timeout_s)

    def handle_one_request(self) -> None:
        """Each request (a kept-alive connection's next one too) gets the whole budget, and waits in the
        gate until it has been read."""
        self._incoming.restart()
        self.server.gate.enter(self._incoming)
        try:
            super().handle_one_request()
        finally:
            self.server.gate.leave(self._incoming)

    def _request_read(self) -> None:
        """The request is in: it leaves the gate while it is answered (a command may run for minutes)."""
        self.server.gate.leave(self._incoming)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)

    # Routing
    def do_GET(self) -> None:
        self._request_read()
        url = urllib.parse.urlsplit(self.path)
        if not self._host_is_loopback():
            return self._send_json(403, failure("forbidden", "Open SenseTree through http://127.0.0.1 only."))
        if url.path.startswith("/api/"):
            query_token = urllib.parse.parse_qs(url.query).get("token", [""])[0]
            if not any(self._token_matches(t) for t in (query_token, self.headers.get(TOKEN_HEADER, ""))):
                return self._send_json(
                    403, failure("forbidden", "Open the UI with the link `sensetree serve` printed.")
                )
            if url.path == "/api/events":
                return self._stream_events()
            return self._send_json(
                405, failure("invalid_input", "Commands are sent with POST /api/<command>.")
            )
        self._send_static(url.path)

    def do_POST(self) -> None:
        path = urllib.parse.urlsplit(self.path).path
        if not self._host_is_loopback() or not self._token_matches(self.headers.get(TOKEN_HEADER, "")):
            return self._refuse(403, failure("forbidden", f"Send the session token in {TOKEN_HEADER}."))
        command = path.removeprefix("/api/") if path.startswith("/api/") else ""
        if command not in COMMANDS:
            return self._refuse(404, failure("not_found", f"There is no command {command!r}."))
        try:
            kwargs = self._read_json_object()
        except _BadRequest as exc:
            return self._refuse(exc.status, failure("invalid_input", exc.message))
        self._request_read()
        self._send_json(200, getattr(self.server.api, command)(**kwargs))

    # Checks
    def _token_matches(self, candidate: str) -> bool:
        return bool(candidate) and hmac.compare_digest(candidate.encode(), self.server.token.encode())

    def _host_is_loopback(self) -> bool:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]")
        return host in _LOOPBACK

    def _read_json_object(self) -> dict[str, Any]:
        """The body's JSON object, read exactly as long as Content-Length says; _BadRequest otherwise."""
        length = _content_length(
            self.headers.get_all("Content-Length") or [], self.headers.get("Transfer-Encoding")
        )
        try:
            raw = self.rfile.read(length)
        except TimeoutError:
            raise _BadRequest(
                408, f"The body did not arrive within {self.server.request_timeout_s:g} s."
            ) from None
        if len(raw) < length:
            raise _BadRequest(400, f"The body ended after {len(raw)} of {length} bytes.")
        try:
            body = json.loads(raw or b"{}")
        except RecursionError:
            raise _BadRequest(400, "The body is nested too deeply to be a command's arguments.") from None
        except (ValueError, UnicodeDecodeError):
            raise _BadRequest(400, "The body must be a JSON object of arguments (UTF-8).") from None
        if not isinstance(body, dict):
            raise _BadRequest(
                400, f"The body must be a JSON object of arguments, not a JSON {_json_kind(body)}."
            )
        return body

    # Responses
    def _refuse(self, status: int, envelope: dict[str, Any]) -> None:
        """Answer and close: a body we did not read must not be taken for the next request."""
        self.close_connection = True
        self._send_json(status, envelope)

    def _send_json(self, status: int, envelope: dict[str, Any]) -> None:
        body = _json_bytes(envelope)
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def _send_static(self, url_path: str) -> None:
        try:
            file = self._static_file(url_path)
        except MalformedPath as exc:
            return self._refuse(400, failure("invalid_input", str(exc)))
        if file is None:
            return self._send_json(404, failure("not_found", f"{url_path[:200]} is not part of the UI."))
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", _content_type(file))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", _CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        self.wfile.write(body)

    def _static_file(self, url_path: str) -> Path | None:
        """The UI's file at `url_path`; None when there is none, MalformedPath when no file could be."""
        candidate = (self.server.web_root / web_relative(url_path)).resolve()
        try:
            if not candidate.is_relative_to(self.server.web_root) or not candidate.is_file():
                return None
        except OSError:  # a name the file system refuses (one part longer than it allows): no such file
            return None
        return candidate

    def _stream_events(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        client = self.server.hub.open()
        try:
            self._write_event("hello", {"ok": True})
            self._pump(client)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            log.debug("an event stream closed")
        finally:
            self.server.hub.close_client(client)

    def _pump(self, client: queue.Queue[tuple[str, dict[str, Any]] | None]) -> None:
        while True:
            try:
                item = client.get(timeout=HEARTBEAT_S)
            except queue.Empty:
                self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
                continue
            if item is None:
                return
            self._write_event(*item)

    def _write_event(self, topic: str, payload: dict[str, Any]) -> None:
        self.wfile.write(f"event: {topic}\ndata: ".encode() + _json_bytes(payload) + b"\n\n")
        self.wfile.flush()


def _json_bytes(value: Any) -> bytes:
    """UTF-8 JSON; where a file name is not valid UTF-8 (lone surrogates), ASCII escapes carry it
    losslessly."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str).encode()
    except UnicodeEncodeError:
        return json.dumps(value, default=str).encode()


def _content_type(file: Path) -> str:
    kind = _TYPES.get(file.suffix.lower()) or mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind.startswith("text/") or kind.endswith("javascript") else kind


class _BadRequest(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def _content_length(values: list[str], transfer_encoding: str | None) -> int:
    """The one Content-Length a command body must declare: plain digits, at most MAX_BODY."""
    if transfer_encoding:
        raise _BadRequest(400, "Send the body with a Content-Length header, not a Transfer-Encoding.")
    if not values:
        raise _BadRequest(
            400, "The request has no Content-Length header; send the arguments as a JSON object."
        )
    if len(set(values)) != 1 or not re.fullmatch(r"[0-9]{1,12}", values[0].strip()):
        raise _BadRequest(
            400, f"Content-Length must be one whole number of bytes, not {', '.join(values)[:40]!r}."
        )
    length = int(values[0])
    if length > MAX_BODY:
        raise _BadRequest(400, f"The body is {length:,} bytes; commands take at most {MAX_BODY:,}.")
    return length


def _json_kind(value: Any) -> str:
    return {list: "array", str: "string", bool: "boolean", type(None): "null"}.get(type(value), "number")
