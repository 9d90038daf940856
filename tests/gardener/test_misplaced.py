"""Misplaced files from stored vectors alone (engine/gardener/misplaced.py), on folders built from a few
directions: a move is proposed only when one folder clearly fits the file better than any other."""

from __future__ import annotations

import numpy as np

from engine.gardener.inputs import FileInfo, Inputs
from engine.gardener.misplaced import misplaced

ROOT = "/home/ann"
COS_AB = 0.8  # Receipts and Invoices are close themes; Recipes is unrelated to both


def _direction(name: str) -> np.ndarray:
    sin_ab = np.sqrt(1 - COS_AB**2)
    return {
        "Receipts": np.array([1.0, 0.0, 0.0, 0.0]),
        "Invoices": np.array([COS_AB, sin_ab, 0.0, 0.0]),
        "Recipes": np.array([0.0, 0.0, 1.0, 0.0]),
    }[name]


def _inputs_of(vectors: dict[str, np.ndarray]) -> Inputs:
    """Text files with these stored vectors (normalised, as the index keeps them)."""
    files = [
        FileInfo(path, path.rsplit("/", 1)[1], path.rsplit("/", 1)[0], 100, 0.0, path, "a sense", "text", 1)
        for path in vectors
    ]
    rows = np.stack([v / np.linalg.norm(v) for v in vectors.values()]).astype(np.float32)
    return Inputs(files, {f.path: f for f in files}, list(vectors), rows)


def _inputs(placed: dict[str, np.ndarray]) -> Inputs:
    """Three filed folders of four files each (their theme plus a little noise), and `placed`."""
    rng = np.random.default_rng(7)
    vectors = {
        f"{ROOT}/{folder}/{folder.lower()}-{i}.txt": _direction(folder) + 0.05 * rng.standard_normal(4)
        for folder in ("Receipts", "Invoices", "Recipes")
        for i in range(4)
    }
    return _inputs_of({**vectors, **placed})


def test_a_file_that_fits_two_folders_equally_is_not_moved_and_one_that_fits_one_clearly_is():
    between = _direction("Receipts") + _direction("Invoices")  # as close to both themes
    inputs = _inputs(
        {
            f"{ROOT}/Desktop/list.txt": between,
            f"{ROOT}/Desktop/receipt-12.txt": _direction("Receipts"),
            f"{ROOT}/Recipes/note.txt": between,
        }
    )

    found = {f.paths[0]: f for f in misplaced(inputs, margin=0.15, min_cosine=0.3)}

    assert sorted(found) == [f"{ROOT}/Desktop/receipt-12.txt"]
    move = found[f"{ROOT}/Desktop/receipt-12.txt"]
    assert move.target == f"{ROOT}/Receipts" and move.evidence[0].confident
    assert move.evidence[2].path == f"{ROOT}/Invoices"  # the runner-up, with its score, is shown
    assert "clearly better than the next folder, Invoices (0." in move.why


def test_a_folder_whose_files_share_no_theme_is_no_destination():
    rng = np.random.default_rng(3)
    axes = np.eye(8)
    themed = {f"{ROOT}/Receipts/receipt-{i}.txt": axes[0] + 0.05 * rng.standard_normal(8) for i in range(4)}
    mixed = {f"{ROOT}/Documents/{name}.txt": axes[k] for k, name in enumerate(["cv", "lease", "poem"], 1)}
    note = {f"{ROOT}/Desktop/note.txt": axes[1] + axes[2] + axes[3]}  # the mixed folder's average

    found = misplaced(_inputs_of({**themed, **mixed, **note}), margin=0.15, min_cosine=0.3)

    assert found == []  # it fits Documents' average (0.58), but Documents' own files fit it at 0
