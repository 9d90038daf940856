"""Quit signals end SenseTree cleanly: `serve` on SIGTERM, and QuitSignals' own rules."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

import pytest

from engine import lifecycle
from engine.retrieval.keyword.index import KeywordIndex
from tests.indexing.helpers import write_docs

REPO = Path(__file__).resolve().parents[1]
DOCS = {
    f"note{i}.txt": f"Minutes of meeting {i}: the orchard budget and the new greenhouse." for i in range(12)
}


def _post(url: str, command: str) -> dict:
    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request(
        "POST",
        f"/api/{command}",
        body="{}",
        headers={"X-SenseTree-Token": token, "Content-Type": "application/json"},
    )
    try:
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def _wait_until_indexed(url: str, files: int) -> None:
    """Read the server's event stream until a progress event says every file is indexed (bounded)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    conn.request("GET", f"/api/events?{parts.query}")
    try:
        stream = conn.getresponse()
        stats = _post(url, "indexing_stats")["data"]
        while not (stats.get("done") == files and stats.get("queued") == 0):
            line = stream.readline()
            assert line, "the event stream ended before indexing finished"
            if line.startswith(b"data: "):
                payload = json.loads(line[6:])
                if "done" in payload:
                    stats = payload
        stream.close()
    finally:
        conn.close()


def test_sigterm_ends_serve_with_status_0_and_a_keyword_index_that_reopens_clean(tmp_path, sensetree_home):
    docs = write_docs(tmp_path / "Docs", DOCS)
    (sensetree_home / "settings.json").write_text(
        json.dumps({"roots": [str(docs)], "embedding": {"model": "hashing-384"}}), encoding="utf-8"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "SENSETREE_HOME": str(sensetree_home)}
    errors = tmp_path / "serve.stderr"
    with (
        errors.open("w") as stderr,
        subprocess.Popen(
            [sys.executable, str(REPO / "app.py"), "serve"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        ) as proc,
    ):
        try:
            first = proc.stdout.readline()
            assert first.startswith("SenseTree UI: "), errors.read_text()
            url = first.split(": ", 1)[1].strip()
            _wait_until_indexed(url, len(DOCS))  # the start-up scan wrote the keyword index
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=120) == 0, errors.read_text()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
    db = sensetree_home / "keywords.duckdb"
    assert not Path(str(db) + ".wal").exists()  # closed and checkpointed, not killed
    index = KeywordIndex(db)
    try:
        index.delete(str(docs / "note3.txt"))
        assert len(index.search("orchard greenhouse", 50)) == len(DOCS) - 1
    finally:
        index.close()


def test_the_first_quit_signal_runs_the_quit_actions_and_a_second_one_interrupts():
    stopped = threading.Event()
    with lifecycle.QuitSignals() as signals:
        lifecycle.on_quit(stopped.set)
        os.kill(os.getpid(), signal.SIGTERM)
        assert stopped.wait(10)
        assert signals.requested.is_set() and signals.signum == signal.SIGTERM
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGHUP)
            threading.Event().wait(10)  # the handler raises here, on the main thread
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # put back as it was


def test_a_quit_signal_without_a_quit_action_unwinds_the_command_so_its_finally_blocks_run():
    closed = []

    def long_command() -> None:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            threading.Event().wait(10)
        finally:
            closed.append("engine closed")

    with pytest.raises(KeyboardInterrupt):
        lifecycle.run_quitting(long_command)
    assert closed == ["engine closed"]
