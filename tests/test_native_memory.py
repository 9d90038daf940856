"""Indexing hands freed native memory back: two malloc arenas, a trim after every batch (issue 30)."""

from __future__ import annotations

import sys

import pytest

from engine import native_memory
from tests.indexing.helpers import SAMPLE, indexed_engine, write_docs


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc only")
def test_glibc_takes_the_arena_limit():
    assert native_memory.limit_arenas() is True


def test_indexing_trims_malloc_after_the_keyword_batch_and_each_semantic_batch(
    tmp_path, sensetree_home, monkeypatch
):
    trims: list[int] = []
    monkeypatch.setattr(native_memory, "trim", lambda: trims.append(1))
    with indexed_engine(write_docs(tmp_path / "Docs", SAMPLE), sensetree_home) as engine:
        assert engine.indexing_stats().semantic.done == len(SAMPLE)
    assert len(trims) >= 3  # the keyword batch, the semantic batch, the empty semantic look that ends it
