"""Bulk keyword writes checkpoint once at the end of a run, not at each commit (checkpoints.py).

Whether a commit checkpointed is read from the WAL: a checkpoint writes the WAL's commits into the file
and empties it. The tests lower DuckDB's threshold so that any commit would checkpoint by DuckDB's rule.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from engine.errors import StoreError
from engine.retrieval.keyword import checkpoints, writing
from engine.retrieval.keyword.index import KeywordIndex
from tests.retrieval.test_keyword_crash import crash_after

LOW = "1000 bytes"  # every commit's WAL passes it


def ten_files(tag: str) -> list[tuple[str, list[str]]]:
    """More files than a point write takes (writing.POINT_FILES): the bulk path."""
    return [
        (f"/docs/{tag}{i}.txt", [f"alpha beta {tag} chunk {i}", f"gamma {tag} delta {i}"]) for i in range(10)
    ]


def wal_bytes(db: Path) -> int:
    wal = Path(f"{db}.wal")
    return wal.stat().st_size if wal.exists() else 0


def threshold(index: KeywordIndex) -> str:
    row = index._writer.execute("SELECT current_setting('checkpoint_threshold')").fetchone()
    assert row is not None
    return str(row[0])


@pytest.fixture
def low_threshold_index(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index._writer.execute(f"SET checkpoint_threshold = '{LOW}'")
    yield index
    index.close()


def test_a_bulk_write_leaves_its_commit_in_the_wal_where_a_point_write_checkpoints(low_threshold_index):
    index = low_threshold_index
    index.upsert_many(ten_files("a"))
    assert wal_bytes(index.db_path) > 0  # DuckDB's rule would have checkpointed at this commit
    assert threshold(index) == LOW  # the database's setting is put back after the write
    assert index._checkpoints.owed_rows == 20
    index.upsert("/docs/one.txt", ["alpha alone"])  # a point write keeps DuckDB's rule
    assert wal_bytes(index.db_path) == 0
    assert len(index.search("alpha", 50)) == 11


def test_the_weight_refresh_checkpoints_what_the_run_of_bulk_writes_left(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many(ten_files("a"))
        index.upsert_many(ten_files("b"))
        assert wal_bytes(index.db_path) > 0
        index.refresh_weights()
        assert wal_bytes(index.db_path) == 0  # one checkpoint after the refresh (none by DuckDB's 16 MB rule)
        assert index._checkpoints.owed_rows == 0
        assert len(index.search("gamma", 50)) == 20
    finally:
        index.close()


def test_bulk_writes_owing_more_than_the_bound_checkpoint_after_the_commit_that_passed_it(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(checkpoints, "OWED_ROWS", 30)
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many(ten_files("a"))
        assert wal_bytes(index.db_path) > 0 and index._checkpoints.owed_rows == 20
        index.upsert_many(ten_files("b"))  # 40 owed: past the bound
        assert wal_bytes(index.db_path) == 0 and index._checkpoints.owed_rows == 0
    finally:
        index.close()


def test_a_failed_bulk_write_puts_the_setting_back_and_owes_nothing(low_threshold_index, monkeypatch):
    index = low_threshold_index

    def fails(*_args: object) -> object:
        raise duckdb.ConversionException("injected")

    with monkeypatch.context() as patch:
        patch.setattr(writing, "insert_rows", fails)
        with pytest.raises(StoreError, match="injected"):
            index.upsert_many(ten_files("a"))
    assert threshold(index) == LOW and index._checkpoints.owed_rows == 0
    assert index.chunk_counts() == {}  # rolled back
    index.upsert_many(ten_files("b"))
    assert len(index.search("gamma", 50)) == 10


def test_deferred_bulk_writes_killed_before_their_checkpoint_are_all_there_after_a_restart(tmp_path):
    db = tmp_path / "keywords.duckdb"
    crash_after(
        db,
        f"index.upsert_many({ten_files('a')!r})\nindex.upsert_many({ten_files('b')!r})\n"
        "assert index._checkpoints.owed_rows == 40\n",
    )
    KeywordIndex(db).close()  # one start and a clean quit
    index = KeywordIndex(db)
    try:
        assert len(index.chunk_counts()) == 20
        index.delete("/docs/a1.txt")  # the ART holds the replayed rows (index.py's docstring)
        assert len(index.search("gamma", 50)) == 19
    finally:
        index.close()
