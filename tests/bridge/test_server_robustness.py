"""Requests that are not what the API takes are answered 400 with the envelope, over a raw socket:
never a dropped connection, never a thread left waiting for bytes that will not come."""

from __future__ import annotations

import json
import socket
import urllib.request

import pytest

from bridge import Api
from bridge.server import MAX_BODY, TOKEN_HEADER, start_server
from engine.events import EventBus


class _Engine:
    def __init__(self) -> None:
        self.events = EventBus()
        self.calls: list[str] = []

    def get_roots(self) -> list[str]:
        self.calls.append("get_roots")
        return ["/home/jane/Rechnung_M\udcfcller"]  # a Latin-1 name, kept surrogate-escaped


@pytest.fixture
def engine():
    return _Engine()


@pytest.fixture
def server(engine):
    server = start_server(Api(engine))
    server.request_timeout_s = 1.0
    yield server
    server.stop()


def _exchange(server, head: str, body: bytes = b"", *, token: bool = True) -> tuple[int, dict, bytes]:
    """Send raw bytes, read until the server closes; (status, envelope, raw response)."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=15)
    auth = f"{TOKEN_HEADER}: {server.token}\r\n" if token else ""
    sock.sendall(f"{head}\r\nHost: 127.0.0.1\r\n{auth}".encode() + b"\r\n" + body)
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    sock.close()
    header, _, payload = received.partition(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    return status, json.loads(payload), header


def _post(server, body: bytes, extra_headers: str = "") -> tuple[int, dict, bytes]:
    head = f"POST /api/get_roots HTTP/1.1\r\nContent-Type: application/json{extra_headers}"
    return _exchange(server, head, body)


def _assert_bad_request(result: tuple[int, dict, bytes], status: int = 400) -> str:
    code, envelope, header = result
    assert code == status
    assert envelope["ok"] is False and envelope["error"]["code"] == "invalid_input"
    assert b"Connection: close" in header
    return envelope["error"]["message"]


def test_a_body_of_a_hundred_thousand_nested_arrays_is_a_400(server, engine):
    body = b"[" * 100_000 + b"]" * 100_000
    assert "nested too deeply" in _assert_bad_request(_post(server, body, f"\r\nContent-Length: {len(body)}"))
    body = b'{"patch": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert "nested too deeply" in _assert_bad_request(_post(server, body, f"\r\nContent-Length: {len(body)}"))
    assert engine.calls == []


@pytest.mark.parametrize("length", ["-1", "abc", "1e3", "0x10", "", " 12 3"])
def test_a_content_length_that_is_not_a_whole_number_is_a_400(server, length):
    message = _assert_bad_request(_post(server, b"{}", f"\r\nContent-Length: {length}"))
    assert "Content-Length" in message


def test_a_missing_content_length_is_a_400(server):
    assert "no Content-Length" in _assert_bad_request(_post(server, b""))


def test_two_content_lengths_that_disagree_are_a_400(server):
    _assert_bad_request(_post(server, b"{}", "\r\nContent-Length: 2\r\nContent-Length: 20"))


def test_a_chunked_body_is_a_400(server):
    assert "Transfer-Encoding" in _assert_bad_request(
        _post(server, b"2\r\n{}\r\n0\r\n\r\n", "\r\nTransfer-Encoding: chunked")
    )


def test_an_oversized_content_length_is_a_400_without_reading_the_body(server):
    message = _assert_bad_request(_post(server, b"{}", f"\r\nContent-Length: {MAX_BODY + 1}"))
    assert f"{MAX_BODY:,}" in message


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'"text"', b"null", b"\xff\xfe{}", b'{"a": 1'])
def test_a_body_that_is_not_a_json_object_is_a_400(server, engine, body):
    _assert_bad_request(_post(server, body, f"\r\nContent-Length: {len(body)}"))
    assert engine.calls == []


def test_a_body_shorter_than_its_length_is_answered_when_the_client_goes_quiet(server):
    message = _assert_bad_request(_post(server, b'{"a"', "\r\nContent-Length: 100"), status=408)
    assert "did not arrive" in message


def test_a_command_without_the_token_is_refused_and_closed(server, engine):
    code, envelope, header = _exchange(
        server, "POST /api/get_roots HTTP/1.1\r\nContent-Length: 2", b"{}", token=False
    )
    assert code == 403 and envelope["error"]["code"] == "forbidden" and b"Connection: close" in header
    assert engine.calls == []


def test_a_good_request_still_works_and_a_name_that_is_not_utf8_survives_the_round_trip(server, engine):
    code, envelope, _ = _post(server, b"{}", "\r\nContent-Length: 2\r\nConnection: close")
    assert code == 200 and envelope == {"ok": True, "data": ["/home/jane/Rechnung_M\udcfcller"]}
    code, envelope, _ = _post(server, b"", "\r\nContent-Length: 0\r\nConnection: close")
    assert code == 200 and engine.calls == ["get_roots", "get_roots"]


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/%00", "control character"),
        ("/\x00", "control character"),
        ("/index.html%00.js", "control character"),
        ("/" + "a" * 5000, "5,001 characters"),
        ("/../bridge/server.py", "'..'"),
        ("/%2e%2e/%2e%2e/etc/passwd", "'..'"),
        ("/js/%2e%2e/index.html", "'..'"),
        ("/./index.html", "'.'"),
        ("/js%2Fapp.js", "%2F"),
        ("/%5c..%5cindex.html", "%2F or %5C"),
        ("/js\\app.js", "backslash"),
        ("/%ff", "not UTF-8"),
    ],
)
def test_a_malformed_static_path_is_answered_400_with_the_reason(server, path, reason):
    """Issue 31, F11: these closed the connection with no answer, or were quietly resolved."""
    code, envelope, header = _exchange(server, f"GET {path} HTTP/1.1", token=False)
    assert code == 400 and envelope["error"]["code"] == "invalid_input"
    assert reason in envelope["error"]["message"] and b"Connection: close" in header


def test_a_well_formed_static_path_is_still_served_and_an_unknown_one_is_404(server):
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/js/app.js", timeout=15) as answer:
        assert answer.status == 200 and "javascript" in answer.headers["Content-Type"]
    code, envelope, _ = _exchange(server, f"GET /{'a' * 300} HTTP/1.1\r\nConnection: close", token=False)
    assert code == 404 and envelope["error"]["code"] == "not_found"  # one name too long for the disk
