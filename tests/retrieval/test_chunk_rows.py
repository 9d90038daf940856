"""The rows of a keyword query's winners are read once and kept until the next write (chunk_rows.py):
queries typed one after another find the same chunks without a statement, and a write (an edit, a
rename) is seen by the very next query."""

from __future__ import annotations

import pytest

from engine.retrieval.keyword.chunk_rows import ChunkRows
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.reading import KeywordReading

FILES = {
    "/docs/a.txt": ["the budget review for spring", "travel costs of the team"],
    "/docs/b.txt": ["budget travel plans", "nothing to see here"],
}


@pytest.fixture
def reads(monkeypatch):
    """The ids each read of winners' rows from DuckDB asked for."""
    asked: list[list[int]] = []
    real = KeywordReading._winners

    def counted(cur, ids):
        asked.append(list(ids))
        return real(cur, ids)

    monkeypatch.setattr(KeywordReading, "_winners", staticmethod(counted))
    return asked


def test_a_query_whose_winners_were_found_before_reads_no_row_from_the_store(tmp_path, reads):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(FILES.items())
    first = index.answer("budget travel", 10)
    assert len(reads) == 1
    again = index.answer("budget", 10)  # other words, the same chunks
    assert len(reads) == 1
    assert again.texts == {key: first.texts[key] for key in again.texts}
    index.close()


def test_an_edit_and_a_rename_are_seen_by_the_next_query(tmp_path, reads):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(FILES.items())
    index.answer("budget", 10)
    index.upsert("/docs/b.txt", ["budget travel plans, revised"])
    assert index.answer("budget", 10).texts[("/docs/b.txt", 0)] == "budget travel plans, revised"
    index.rename("/docs/a.txt", "/docs/spring.txt")
    paths = {hit.path for hit in index.answer("budget", 10).hits}
    assert paths == {"/docs/spring.txt", "/docs/b.txt"}
    assert len(reads) == 3
    index.close()


def test_rows_read_before_a_write_ended_are_not_kept_for_the_generation_after_it():
    rows = ChunkRows()
    rows.put_many({1: ("/a", 0, "old")}, generation=3)
    assert rows.get_many([1], generation=4) == {}
    rows.put_many({1: ("/a", 0, "old")}, generation=3)  # a read that began before the write ended
    assert rows.get_many([1], generation=4) == {}
    rows.put_many({1: ("/a", 0, "new")}, generation=4)
    assert rows.get_many([1, 2], generation=4) == {1: ("/a", 0, "new")}


def test_the_rows_kept_are_bounded():
    rows = ChunkRows(kept=4)
    for chunk_id in range(10):
        rows.put_many({chunk_id: ("/a", chunk_id, "text")}, generation=0)
    assert len(rows.get_many(range(10), generation=0)) <= 4
    assert rows.get_many([9], generation=0) == {9: ("/a", 9, "text")}
