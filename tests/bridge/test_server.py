"""`sensetree serve`: token-guarded, loopback-only, JSON envelopes, server-sent events, threaded."""

from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest

from bridge import Api
from bridge.server import TOKEN_HEADER, serve, start_server
from engine.embed import HashingEmbedder
from engine.engine import Engine
from engine.events import EventBus


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    engine = Engine(tmp_path_factory.mktemp("home"), embedder=HashingEmbedder())
    yield engine
    engine.running.close()


@pytest.fixture(scope="module")
def server(engine):
    server = start_server(Api(engine))
    yield server
    server.stop()


def _request(server, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    payload = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=payload, headers=headers or {})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response, data


def _post(server, command, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers[TOKEN_HEADER] = token
    response, data = _request(server, "POST", f"/api/{command}", body or {}, headers)
    return response.status, json.loads(data)


def test_a_command_without_the_token_gets_403(server):
    assert _post(server, "app_version")[0] == 403
    assert _post(server, "app_version", token="wrong")[0] == 403


def test_a_command_with_the_token_answers_the_bridge_envelope(server):
    status, envelope = _post(server, "app_version", token=server.token)
    assert status == 200 and envelope["ok"] is True and isinstance(envelope["data"], str)
    status, envelope = _post(server, "semantic_search", {"query": " "}, token=server.token)
    assert status == 200 and envelope["error"]["code"] == "invalid_input"


def test_an_unknown_command_is_a_404_envelope(server):
    status, envelope = _post(server, "format_disk", token=server.token)
    assert status == 404 and envelope == {
        "ok": False,
        "error": {"code": "not_found", "message": "There is no command 'format_disk'."},
    }


def test_a_body_that_is_not_a_json_object_is_refused(server):
    response, _data = _request(
        server, "POST", "/api/get_roots", None, {TOKEN_HEADER: server.token, "Content-Length": "0"}
    )
    assert response.status == 200
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("POST", "/api/get_roots", body=b"[1, 2]", headers={TOKEN_HEADER: server.token})
    assert conn.getresponse().status == 400
    conn.close()


def test_the_page_and_its_scripts_are_served_without_a_cookie_and_the_api_still_needs_the_token(server):
    response, body = _request(server, "GET", f"/?token={server.token}")
    assert response.status == 200 and b"SenseTree" in body
    assert response.getheader("Set-Cookie") is None  # a cookie would reach every port of 127.0.0.1
    response, body = _request(server, "GET", "/js/api.js")  # a reload: the token lives in sessionStorage
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/javascript")
    assert (
        response.getheader("Access-Control-Allow-Origin") is None and response.getheader("Set-Cookie") is None
    )
    assert b"sessionStorage" in body
    response, _ = _request(server, "GET", "/")
    assert response.status == 200
    cookie = {"Cookie": f"sensetree_token={server.token}"}
    assert _request(server, "POST", "/api/app_version", {}, cookie)[0].status == 403
    assert _request(server, "GET", "/api/events", None, cookie)[0].status == 403
    assert _request(server, "GET", "/api/events?token=wrong")[0].status == 403


def test_files_outside_the_web_folder_are_not_served(server):
    for path in ("/../pyproject.toml", "/%2e%2e/pyproject.toml", "/js/../../app.py"):
        response, _ = _request(server, "GET", f"{path}?token={server.token}")
        assert response.status == 400, path  # a '..' is refused before any file is looked up (F11)


def test_a_foreign_host_name_is_refused_even_with_the_token(server):
    response, _ = _request(server, "GET", f"/?token={server.token}", headers={"Host": "evil.example:80"})
    assert response.status == 403


def test_the_server_listens_on_loopback_only(server):
    assert server.server_address[0] == "127.0.0.1"


def test_engine_events_reach_an_open_event_stream(engine, server):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(f"GET /api/events?token={server.token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    received = b""
    while b"event: hello" not in received:
        received += sock.recv(4096)
    engine.events.publish("agent-step", {"step": "🔍 Searching: invoices"})
    while b"Searching" not in received:
        received += sock.recv(4096)
    sock.close()
    assert b"event: agent-step" in received
    assert "🔍 Searching: invoices" in received.decode()


class _SlowChatEngine:
    """Holds a chat turn open until released, to show other requests are answered meanwhile."""

    def __init__(self):
        self.events = EventBus()
        self.release = threading.Event()
        self.started = threading.Event()

    def chat_with_assistant(self, messages, scope=None):
        self.started.set()
        assert self.release.wait(10)
        return {"answer": "done", "sources": [], "steps": []}

    def app_version(self):
        return "0.1.0"


def test_a_long_chat_turn_does_not_block_other_requests():
    engine = _SlowChatEngine()
    server = start_server(Api(engine))
    try:
        results = []
        chat = threading.Thread(
            target=lambda: results.append(
                _post(
                    server,
                    "chat_with_assistant",
                    {"messages": [{"role": "user", "content": "hi"}]},
                    server.token,
                )
            )
        )
        chat.start()
        assert engine.started.wait(10)
        assert _post(server, "app_version", token=server.token) == (200, {"ok": True, "data": "0.1.0"})
        engine.release.set()
        chat.join(10)
        assert results[0][1]["data"]["answer"] == "done"
    finally:
        engine.release.set()
        server.stop()


def test_serve_prints_the_url_with_its_token_on_the_first_line(engine, capsys):
    stop = threading.Event()
    urls = []
    thread = threading.Thread(
        target=serve,
        args=(Api(engine),),
        kwargs={"ready": lambda url: (urls.append(url), stop.set()), "stop": stop},
    )
    thread.start()
    thread.join(15)
    first_line = capsys.readouterr().out.splitlines()[0]
    assert first_line == f"SenseTree UI: {urls[0]}"
    assert urls[0].startswith("http://127.0.0.1:") and "/?token=" in urls[0]


def test_a_kept_alive_connection_sends_without_waiting_for_acknowledgements(server, monkeypatch):
    """A response goes out as headers then body; with Nagle's algorithm on, a browser's kept-alive
    connection waited ~40 ms for the client's delayed acknowledgement before the body left."""
    from bridge import server as server_module

    nodelay: list[int] = []
    real_setup = server_module._Handler.setup

    def observed_setup(handler):
        real_setup(handler)
        nodelay.append(handler.connection.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    monkeypatch.setattr(server_module._Handler, "setup", observed_setup)
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    for _ in range(2):  # one connection, two commands
        conn.request("POST", "/api/app_version", body=b"{}", headers={TOKEN_HEADER: server.token})
        assert json.loads(conn.getresponse().read())["ok"] is True
    conn.close()
    assert nodelay and all(nodelay)
