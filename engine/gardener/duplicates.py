"""Exact duplicates (same content hash in the catalog), near-duplicates and versions (issue 29).

A near-duplicate is the *same document* saved twice with small differences — an edited copy, a
re-saved PDF, a download saved again with a line added — never merely a file on the same topic.
Vector similarity of the stored chunk #0 only proposes candidates; the extracted text decides
(engine/gardener/resemble.py): enough shared phrases, and no number, date or month swapped for
another (that is a series of records from one template — receipts, statements, journal days,
meeting notes — which are never duplicates). A file catalogued by name only has no text and is
never a near-duplicate; photos are compared by their pixels (engine/gardener/images.py).

A version shares its name once copy and revision marks are stripped (`report.docx`,
`report (1).docx`, `Report-final-v2.docx`; a date in a name is part of what the file is, so
`rent-2024-03.pdf` and `rent-2024-04.pdf` are not versions) and most of its text.

Which copy stays is engine/gardener/keep.py's rule; each evidence line says whether trashing that
copy is certain enough to come ticked in a fix (`Evidence.confident`) and, if not, why."""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from itertools import chain

import numpy as np

from engine.gardener import images, resemble
from engine.gardener.inputs import FileInfo, Inputs
from engine.gardener.keep import (
    common_folder,
    copy_marked,
    folder_label,
    to_keep,
    transient_folder,
    why_removed,
)
from engine.gardener.model import SEVERITY, Evidence, Finding
from engine.gardener.similar import PAIR_BATCH, similar_pair_keys

# Suffixes people and programs add to a copy or a revision, stripped until none is left.
_VERSION_TAILS = re.compile(
    r"(?:\s*\(\d+\)|[\s_-]*(?:copy|kopie|copie)(?:\s*\d+)?|[\s_.-]*(?:final|draft|old|new|latest|rev\d*|"
    r"v\d+(?:\.\d+)*))$",
    re.IGNORECASE,
)
_COPY_OF = re.compile(r"^(?:copy of|kopie van)\s+", re.IGNORECASE)
_COPY_TAILS = re.compile(r"(?:\s*\(\d+\)|[\s_-]*(?:copy|kopie|copie|backup|bak)(?:\s*\d+)?)$", re.IGNORECASE)
VERSION_NEAR = 0.5  # resemblance two files of one name stem need to be versions of one document
SURE = 0.9  # resemblance above which trashing the copy comes ticked
STEM_GROUP = 30  # files of one stem compared by text even when their vectors are not close
Texts = Callable[[list[FileInfo]], dict[str, str]]


def version_stem(name: str) -> str:
    """The name with copy and revision marks removed: `Report-final-v2 (1).docx` → `report.docx`."""
    return _stripped(name, _VERSION_TAILS)


def copy_stem(name: str) -> str:
    """The name with only copy marks removed: `report v2 (1).docx` → `report v2.docx`."""
    return _stripped(name, _COPY_TAILS)


def _stripped(name: str, tails: re.Pattern[str]) -> str:
    stem, ext = os.path.splitext(name)
    stem = _COPY_OF.sub("", stem)
    while True:
        shorter = tails.sub("", stem)
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
            keep = to_keep(members)
            findings.append(
                Finding(
                    "duplicate",
                    SEVERITY["duplicate"],
                    f"{len(members)} identical copies of {keep.name}",
                    f"Same content (hash {members[0].hash[:12] if members[0].hash else ''}…, "
                    f"{members[0].size} bytes); keeping the filed copy in {folder_label(keep.path)}.",
                    _evidence(members, keep, {m.path: (1.0, True, "") for m in members}),
                    keep=keep.path,
                )
            )
    return findings


