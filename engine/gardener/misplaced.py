"""Misplaced files: a file whose stored sense vector (chunk #0) is much closer to another folder's
centroid than to its own folder's (its own centroid computed without it, so a file cannot vouch for
itself). Only folders with at least `MIN_FOLDER` indexed files have a centroid worth trusting."""

from __future__ import annotations

import os
from collections import defaultdict

import numpy as np

from engine.gardener.inputs import Inputs
from engine.gardener.model import SEVERITY, Evidence, Finding

MIN_FOLDER = 3


def misplaced(inputs: Inputs, margin: float, min_cosine: float) -> list[Finding]:
    rows_of: dict[str, list[int]] = defaultdict(list)
    for row, path in enumerate(inputs.vector_paths):
        rows_of[os.path.dirname(path)].append(row)
    folders = sorted(f for f, rows in rows_of.items() if len(rows) >= MIN_FOLDER)
    if len(folders) < 2:
        return []
    vectors = inputs.vectors
    sums = np.stack([vectors[rows_of[f]].sum(axis=0) for f in folders])
    centroids = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-9)
    findings = []
    for own_index, folder in enumerate(folders):
        rows = rows_of[folder]
        scores = vectors[rows] @ centroids.T  # each file against every centroid
        for k, row in enumerate(rows):
            rest = sums[own_index] - vectors[row]
            own = float(vectors[row] @ rest / max(float(np.linalg.norm(rest)), 1e-9))
            scores[k, own_index] = -1.0
            best = int(np.argmax(scores[k]))
            other = float(scores[k, best])
            if other >= min_cosine and other - own >= margin:
                findings.append(_finding(inputs, row, folder, folders[best], own, other))
    return sorted(findings, key=lambda f: f.evidence[0].path)


def _finding(inputs: Inputs, row: int, folder: str, target: str, own: float, other: float) -> Finding:
    info = inputs.by_path[inputs.vector_paths[row]]
    return Finding(
        "misplaced",
        SEVERITY["misplaced"],
        f"{info.name} belongs with {os.path.basename(target) or target}",
        f"Its sense is much closer to the files in {target} (similarity {other:.3f}) than to the other "
        f"files in {folder} ({own:.3f}).",
        [
            Evidence(info.path, info.size, info.modified, round(own, 4), f"similarity to {folder}"),
            Evidence(target, None, None, round(other, 4), "the folder it belongs with"),
        ],
        target=target,
    )
