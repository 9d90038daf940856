"""A tight cluster of similar files (one template's series, many copies of one note) is grouped by comparing
one pair a file, not every pair, and its pairs are walked as an array of keys (issue 30: 2,000
near-identical files had made a Gardener pass peak at 1.08 GB)."""

from __future__ import annotations

import numpy as np

from engine.gardener import duplicates, similar
from engine.gardener.inputs import FileInfo, Inputs

ROOT = "/home/ann/Notes"


def _cluster(count: int, seed: int = 3) -> Inputs:
    """`count` text files whose vectors all lie within a hair of one direction."""
    rng = np.random.default_rng(seed)
    centre = rng.standard_normal(32)
    rows = centre + 0.001 * rng.standard_normal((count, 32))
    rows = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
    files = [
        FileInfo(
            f"{ROOT}/note-{i:03d}.txt", f"note-{i:03d}.txt", ROOT, 100, 0.0, f"h{i}", "a note", "text", 1
        )
        for i in range(count)
    ]
    return Inputs(files, {f.path: f for f in files}, [f.path for f in files], rows)


def _same_text(files: list[FileInfo]) -> dict[str, str]:
    return {f.path: "the same shopping list of eggs milk bread butter and apples " * 4 for f in files}


def test_a_cluster_the_text_confirms_is_one_group_found_with_one_comparison_a_file(monkeypatch):
    inputs = _cluster(60)
    compared = []
    linked = duplicates._linked

    def counting(a, b, ta, tb):
        compared.append((a.path, b.path))
        return linked(a, b, ta, tb)

    monkeypatch.setattr(duplicates, "_linked", counting)
    found = duplicates.similar_groups(inputs, 0.9, set(), _same_text)
    assert [len(f.paths) for f in found] == [60], "every copy is in the one group"
    assert len(compared) == 59, f"{len(compared)} comparisons for 60 files: pairs one group joins are skipped"


def test_a_cluster_the_text_tells_apart_is_no_group_and_every_pair_is_still_compared(monkeypatch):
    inputs = _cluster(20)
    compared = []
    monkeypatch.setattr(duplicates, "_linked", lambda a, b, ta, tb: compared.append(1) is None and False)
    texts = lambda files: {f.path: f"receipt number {i} for a different month" for i, f in enumerate(files)}  # noqa: E731
    assert duplicates.similar_groups(inputs, 0.9, set(), texts) == []
    assert len(compared) == 20 * 19 // 2, "a series: each pair must be judged, none can be inferred"


def test_pair_keys_are_the_pairs_in_ascending_order_eight_bytes_each():
    inputs = _cluster(50)
    keys = similar.similar_pair_keys(inputs.vectors, 0.9)
    assert keys.dtype == np.int64 and np.all(np.diff(keys) > 0)
    assert [(int(k) // 50, int(k) % 50) for k in keys] == [
        (i, j) for i, j, _ in similar.similar_pairs(inputs.vectors, 0.9)
    ]
    assert len(keys) == 50 * 49 // 2
