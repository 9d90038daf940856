"""Point writes insert their postings through a view registered once on the writer (point_rows.py)."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest

from engine.errors import StoreError
from engine.retrieval.keyword import point_terms
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.point_rows import PointRows
from tests.retrieval.test_point_write_calls import assert_same_as_rebuilt


def test_writes_after_a_first_write_that_rolled_back_still_insert_their_postings(tmp_path, monkeypatch):
    """The view is registered outside the transaction: registered inside the first write, its rollback
    would have dropped it and every later write would fail."""
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        with monkeypatch.context() as patch:
            patch.setattr(point_terms, "df_change", _fails)
            with pytest.raises(RuntimeError, match="injected"):
                index.upsert("/r/a.txt", ["budget review"])
        index.upsert("/r/a.txt", ["budget review", "harbour meeting"])
        index.upsert("/r/b.txt", ["orchard travel"])
        index.upsert("/r/b.txt", ["orchard travel"])  # unchanged: its chunk goes in without postings
        live = {"/r/a.txt": ["budget review", "harbour meeting"], "/r/b.txt": ["orchard travel"]}
        assert_same_as_rebuilt(index, live, tmp_path / "rebuilt.duckdb", monkeypatch)
        assert [hit.key for hit in index.search("orchard", 5)] == [("/r/b.txt", 0)]
    finally:
        index.close()


def _fails(*_args: object) -> object:
    raise RuntimeError("injected")


def test_a_view_that_cannot_be_registered_is_a_store_error_naming_the_write(tmp_path, monkeypatch):
    """A DuckDB error at registration (a damaged file at the first write) reaches the engine as the store's
    error, which keyword_store answers by healing, not as a raw DuckDB exception."""
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        monkeypatch.setattr(PointRows, "register", _io_error)
        with pytest.raises(StoreError, match="update the keyword index"):
            index.upsert("/r/a.txt", ["budget review"])
    finally:
        index.close()


def _io_error(*_args: object) -> None:
    raise duckdb.IOException("injected: could not read block")


def _postings(n: int) -> pa.Table:
    """n postings in buffers Arrow allocated (built from Python lists: numpy's would be borrowed)."""
    return pa.table(
        {
            "tid": pa.array(list(range(n)), pa.int32()),
            "chunk_id": pa.array([100 + i for i in range(n)], pa.int64()),
            "tf": pa.array([1] * n, pa.int32()),
            "w": pa.array([0.5] * n, pa.float32()),
        }
    )


def _postings_table() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(":memory:")
    con.execute("CREATE TABLE postings (tid INTEGER, chunk_id BIGINT, tf INTEGER, w FLOAT)")
    return con


def test_the_postings_are_read_from_the_stream_without_calling_back_into_python():
    """DuckDB reads a bare capsule's Arrow stream itself; any other Arrow object (session 7's holder with
    `__arrow_c_stream__`, a table) it calls back and feeds through pyarrow.dataset's Scanner, ~0.25-0.3 ms
    of CPU per write whatever its size."""
    import sys

    con = _postings_table()
    rows = PointRows()
    rows.register(con)
    postings = _postings(3)
    called: list[str] = []

    def profile(frame, event, _arg):  # type: ignore[no-untyped-def]
        if event == "call" and "abc" not in frame.f_code.co_filename:  # DuckDB's isinstance checks
            called.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        rows.insert(con, postings)
    finally:
        sys.setprofile(None)
    assert set(called) <= {"insert", "_release", "_move"}, called
    assert con.execute("SELECT count(*), sum(chunk_id), sum(w) FROM postings").fetchone() == (3, 303, 1.5)


def test_a_statement_that_fails_before_the_postings_leaves_no_stream_held_and_the_next_insert_works():
    """The stream a failed call did not read is released at once (its table's memory with it), and the next
    write's stream takes its place."""
    import gc

    con = _postings_table()
    rows = PointRows()
    rows.register(con)
    rows.insert(con, _postings(10))
    held = pa.total_allocated_bytes()
    with pytest.raises(duckdb.CatalogException):
        rows.insert(con, _postings(50_000), before="INSERT INTO nowhere VALUES (1)")
    gc.collect()
    assert pa.total_allocated_bytes() == held
    for _ in range(20):
        rows.insert(con, _postings(1_000))
    gc.collect()
    assert pa.total_allocated_bytes() == held
    assert con.execute("SELECT count(*) FROM postings").fetchone() == (20_010,)
