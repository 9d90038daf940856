"""`serve` answers any number of short connections with bounded resources: the server starts a thread
per connection, and nothing a thread opens (SQLite connections, DuckDB cursors) outlives it beyond a
small pool (issue 30: every `indexing_stats` call used to keep a connection and 2 file descriptors)."""

from __future__ import annotations

import http.client
import json
import os

import pytest

from bridge import Api
from bridge.server import TOKEN_HEADER, start_server
from engine.db import IDLE_CONNECTIONS
from engine.retrieval.keyword.index import READER_CURSORS_IDLE

REQUESTS = 300
THREADS_STILL_ENDING = 8  # server threads that answered but may not have finished when we count


def _post(server, command: str, body: dict) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request(
        "POST", f"/api/{command}", body=json.dumps(body).encode(), headers={TOKEN_HEADER: server.token}
    )
    data = conn.getresponse().read()
    conn.close()
    return json.loads(data)


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts file descriptors through /proc")
def test_many_short_connections_leave_file_descriptors_and_connections_bounded(engine, tmp_path):
    docs = tmp_path / "Docs"
    docs.mkdir()
    for n in range(5):
        (docs / f"note{n}.txt").write_text(f"harbour invoice number {n}\n", encoding="utf-8")
    engine.add_indexed_folder(str(docs))
    engine.parts.index.drain()
    server = start_server(Api(engine))
    try:
        calls = [("indexing_stats", {}), ("semantic_search", {"query": "harbour invoice"}), ("get_roots", {})]
        for command, body in calls:  # warm: the pools hold what a few requests need
            assert _post(server, command, body)["ok"] is True
        fds_before = _open_fds()
        for n in range(REQUESTS):
            command, body = calls[n % len(calls)]
            assert _post(server, command, body)["ok"] is True
        assert _open_fds() <= fds_before + 2 * THREADS_STILL_ENDING
        assert engine.parts.db.open_connections() <= IDLE_CONNECTIONS + 1 + THREADS_STILL_ENDING
        assert engine.parts.keywords.open_cursors() <= READER_CURSORS_IDLE + 1 + THREADS_STILL_ENDING
    finally:
        server.stop()
