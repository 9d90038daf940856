"""The ANN index stays in a bounded number of pieces however long the app runs (issue 30: each maintenance
after a save appended a delta index, and every query walked all of them)."""

from __future__ import annotations

import numpy as np

from engine.retrieval import vectors as vectors_module
from engine.retrieval.vectors import VectorIndex

FIRST_ROWS = 300
BOUND = 3


def test_maintenance_after_many_saves_keeps_the_ann_index_in_bounded_pieces_that_still_find_new_rows(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(vectors_module, "ANN_MIN_ROWS", FIRST_ROWS)
    monkeypatch.setattr(vectors_module, "MAX_ANN_PIECES", BOUND, raising=False)
    rng = np.random.default_rng(5)
    index = VectorIndex(tmp_path / "vectors", 32)
    first = rng.normal(size=(FIRST_ROWS, 32)).astype(np.float32)
    index.upsert_many([(f"/r/doc{i}.txt", [f"text {i}"], first[i : i + 1]) for i in range(FIRST_ROWS)])
    index.optimize()
    assert index.has_ann()
    name = next(ix.name for ix in index._table.list_indices() if ix.columns == ["vector"])
    pieces = []
    for save in range(BOUND * 2 + 1):  # a save, then the maintenance the worker runs once the queue drains
        vector = rng.normal(size=(1, 32)).astype(np.float32)
        path = f"/r/saved{save}.txt"
        index.upsert(path, [f"saved {save}"], vector)
        index.optimize()
        pieces.append(index._table.index_stats(name).num_indices)
        assert index.search(vector[0], 5)[0].key == (path, 0)  # the newest row is found through the index
    assert max(pieces) <= BOUND, pieces
    assert index.count() == FIRST_ROWS + BOUND * 2 + 1
