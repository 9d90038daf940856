"""Point writes insert their postings through a view registered once on the writer (point_rows.py)."""

from __future__ import annotations

import duckdb
import pytest

from engine.errors import StoreError
from engine.retrieval.keyword import point_terms
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.point_rows import PointRows
from tests.retrieval.test_keyword_writes import bulk_build, snapshot


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
        rebuilt = bulk_build(tmp_path / "rebuilt.duckdb", live, monkeypatch)
        try:
            a, b = snapshot(index), snapshot(rebuilt)
            assert a["chunks"] == b["chunks"] and a["tf"] == b["tf"] and a["df"] == b["df"]
        finally:
            rebuilt.close()
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
