"""The first ANN build hands malloc's free space back before and after itself (issue 30: its peak and the
compaction's after it added up to the peak of indexing 50,000 tiny files)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import native_memory
from engine.retrieval import vectors as vectors_module
from engine.retrieval.vectors import VectorIndex

ROWS = 300


def _index_with_recorded_steps(tmp_path: Any, monkeypatch: Any, steps: list[str]) -> VectorIndex:
    monkeypatch.setattr(vectors_module, "ANN_MIN_ROWS", ROWS)
    monkeypatch.setattr(native_memory, "trim", lambda now=False: steps.append(f"trim(now={now})"))
    rng = np.random.default_rng(3)
    matrix = rng.normal(size=(ROWS, 32)).astype(np.float32)
    index = VectorIndex(tmp_path / "vectors", 32)
    index.upsert_many([(f"/r/F{i // 100}/doc{i}.txt", [f"text {i}"], matrix[i : i + 1]) for i in range(ROWS)])
    build, compact = index._build_ann, index._table.optimize
    monkeypatch.setattr(index, "_build_ann", lambda rows: (steps.append("build"), build(rows)))
    monkeypatch.setattr(index._table, "optimize", lambda **kw: (steps.append("compact"), compact(**kw)))
    return index


def test_first_ann_build_is_trimmed_around_so_its_peak_and_the_compactions_do_not_add_up(
    tmp_path, monkeypatch
):
    steps: list[str] = []
    index = _index_with_recorded_steps(tmp_path, monkeypatch, steps)
    index.optimize()
    assert steps == ["trim(now=True)", "build", "trim(now=True)", "compact"]
    assert index.has_ann()


def test_maintenance_after_the_index_exists_only_compacts(tmp_path, monkeypatch):
    steps: list[str] = []
    index = _index_with_recorded_steps(tmp_path, monkeypatch, steps)
    index.optimize()
    steps.clear()
    index.optimize()
    assert steps == ["compact"]
