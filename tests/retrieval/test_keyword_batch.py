"""A bulk write stages its batch (split, vocabulary, counts) before its transaction begins (keyword_batch.py):
a write that fails after staging, or whose staging fails, must leave the index as before, and the next
batch must be written from its own staging, never from a failed one's leftovers."""

from __future__ import annotations

import pytest

from engine.errors import StoreError
from engine.retrieval.keyword import batch as keyword_batch
from engine.retrieval.keyword import index as bm25
from engine.retrieval.keyword import writes as keyword_writes
from tests.retrieval.test_keyword_writes import bulk_build, corpus, snapshot


def assert_the_next_bulk_group_is_exact(index, reference, monkeypatch, seed: int) -> None:
    """The same new group through the bulk path into `index` and `reference` leaves equal indexes."""
    group = {f"/r/group/{n}.txt": chunks for n, chunks in enumerate(corpus(8, seed=seed).values())}
    with monkeypatch.context() as patch:
        patch.setattr(bm25, "POINT_ROWS", 0)
        for target in (index, reference):
            target.upsert_many(group.items())
    assert snapshot(index) == snapshot(reference)


def test_a_bulk_write_failing_after_staging_leaves_the_index_and_the_next_write_exact(tmp_path, monkeypatch):
    files = corpus(12, seed=21)
    index = bulk_build(tmp_path / "k.duckdb", files, monkeypatch)
    reference = bulk_build(tmp_path / "reference.duckdb", files, monkeypatch)
    failed = {f"/r/failed/{n}.txt": chunks for n, chunks in enumerate(corpus(8, seed=22).values())}
    original = keyword_writes._shift_df

    def shift_then_fail(cur: object, sign: int) -> None:
        original(cur, sign)  # type: ignore[arg-type]
        raise bm25.duckdb.InvalidInputException("disk full")

    try:
        before = snapshot(index)
        with monkeypatch.context() as patch:
            patch.setattr(bm25, "POINT_ROWS", 0)
            patch.setattr(keyword_writes, "_shift_df", shift_then_fail)
            with pytest.raises(StoreError):
                index.upsert_many(failed.items())
        assert snapshot(index) == before
        assert_the_next_bulk_group_is_exact(index, reference, monkeypatch, seed=23)
    finally:
        index.close()
        reference.close()


def test_a_batch_that_cannot_be_staged_raises_a_store_error_and_changes_nothing(tmp_path, monkeypatch):
    files = corpus(12, seed=24)
    index = bulk_build(tmp_path / "k.duckdb", files, monkeypatch)
    reference = bulk_build(tmp_path / "reference.duckdb", files, monkeypatch)

    def broken(cur: object, incoming: object, cores: object = None) -> None:
        raise bm25.duckdb.OutOfMemoryException("no memory for the split")

    try:
        before = snapshot(index)
        with monkeypatch.context() as patch:
            patch.setattr(bm25, "POINT_ROWS", 0)
            patch.setattr(keyword_batch, "stage", broken)
            with pytest.raises(StoreError):
                index.upsert_many(corpus(8, seed=25).items())
        assert snapshot(index) == before
        assert_the_next_bulk_group_is_exact(index, reference, monkeypatch, seed=26)
    finally:
        index.close()
        reference.close()
