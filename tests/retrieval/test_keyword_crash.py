"""Crash-and-reopen of the keyword index in a subprocess (issue 11, finding 1).

The process that writes is killed with `os._exit(137)` (no checkpoint, the WAL left behind); the test
process then opens, closes and reopens the file the way the next two starts of the app would.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb

from engine.retrieval.keyword.index import KeywordIndex

REPO = Path(__file__).resolve().parents[2]


def crash_after(db: Path, body: str) -> None:
    """Run `body` with `index = KeywordIndex(db)` in a child that then dies without closing anything."""
    script = (
        "import os\nfrom engine.retrieval.keyword.index import KeywordIndex\n"
        f"index = KeywordIndex({str(db)!r})\n{textwrap.dedent(body)}\nos._exit(137)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 137, done.stderr
    assert Path(str(db) + ".wal").exists()  # the kill left a WAL to replay


TEN_FILES = """
index.upsert_many([(f"/docs/f{i}.txt", [f"alpha beta chunk one of file {i}", f"gamma delta chunk two {i}"])
                   for i in range(10)])
"""


def test_a_file_indexed_before_a_kill_can_be_deleted_after_one_clean_start(tmp_path):
    db = tmp_path / "keywords.duckdb"
    crash_after(db, TEN_FILES)
    KeywordIndex(db).close()  # one start and a clean quit
    index = KeywordIndex(db)
    try:
        index.delete("/docs/f1.txt")  # was: FATAL Error: Failed to delete all rows from index
        assert index.chunk_counts() == {f"/docs/f{i}.txt": 2 for i in range(10) if i != 1}
        index.upsert("/docs/f2.txt", ["alpha rewritten"])
        assert {h.path for h in index.search("alpha", 50)} == {f"/docs/f{i}.txt" for i in range(10) if i != 1}
    finally:
        index.close()


def test_terms_written_before_a_kill_are_found_after_a_clean_start(tmp_path):
    db = tmp_path / "keywords.duckdb"
    crash_after(
        db,
        "index.upsert('/docs/old.txt', ['zebra apple'])\nindex._writer.execute('CHECKPOINT')\n" + TEN_FILES,
    )
    KeywordIndex(db).close()
    index = KeywordIndex(db)
    try:  # a stale term index answered 0 here while the rows were in the table
        assert len(index.search("alpha", 50)) == 10 and len(index.search("gamma", 50)) == 10
        assert [h.path for h in index.search("zebra", 5)] == ["/docs/old.txt"]
    finally:
        index.close()


def test_an_older_format_index_that_may_hold_a_stale_art_is_emptied_and_usable(tmp_path):
    db = tmp_path / "keywords.duckdb"
    # written by the format-3 code: a kill, then a start whose close checkpointed without binding the indexes
    crash_after(db, TEN_FILES + "index._writer.execute(\"UPDATE meta SET value = 3 WHERE key = 'format'\")\n")
    duckdb.connect(str(db)).close()
    index = KeywordIndex(db)
    try:
        assert index.chunk_counts() == {}  # dropped at open; the engine's repair refills it from the vectors
        index.upsert_many([(f"/docs/f{i}.txt", [f"alpha {i}"]) for i in range(10)])
        index.delete("/docs/f1.txt")
        assert len(index.search("alpha", 50)) == 9
    finally:
        index.close()
