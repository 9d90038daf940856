"""File names that are not valid UTF-8 (issue 11, finding 2): one Latin-1 name among 40 files used to
roll back the batch of queue inserts, so 0 of 40 were indexed, silently; the CLI showed a traceback and
then "Indexed 0 file(s)" with exit 0."""

from __future__ import annotations

import http.client
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bridge import Api
from bridge.server import TOKEN_HEADER, start_server
from engine.db import Database
from engine.indexing import catalog as catalog_mod
from engine.indexing import queue as queue_mod
from engine.indexing.indexer import NOT_TEXT_NAME
from engine.indexing.pathtext import from_store, is_text, printable, to_store
from engine.indexing.queue import CRAWL, WorkQueue
from tests.indexing.helpers import indexed_engine, make_engine

REPO = Path(__file__).resolve().parents[2]
LATIN1_NAME = b"Rechnung_M\xfcller.txt"
posix_bytes_names = pytest.mark.skipif(
    sys.platform == "win32" or sys.getfilesystemencoding() != "utf-8",
    reason="needs a UTF-8 POSIX file system that accepts any bytes in names",
)


def forty_files_one_latin1(folder: Path) -> str:
    """39 ordinary text files and one whose name is Latin-1 bytes; returns the odd one's path as the OS
    spells it (os.fsdecode: lone surrogates)."""
    folder.mkdir(parents=True)
    for i in range(39):
        (folder / f"note-{i:02}.txt").write_text(
            f"Note {i}: the budget of project {i} is {i * 100} euros.", encoding="utf-8"
        )
    odd = os.path.join(os.fsencode(folder), LATIN1_NAME)
    with open(odd, "wb") as handle:
        handle.write("Rechnung für Herrn Müller über 1.250 Euro.".encode())
    return os.fsdecode(odd)


def test_the_stored_spelling_is_valid_utf8_and_turns_back_into_the_exact_path():
    rng = random.Random(11)
    alphabet = [
        "a",
        "/",
        "é",
        "\udcfc",
        "\ud800",
        "\udfff",
        "\U0010f7fe",
        "\U0010f7ff",
        "\U0010f800",
        "\U0010ffff",
    ]
    for _ in range(5000):
        path = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        stored = to_store(path)
        stored.encode("utf-8")  # what SQLite, DuckDB and Arrow require
        assert from_store(stored) == path
        assert to_store(path + "/x").startswith(stored + "/")  # folder ranges keep working
    assert to_store("/home/anna/Überweisung.pdf") == "/home/anna/Überweisung.pdf"
    assert printable("/x/M\udcfcller.txt") == "/x/M\ufffdller.txt" and not is_text("/x/M\udcfcller.txt")


def test_one_refused_row_does_not_roll_back_the_rest_of_a_batch(tmp_path):
    db = Database(tmp_path / "q.db")
    db.migrate(catalog_mod.MIGRATIONS + queue_mod.MIGRATIONS)
    db.execute("""CREATE TRIGGER refuse_one BEFORE INSERT ON queue WHEN NEW.path = '/d/bad.txt'
                  BEGIN SELECT RAISE(ABORT, 'refused for the test'); END""")
    queue = WorkQueue(db)
    refused = queue.push_many([f"/d/{i}.txt" for i in range(10)] + ["/d/bad.txt"], CRAWL)
    assert [path for path, _ in refused] == ["/d/bad.txt"]
    assert queue.pending() == 10
    db.close()


@posix_bytes_names
def test_a_latin1_name_among_40_files_leaves_39_indexed_and_itself_failed_with_a_reason(
    tmp_path, sensetree_home
):
    odd = forty_files_one_latin1(tmp_path / "Docs")
    with indexed_engine(tmp_path / "Docs", sensetree_home) as engine:
        stats = engine.indexing_stats()
        assert (stats.done, stats.failed, stats.queued) == (39, 1, 0)
        failed = [q for q in engine.indexing_queue(100) if q.status == "failed"]
        assert [q.path for q in failed] == [odd] and failed[0].error == NOT_TEXT_NAME
        assert os.fsencode(failed[0].path).endswith(LATIN1_NAME)  # lossless: it still opens the file
        assert engine.parts.index.catalog.get(odd).error == NOT_TEXT_NAME
        assert engine.semantic_search("budget of project 7")[0].path.endswith("note-07.txt")
        raw = sqlite3.connect(sensetree_home / "sensetree.db")
        stored = [row[0].decode("utf-8") for row in raw.execute("SELECT CAST(path AS BLOB) FROM files")]
        raw.close()
        assert odd in [
            from_store(text) for text in stored
        ]  # valid UTF-8 in the database, the exact path back
        engine.parts.index.worker.request_scan(
            str(tmp_path / "Docs")
        )  # a re-scan neither re-queues nor forgets it
        engine.parts.index.drain()
        assert engine.indexing_stats().failed == 1 and engine.indexing_stats().queued == 0
        os.remove(odd)  # deleting it reaches the index like any other file
        engine.parts.index.worker.request_scan(str(tmp_path / "Docs"))
        engine.parts.index.drain()
        assert engine.parts.index.catalog.get(odd) is None and engine.indexing_stats().failed == 0


@posix_bytes_names
def test_the_odd_name_travels_through_the_http_bridge_and_back_without_loss(tmp_path, sensetree_home):
    odd = forty_files_one_latin1(tmp_path / "Docs")
    engine = make_engine(sensetree_home)
    server = start_server(Api(engine))
    try:
        engine.add_indexed_folder(str(tmp_path / "Docs"))
        engine.parts.index.drain()

        def post(command: str, body: dict) -> dict:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request(
                "POST",
                f"/api/{command}",
                body=json.dumps(body),
                headers={"Content-Type": "application/json", TOKEN_HEADER: server.token},
            )
            envelope = json.loads(conn.getresponse().read())
            conn.close()
            return envelope

        listed = post("indexing_queue", {})
        assert listed["ok"], listed
        failed = [q["path"] for q in listed["data"] if q["status"] == "failed"]
        assert failed == [odd]
        details = post("path_details", {"path": failed[0]})  # the name the page got opens the same file
        assert details["ok"] and details["data"]["status"] == "failed", details
    finally:
        server.stop()
        engine.running.close()


@posix_bytes_names
def test_the_index_command_reports_39_indexed_and_names_the_failed_file_without_a_traceback(tmp_path):
    forty_files_one_latin1(tmp_path / "Docs")
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text('{"embedding": {"model": "hashing-384"}}', encoding="utf-8")
    env = {**os.environ, "SENSETREE_HOME": str(home), "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}

    def index() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(REPO / "app.py"), "index", "--quiet", str(tmp_path / "Docs")],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    done = index()
    assert "Traceback" not in done.stderr and "Logging error" not in done.stderr, done.stderr
    assert "Indexed 39 file(s)" in done.stdout and "1 failed" in done.stdout, done.stdout + done.stderr
    assert "Rechnung_M\ufffdller.txt" in done.stderr and "not valid text" in done.stderr
    assert done.returncode == 1  # not every file could be indexed, and the exit status says so
    (tmp_path / "Docs" / "note-00.txt").unlink()  # the same command again sees deletions and additions
    (tmp_path / "Docs" / "note-01.txt").unlink()
    (tmp_path / "Docs" / "added.txt").write_text("Added after the first run.", encoding="utf-8")
    again = index()
    assert "Indexed 38 file(s)" in again.stdout and "Traceback" not in again.stderr, (
        again.stdout + again.stderr
    )