def similar_groups(inputs: Inputs, threshold: float, skip: set[str], texts: Texts) -> list[Finding]:
    """Near-duplicate and version findings: candidates from the stored vectors and from shared name
    stems, each confirmed by the extracted text; photos by their pixels. Files with equal hashes are
    left to `exact_duplicates`, and `skip` (the copies an exact-duplicate fix removes) is not counted
    twice.

    A group is a connected component of confirmed pairs, so a pair whose files one group already joins
    is not compared: a tight cluster of thousands of files (one template's series) confirms one pair a
    file instead of every pair, and the pairs are walked from the vector search's array of keys rather
    than held as objects (issue 30: 2,000 near-identical files had peaked at 1.08 GB and 32 s)."""
    keys = similar_pair_keys(inputs.vectors, threshold)
    stems = _stem_pairs(inputs)
    bodies = texts(_candidate_files(inputs, keys, stems))
    prepared = {p: resemble.prepare(t) for p, t in bodies.items()}
    group = _Groups()
    for a, b in chain(_vector_pairs(inputs, keys), stems):
        if (a.hash and a.hash == b.hash) or a.path in skip or b.path in skip or group.joined(a, b):
            continue
        ta, tb = prepared.get(a.path), prepared.get(b.path)
        if ta and tb and _linked(a, b, ta, tb):
            group.join(a, b)
    findings = [_text_finding(m, prepared) for m in group.members()]
    findings += _image_findings(inputs, skip)
    return sorted(findings, key=lambda f: f.evidence[0].path)


