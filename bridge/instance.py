"""One SenseTree per person, and the door the command line uses to reach it.

The first launch (the window, or `sensetree serve`) listens on a loopback port with a per-launch
secret and records both in `<data dir>/instance.json` (0600, like every store file). The databases
admit one process at a time, so a later process never opens them while that one runs; it connects
instead, sends the secret and a verb, and leaves:

    <secret> show\\n          bring the window to the front          -> ok\\n
    <secret> quit\\n          quit as the tray's Quit does             -> ok\\n
    <secret> call\\n{json}\\n  run one IPC command of DESIGN §6        -> ok\\n, event lines, a result line
    <secret> watch\\n{json}\\n follow the engine's events              -> ok\\n, event lines until closed

A `call` runs exactly one `bridge.Api` command (the same surface, argument checks and error
envelope as the window's js_api and `sensetree serve`'s HTTP, so this is no new surface) with
`{"command", "kwargs"}`. While it runs, the events that belong to it (published on its thread, or
carrying the `turn_id` of a chat turn it started) come back as `{"event", "payload"}` lines, then one
`{"result": envelope}` line. A `watch` with `{"topics": [...]}` streams those topics (the CLI's live
`index` progress) until the client hangs up; a slow client loses events, it never slows the engine.
Anything without the secret, or with an unknown verb, is answered with nothing and closed.

Before the secret leaves the client, the listener proves it is ours (issue 31, N3: after an unclean
exit another local user bound the recorded port, and the CLI sent it the secret, an API key, queries
and chat text). The client sends `hello <nonce>\n`; the listener answers with
HMAC-SHA256(secret, nonce) in hex. Only a process that read the 0600 `instance.json` in the 0700 data
folder knows the secret, so a squatter cannot answer, and the client then sends nothing and reports the
record stale; the first launch's `listen` replaces the record. The recorded PID must be alive too.

JSON edge: the single-instance socket's lines, one JSON object each (requests, answers, forwarded events).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import queue
import secrets
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bridge.slow_clients import Gate, reader_of
from engine.errors import EngineError

INSTANCE_FILE = "instance.json"
HANDSHAKE_S = 2.0  # connecting and the first line: a live instance answers at once
REQUEST_S = 10.0  # the listener's whole wait for a client's hello, secret, verb and arguments (N10)
SLOW_CLIENTS = 16  # clients still sending those at once; past it, the one that waited longest is cut off
MAX_LINE = 16 * 1024 * 1024  # a command's arguments, as over HTTP
HEARTBEAT_S = 15.0  # an idle watch writes an empty line this often, to notice a client that left

Event = tuple[str, dict[str, Any]]
EventSink = Callable[[str, dict[str, Any]], None]


class Refused(EngineError):
    """An error the running instance answered with; it keeps the instance's stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Unreachable(EngineError):
    """No running instance answered, or it does not speak this protocol (an older version)."""

    code = "unreachable"


