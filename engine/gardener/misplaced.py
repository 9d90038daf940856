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
BLOCK = 4096  # files scored against every centroid at once


def misplaced(inputs: Inputs, margin: float, min_cosine: float) -> list[Finding]:
    rows_of: dict[str, list[int]] = defaultdict(list)
    for row, path in enumerate(inputs.vector_paths):
        rows_of[inputs.by_path[path].folder].append(row)
    folders = sorted(f for f, rows in rows_of.items() if len(rows) >= MIN_FOLDER)
    if len(folders) < 2:
        return []
    vectors = inputs.vectors
    index = {f: k for k, f in enumerate(folders)}
    rows = np.array([r for f in folders for r in rows_of[f]])
    own_of = np.array([index[f] for f in folders for _ in rows_of[f]])
    sums = np.stack([vectors[rows_of[f]].sum(axis=0) for f in folders])
    centroids = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-9)
    findings = []
    for start in range(0, len(rows), BLOCK):
        block, owns = rows[start : start + BLOCK], own_of[start : start + BLOCK]
        v = vectors[block]
        scores = v @ centroids.T  # each file against every centroid
        dot = np.einsum("ij,ij->i", v, sums[owns])  # v · S_own
        rest_norm = np.sqrt(np.maximum((sums[owns] ** 2).sum(axis=1) - 2 * dot + (v**2).sum(axis=1), 1e-18))
        own = (dot - (v**2).sum(axis=1)) / rest_norm  # v · (S_own − v) / |S_own − v|: without itself
        scores[np.arange(len(block)), owns] = -1.0
        best = np.argmax(scores, axis=1)
        other = scores[np.arange(len(block)), best]
        for k in np.flatnonzero((other >= min_cosine) & (other - own >= margin)).tolist():
            findings.append(
                _finding(
                    inputs, int(block[k]), folders[owns[k]], folders[best[k]], float(own[k]), float(other[k])
                )
            )
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
