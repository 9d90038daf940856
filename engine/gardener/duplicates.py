"""Exact duplicates (same content hash in the catalog), near-duplicates (chunk #0 vectors at or above
the measured cosine threshold) and versions (near-identical content under one name stem:
`report.docx`, `report (1).docx`, `report-final-v2.docx`). Each group keeps its newest file; the
others are what a fix would move to the trash."""

from __future__ import annotations

import os
import re
from collections import defaultdict

from engine.gardener.inputs import FileInfo, Inputs
from engine.gardener.model import SEVERITY, Evidence, Finding
from engine.gardener.similar import similar_pairs

# Suffixes people and programs add to a copy or a revision, stripped until none is left.
_VERSION_TAILS = re.compile(
    r"(?:\s*\(\d+\)|[\s_-]*(?:copy|kopie|copie)(?:\s*\d+)?|[\s_.-]*(?:final|draft|old|new|latest|rev\d*|"
    r"v\d+(?:\.\d+)*|\d{4}-\d{2}-\d{2}|\d{8}))$",
    re.IGNORECASE,
)
_COPY_OF = re.compile(r"^(?:copy of|kopie van)\s+", re.IGNORECASE)


def version_stem(name: str) -> str:
    """The name with copy and revision marks removed: `Report-final-v2 (1).docx` → `report.docx`."""
    stem, ext = os.path.splitext(name)
    stem = _COPY_OF.sub("", stem)
    while True:
        shorter = _VERSION_TAILS.sub("", stem)
        if shorter == stem or not shorter.strip(" _-."):
            break
        stem = shorter
    return stem.strip(" _-.").casefold() + ext.casefold()


def exact_duplicates(inputs: Inputs) -> list[Finding]:
    groups: dict[tuple[str, int | None], list[FileInfo]] = defaultdict(list)
    for f in inputs.files:
        if f.hash and f.size:
            groups[(f.hash, f.size)].append(f)
    findings = []
    for members in groups.values():
        if len(members) > 1:
            keep = _newest(members)
            findings.append(
                Finding(
                    "duplicate",
                    SEVERITY["duplicate"],
                    f"{len(members)} identical copies of {keep.name}",
                    f"Same content (hash {members[0].hash[:12] if members[0].hash else ''}…, "
                    f"{members[0].size} bytes); keeping the newest, {keep.path}.",
                    _evidence(members, keep, None),
                    keep=keep.path,
                )
            )
    return findings


def similar_groups(inputs: Inputs, threshold: float, skip: set[str]) -> list[Finding]:
    """Near-duplicate and version findings from the stored vectors. Files with equal hashes are left
    to `exact_duplicates`, and `skip` (the copies an exact-duplicate fix removes) is not counted twice."""
    pairs = similar_pairs(inputs.vectors, threshold)
    parent = list(range(len(inputs.vector_paths)))
    best: dict[int, float] = {}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j, score in pairs:
        a, b = inputs.by_path[inputs.vector_paths[i]], inputs.by_path[inputs.vector_paths[j]]
        if (a.hash and a.hash == b.hash) or a.path in skip or b.path in skip:
            continue
        parent[find(i)] = find(j)
        best[i] = max(best.get(i, 0.0), score)
        best[j] = max(best.get(j, 0.0), score)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in best:
        groups[find(i)].append(i)
    findings = []
    for rows in groups.values():
        members = [inputs.by_path[inputs.vector_paths[i]] for i in sorted(rows)]
        scores = {inputs.vector_paths[i]: best[i] for i in rows}
        findings.append(_similar_finding(members, scores, threshold))
    return sorted(findings, key=lambda f: f.evidence[0].path)


def _similar_finding(members: list[FileInfo], scores: dict[str, float], threshold: float) -> Finding:
    keep = _newest(members)
    stems = {version_stem(m.name) for m in members}
    low = min(scores.values())
    if len(stems) == 1:
        return Finding(
            "version",
            SEVERITY["version"],
            f"{len(members)} versions of {keep.name}",
            f"The names differ only by copy or revision marks and the content is near-identical "
            f"(similarity ≥ {low:.3f}); the newest is {keep.path}.",
            _evidence(members, keep, scores),
            keep=keep.path,
        )
    return Finding(
        "near_duplicate",
        SEVERITY["near_duplicate"],
        f"{len(members)} near-identical files like {keep.name}",
        f"Their opening text and sense are almost the same (similarity ≥ {low:.3f}, threshold "
        f"{threshold:.2f}) though the files differ; keeping the newest, {keep.path}.",
        _evidence(members, keep, scores),
        keep=keep.path,
    )


def _newest(members: list[FileInfo]) -> FileInfo:
    return max(members, key=lambda f: (f.modified or 0.0, f.path))


def _evidence(members: list[FileInfo], keep: FileInfo, scores: dict[str, float] | None) -> list[Evidence]:
    ordered = [keep] + sorted((m for m in members if m is not keep), key=lambda m: m.path)
    return [
        Evidence(
            m.path,
            m.size,
            m.modified,
            None if scores is None else round(scores.get(m.path, 1.0), 4),
            "newest: kept" if m is keep else "older copy",
        )
        for m in ordered
    ]