class SingleInstance:
    """The listening side: the first launch calls `listen`; `notify_running` asks a running one to
    show its window (or to quit) and says whether one answered."""

    def __init__(
        self, home: Path | None = None, *, request_s: float = REQUEST_S, slow_clients: int = SLOW_CLIENTS
    ) -> None:
        if home is None:
            from engine.config import data_dir

            home = data_dir()
        self._file = home / INSTANCE_FILE
        self._secret = secrets.token_hex(16)
        self._listener: socket.socket | None = None
        self._request_s = request_s  # a total deadline, not one per read (slow_clients.py)
        self._gate = Gate(slow_clients)

    def notify_running(self, command: str = "show") -> bool:
        """True when another instance answered (it has been asked to show its window, or to quit)."""
        try:
            with _connect(self._file, command):
                return True
        except Unreachable:
            return False

    def listen(
        self,
        on_show: Callable[[], None] | None = None,
        on_quit: Callable[[], None] | None = None,
        api: Any = None,
    ) -> None:
        """Record this process as the running instance and answer later launches on a thread.
        With `api` (a `bridge.Api`), the command line's `call` and `watch` are answered too."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        self._listener = listener
        tmp = self._file.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the secret is the only key
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"port": listener.getsockname()[1], "secret": self._secret, "pid": os.getpid()}, out)
        os.replace(tmp, self._file)
        actions = {
            name: action for name, action in (("show", on_show), ("quit", on_quit)) if action is not None
        }
        threading.Thread(
            target=self._accept, args=(listener, actions, api), name="sensetree-instance", daemon=True
        ).start()

    def _accept(self, listener: socket.socket, actions: dict[str, Callable[[], None]], api: Any) -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(
                target=self._answer, args=(conn, actions, api), name="sensetree-instance-call", daemon=True
            ).start()

    def _answer(self, conn: socket.socket, actions: dict[str, Callable[[], None]], api: Any) -> None:
        incoming, reader = reader_of(conn, self._request_s)
        self._gate.enter(incoming)
        try:
            with conn, reader, contextlib.suppress(OSError, ValueError, RecursionError):
                verb, request = self._request(conn, reader)
                self._gate.leave(incoming)
                if verb in actions:
                    conn.sendall(b"ok\n")
                    actions[verb]()
                elif verb in ("call", "watch") and api is not None:
                    conn.settimeout(None)  # a chat turn may run for minutes; the client decides how long
                    conn.sendall(b"ok\n")
                    if verb == "call":
                        _serve_call(conn, api, request)
                    else:
                        _serve_watch(conn, api, request)
        finally:
            self._gate.leave(incoming)

    def _request(self, conn: socket.socket, reader: Any) -> tuple[str, dict[str, Any]]:
        """The verb and arguments of a client that proved nothing and then sent the secret; ("", {})
        for anyone else. All of it must arrive within the one deadline of `reader`."""
        if not _prove(conn, reader, self._secret):
            return "", {}
        secret, _, verb = reader.readline(256).decode(errors="replace").strip().partition(" ")
        if not secrets.compare_digest(secret.encode(), self._secret.encode()):
            return "", {}
        request = json.loads(reader.readline(MAX_LINE) or b"{}") if verb in ("call", "watch") else {}
        return verb, request if isinstance(request, dict) else {}

    def release(self) -> None:
        if self._listener is not None:
            self._listener.close()
            with contextlib.suppress(OSError, ValueError):
                if json.loads(self._file.read_text(encoding="utf-8")).get("secret") == self._secret:
                    self._file.unlink()


# ---- the server's side of call and watch -----------------------------------------------------------
def _bus(api: Any) -> Any:
    from bridge.api import event_bus

    return event_bus(api)


def _serve_call(conn: socket.socket, api: Any, request: dict[str, Any]) -> None:
    from bridge.api import COMMANDS, failure

    command, kwargs = request.get("command"), request.get("kwargs") or {}
    if command not in COMMANDS or not isinstance(kwargs, dict):
        _send(conn, {"result": failure("not_found", f"There is no command {command!r}.")})
        return
    lines: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=5000)

    def run() -> None:
        try:
            lines.put({"result": getattr(api, command)(**kwargs)})
        except Exception as exc:  # arguments the command does not take; the bridge answers the rest
            lines.put({"result": failure("invalid_input", f"{command}: {exc}")})

    worker = threading.Thread(target=run, name="sensetree-instance-command", daemon=True)
    turns: set[str] = set()

    def forward(topic: str, payload: dict[str, Any]) -> None:
        mine = threading.get_ident() == worker.ident
        if mine and topic == "chat-turn" and payload.get("turn_id"):
            turns.add(str(payload["turn_id"]))
        if mine or payload.get("turn_id") in turns:
            with contextlib.suppress(queue.Full):
                lines.put_nowait({"event": topic, "payload": payload})

    unsubscribe = _bus(api).subscribe(forward)
    try:
        worker.start()
        while True:
            line = lines.get()
            _send(conn, line)
            if "result" in line:
                return
    finally:
        unsubscribe()


def _serve_watch(conn: socket.socket, api: Any, request: dict[str, Any]) -> None:
    topics = set(request.get("topics") or [])
    events: queue.Queue[dict[str, Any]] = queue.Queue(maxsize=5000)

    def forward(topic: str, payload: dict[str, Any]) -> None:
        if topic in topics:
            with contextlib.suppress(queue.Full):
                events.put_nowait({"event": topic, "payload": payload})

    unsubscribe = _bus(api).subscribe(forward)
    try:
        while True:
            try:
                _send(conn, events.get(timeout=HEARTBEAT_S))
            except queue.Empty:
                conn.sendall(b"{}\n")  # a client that left shows up as a failed write
    finally:
        unsubscribe()


def _send(conn: socket.socket, line: dict[str, Any]) -> None:
    try:
        data = json.dumps(line, ensure_ascii=False, default=str).encode()
    except UnicodeEncodeError:  # a file name that is not valid UTF-8: ASCII escapes carry it
        data = json.dumps(line, default=str).encode()
    conn.sendall(data + b"\n")


# ---- the client's side --------------------------------------------------------------------------
@contextlib.contextmanager
def _connect(file: Path, verb: str = "show", body: dict[str, Any] | None = None) -> Iterator[Any]:
    """A connection to the running instance that has accepted `verb`; Unreachable when none answers."""
    try:
        info = json.loads(file.read_text(encoding="utf-8"))
        conn = socket.create_connection(("127.0.0.1", int(info["port"])), timeout=HANDSHAKE_S)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise Unreachable("No SenseTree is running.") from exc
    with conn, conn.makefile("rb") as reader:
        try:
            _challenge(conn, reader, str(info["secret"]), info.get("pid"))
            message = f"{info['secret']} {verb}\n".encode()
            if body is not None:
                message += json.dumps(body).encode() + b"\n"
            conn.sendall(message)
            if not reader.readline(16).startswith(b"ok"):
                raise Unreachable(
                    "The running SenseTree did not accept the request (is it an older version?)."
                )
        except OSError as exc:
            raise Unreachable(f"The running SenseTree did not answer ({exc}).") from exc
        conn.settimeout(None)
        yield conn, reader


def _proof(secret: str, nonce: str) -> str:
    return hmac.new(secret.encode(), nonce.encode(), hashlib.sha256).hexdigest()


def _prove(conn: socket.socket, reader: Any, secret: str) -> bool:
    """The listener's half: answer the client's `hello <nonce>` with the proof that it knows the secret."""
    word, _, nonce = reader.readline(256).decode(errors="replace").strip().partition(" ")
    if word != "hello" or not 16 <= len(nonce) <= 128:
        return False
    conn.sendall(f"{_proof(secret, nonce)}\n".encode())
    return True


def _challenge(conn: socket.socket, reader: Any, secret: str, pid: Any) -> None:
    """The client's half: nothing secret is sent until the listener proved it knows the secret, and the
    recorded process is alive; otherwise the record is stale (Unreachable)."""
    if not _alive(pid):
        raise Unreachable("No SenseTree is running (the recorded process has ended).")
    nonce = secrets.token_hex(16)
    conn.sendall(f"hello {nonce}\n".encode())
    answer = reader.readline(256).decode(errors="replace").strip()
    if not hmac.compare_digest(answer.encode(), _proof(secret, nonce).encode()):
        raise Unreachable(
            "The program listening where SenseTree recorded itself is not SenseTree; nothing was sent to it."
        )


def _alive(pid: Any) -> bool:
    """Whether the recorded process still exists (a record without a PID is judged by its proof alone)."""
    if not isinstance(pid, int) or pid <= 0 or os.name == "nt":  # Windows' os.kill would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but belongs to someone else (or Windows refuses signal 0): the proof decides
        return True
    return True


class InstanceClient:
    """A running SenseTree, reached through the file it recorded in the data dir."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self._file = home / INSTANCE_FILE

    @classmethod
    def find(cls, home: Path) -> InstanceClient | None:
        """The running instance, or None when none answers (no file, or a stale one)."""
        client = cls(home)
        try:
            client.call("app_version")
        except Unreachable:
            return None
        return client

    def call(
        self, command: str, kwargs: dict[str, Any] | None = None, on_event: EventSink | None = None
    ) -> Any:
        """Run one IPC command in the running instance; its data, or its error raised as `Refused`."""
        with _connect(self._file, "call", {"command": command, "kwargs": kwargs or {}}) as (_conn, reader):
            for line in _lines(reader):
                if "result" in line:
                    envelope = line["result"]
                    if envelope.get("ok"):
                        return envelope.get("data")
                    error = envelope.get("error") or {}
                    raise Refused(str(error.get("code", "internal")), str(error.get("message", "")))
                if on_event is not None and "event" in line:
                    on_event(line["event"], line.get("payload") or {})
        raise Unreachable(f"The running SenseTree stopped before answering {command}.")

    @contextlib.contextmanager
    def watch(self, topics: list[str], on_event: EventSink) -> Iterator[None]:
        """Deliver the instance's events of `topics` to `on_event` (on a thread) inside the block."""
        with _connect(self._file, "watch", {"topics": topics}) as (conn, reader):

            def pump() -> None:
                with contextlib.suppress(OSError, ValueError):
                    for line in _lines(reader):
                        if "event" in line:
                            on_event(line["event"], line.get("payload") or {})

            thread = threading.Thread(target=pump, name="sensetree-watch", daemon=True)
            thread.start()
            try:
                yield
            finally:
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
                thread.join(timeout=HANDSHAKE_S)


def _lines(reader: Any) -> Iterator[dict[str, Any]]:
    for raw in reader:
        line = json.loads(raw)
        if isinstance(line, dict) and line:
            yield line