def _vector_pairs(inputs: Inputs, keys: np.ndarray) -> Iterator[tuple[FileInfo, FileInfo]]:
    """The files of each pair key (`i · n + j` over `inputs.vector_paths`), a batch of keys at a time."""
    n, paths, by_path = len(inputs.vector_paths), inputs.vector_paths, inputs.by_path
    for start in range(0, len(keys), PAIR_BATCH):
        for key in keys[start : start + PAIR_BATCH].tolist():
            yield by_path[paths[key // n]], by_path[paths[key % n]]


def _stem_pairs(inputs: Inputs) -> list[tuple[FileInfo, FileInfo]]:
    """Every pair of files sharing a name stem (a few versions of one document), compared by text even
    when their vectors are not close; a stem held by more than STEM_GROUP files is a series, not versions."""
    by_stem: dict[str, list[FileInfo]] = defaultdict(list)
    for f in inputs.files:
        if f.chunks and not images.is_image(f.name):
            by_stem[version_stem(f.name)].append(f)
    return [
        (a, b)
        for members in by_stem.values()
        if 1 < len(members) <= STEM_GROUP
        for k, a in enumerate(members)
        for b in members[k + 1 :]
    ]


def _candidate_files(
    inputs: Inputs, keys: np.ndarray, stems: list[tuple[FileInfo, FileInfo]]
) -> list[FileInfo]:
    """The files of every candidate pair, by path: the ones whose text is read."""
    n = len(inputs.vector_paths)
    rows: list[int] = np.unique(np.concatenate([keys // n, keys % n])).tolist() if len(keys) else []
    chosen = {inputs.vector_paths[i]: inputs.by_path[inputs.vector_paths[i]] for i in rows}
    chosen.update((f.path, f) for pair in stems for f in pair)
    return sorted(chosen.values(), key=lambda f: f.path)


class _Groups:
    """Union-find over the confirmed pairs: which files one group already joins, and the groups."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}
        self._info: dict[str, FileInfo] = {}

    def _find(self, p: str) -> str:
        parent = self._parent
        while parent.setdefault(p, p) != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    def joined(self, a: FileInfo, b: FileInfo) -> bool:
        return a.path in self._parent and b.path in self._parent and self._find(a.path) == self._find(b.path)

    def join(self, a: FileInfo, b: FileInfo) -> None:
        self._info[a.path], self._info[b.path] = a, b
        self._parent[self._find(a.path)] = self._find(b.path)

    def members(self) -> list[list[FileInfo]]:
        """Each group's files, by path, the groups in the order of their first path."""
        groups: dict[str, list[FileInfo]] = defaultdict(list)
        for path in sorted(self._info):
            groups[self._find(path)].append(self._info[path])
        return list(groups.values())


def _linked(a: FileInfo, b: FileInfo, ta: resemble.Text, tb: resemble.Text) -> bool:
    if version_stem(a.name) == version_stem(b.name):
        return bool(ta.words and tb.words) and resemble.resemblance(ta, tb) >= VERSION_NEAR
    return resemble.judge(ta, tb).same


def _text_finding(members: list[FileInfo], prepared: dict[str, resemble.Text]) -> Finding:
    """A version group when the names differ by revision marks (draft, v2, final), else copies."""
    versions = (
        len({version_stem(m.name) for m in members}) == 1 and len({copy_stem(m.name) for m in members}) > 1
    )
    keep = to_keep(members, newest=versions)
    judged = {}
    for m in members:
        a, b = prepared[keep.path], prepared[m.path]
        score = resemble.resemblance(a, b)
        judged[m.path] = (score, *_confidence(m, keep, (score, resemble.judge(a, b).same), versions))
    low = min(s for s, _, _ in judged.values())
    if versions:
        return Finding(
            "version",
            SEVERITY["version"],
            f"{len(members)} versions of {keep.name}",
            f"The names differ only by copy or revision marks and the texts share at least {low:.0%} of "
            f"their phrases; keeping {keep.name} in {folder_label(keep.path)}.",
            _evidence(members, keep, judged),
            keep=keep.path,
        )
    return Finding(
        "near_duplicate",
        SEVERITY["near_duplicate"],
        f"{len(members)} copies of one document like {keep.name}",
        f"The texts are the same document (at least {low:.0%} of their phrases shared, no figures "
        f"changed); keeping the filed copy in {folder_label(keep.path)}.",
        _evidence(members, keep, judged),
        keep=keep.path,
    )


def _confidence(
    m: FileInfo, keep: FileInfo, evidence: tuple[float, bool], versions: bool
) -> tuple[bool, str]:
    """Whether trashing `m` is certain enough to come ticked, and the words that say why (not): a copy
    marked as one (in Downloads, named "(1)") that is the same document as the one kept, a revision at
    `SURE`, or any copy at 0.97."""
    if m is keep:
        return True, ""
    score, same = evidence
    marked = transient_folder(m.path, common_folder([m, keep])) is not None or copy_marked(m.name)
    if score >= 0.97 or (marked and (score >= SURE if versions else same)):
        return True, f"{score:.0%} of the text shared; {why_removed(m, keep)}"
    what = "an older revision" if versions else "a close copy"
    return False, f"{what} sharing {score:.0%} of the text: check it before trashing"


def _image_findings(inputs: Inputs, skip: set[str]) -> list[Finding]:
    photos = [f for f in inputs.files if images.is_image(f.name) and f.path not in skip]
    if len(photos) < 2 or not images.available():
        return []
    printed = [(f, images.fingerprint(f.path, f.hash)) for f in photos]
    kept = [(f, p) for f, p in printed if p is not None]
    prints = [p for _, p in kept]
    group = _Groups()
    for i, j in sorted(images.candidate_pairs(prints)):
        (a, pa), (b, pb) = kept[i], kept[j]
        if not (a.hash and a.hash == b.hash) and not group.joined(a, b) and images.same_picture(pa, pb):
            group.join(a, b)
    by_path = {f.path: p for f, p in kept}
    findings = []
    for members in group.members():
        keep = to_keep(members)
        judged = {}
        for m in members:
            bits = images.distance(by_path[keep.path], by_path[m.path])
            sure = bits <= 1 and m is not keep
            why = f"the same picture ({bits} of 64 bits differ)" + (
                "" if sure else ": check it before trashing"
            )
            judged[m.path] = (1 - bits / 64, sure or m is keep, why)
        findings.append(
            Finding(
                "near_duplicate",
                SEVERITY["near_duplicate"],
                f"{len(members)} copies of one picture like {keep.name}",
                f"Their pixels match (a re-saved or resized copy); keeping the filed copy in "
                f"{folder_label(keep.path)}.",
                _evidence(members, keep, judged),
                keep=keep.path,
            )
        )
    return findings


def _evidence(
    members: list[FileInfo], keep: FileInfo, judged: dict[str, tuple[float, bool, str]]
) -> list[Evidence]:
    ordered = [keep] + sorted((m for m in members if m is not keep), key=lambda m: m.path)
    out = []
    for m in ordered:
        score, sure, why = judged[m.path]
        if m is keep:
            note = f"kept, in {folder_label(m.path)}"
        else:
            note = f"copy in {folder_label(m.path)}; {why or why_removed(m, keep)}"
        out.append(Evidence(m.path, m.size, m.modified, round(score, 4), note, sure))
    return out
