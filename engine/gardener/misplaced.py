"""Misplaced files: a file whose stored sense vector (chunk #0) fits another folder's theme as well as
the files filed there do, and fits its own folder clearly worse than the files filed with it
(issue 29: a passport form "belonged with" rent receipts at similarity 0.33).

Every figure is leave-one-out (a file cannot vouch for itself) and relative to the folders themselves,
so it holds on tight and on loose folders alike: a folder's *typical fit* is the median similarity of
its files to the centroid of the others. A file is misplaced when

* its similarity to the other folder is at least `min_cosine` and within `margin` of that folder's
  typical fit (it fits there about as well as the files filed there), and that folder has a theme: its
  typical fit is at least `min_cosine` too (the average of a catch-all folder — a cv, a lease and a poem
  side by side in Documents/ — is near everything a little and the theme of nothing);
* it beats its own folder's fit by `margin`, and its own fit is `margin` below its folder's typical fit
  — unless it sits in a transient place (Downloads, Desktop…), which has no theme to fit and is never
  a destination;
* it fits that folder clearly better than any third one: `distinct` above the runner-up (a ratio test:
  a shopping list that fits Taxes at 0.31 and Travel at 0.28 fits nowhere in particular, while a
  recipe misfiled in Taxes fits Recipes 0.2 or more above anything else);
* it has extracted text (a name-only file's vector says nothing about where it belongs), and it is not
  a copy a duplicate fix trashes.

The finding names the other folder's theme (the words its file names share). A move comes ticked only
when the file sits in a transient place (Downloads, Desktop…) or the evidence is twice the margin."""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict

import numpy as np

from engine.gardener.images import is_image
from engine.gardener.inputs import Inputs
from engine.gardener.keep import folder_label, transient_folder
from engine.gardener.model import SEVERITY, Evidence, Finding

MIN_FOLDER = 3
BLOCK = 4096  # files scored against every centroid at once
# How much better the destination must fit than the next folder. `bench/gardener.py judge` prints the
# gaps of the candidates without this bar: on calibration seeds 0-1 the wrong ones came within 0.05 of
# the runner-up, the right ones 0.15 or more above it.
DISTINCT = 0.1
NAME_ONLY = frozenset({"binary", "folder", None})  # descriptors say where a file is, not what about
NONE = -2.0  # below any cosine: no such folder
Ranked = tuple[np.ndarray, np.ndarray]  # per file: a folder's index and the file's similarity to it


def misplaced(
    inputs: Inputs,
    margin: float,
    min_cosine: float,
    copies: frozenset[str] | set[str] = frozenset(),
    distinct: float = DISTINCT,
) -> list[Finding]:
    """`copies` (the copies a duplicate fix trashes) are not proposed for a move."""
    rows_of: dict[str, list[int]] = defaultdict(list)
    for row, path in enumerate(inputs.vector_paths):
        info = inputs.by_path[path]
        if info.doc_type not in NAME_ONLY and not is_image(info.name):
            rows_of[info.folder].append(row)
    base = os.path.commonpath(list(rows_of)) if rows_of else ""
    # A transient place (Downloads, Desktop) is no theme: its files are scored, never moved into it.
    loose = {f for f in rows_of if transient_folder(os.path.join(f, "x"), base) is not None}
    homes = sorted(f for f, rows in rows_of.items() if len(rows) >= MIN_FOLDER and f not in loose)
    folders = homes + sorted(loose)
    if not homes:
        return []
    rows = np.array([r for f in folders for r in rows_of[f]])
    owns = np.array([k for k, f in enumerate(folders) for _ in rows_of[f]])
    own, (best, other), (runner, next_) = _scores(inputs.vectors, rows, owns, folders, rows_of, len(homes))
    typical = np.array([np.median(own[owns == k]) if k < len(homes) else 1.0 for k in range(len(folders))])
    filed = owns < len(homes)
    flagged = (
        (other >= np.maximum(min_cosine, typical[best] - margin))
        & (typical[best] >= min_cosine)
        & (other - next_ >= distinct)
        & (~filed | ((other - own >= margin) & (own <= typical[owns] - margin)))
    )
    findings = []
    for k in np.flatnonzero(flagged).tolist():
        if inputs.vector_paths[rows[k]] in copies:
            continue
        target = folders[best[k]]
        theme = _theme([inputs.by_path[inputs.vector_paths[r]].name for r in rows_of[target]])
        where = (folders[owns[k]], target, folders[runner[k]] if next_[k] > NONE else None, base)
        scores = (float(own[k]), float(other[k]), float(next_[k]))
        findings.append(_finding(inputs, int(rows[k]), where, scores, theme, margin))
    return sorted(findings, key=lambda f: f.evidence[0].path)


def _scores(
    vectors: np.ndarray,
    rows: np.ndarray,
    owns: np.ndarray,
    folders: list[str],
    rows_of: dict[str, list[int]],
    homes: int,
) -> tuple[np.ndarray, Ranked, Ranked]:
    """Per file: its leave-one-out similarity to its own folder; the best other of the first `homes`
    folders (the others are transient places, never a destination) and the runner-up, with their
    scores (`NONE` when there is no such folder)."""
    sums = np.stack([vectors[rows_of[f]].sum(axis=0) for f in folders])
    centroids = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-9)
    own_all, ranked = [], []
    for start in range(0, len(rows), BLOCK):
        block, own_k = rows[start : start + BLOCK], owns[start : start + BLOCK]
        v = vectors[block]
        scores = v @ centroids.T  # each file against every centroid
        dot = np.einsum("ij,ij->i", v, sums[own_k])  # v · S_own
        vv = (v**2).sum(axis=1)
        rest_norm = np.sqrt(np.maximum((sums[own_k] ** 2).sum(axis=1) - 2 * dot + vv, 1e-18))
        own_all.append((dot - vv) / rest_norm)  # v · (S_own − v) / |S_own − v|: without itself
        scores[np.arange(len(block)), own_k] = NONE
        scores[:, homes:] = NONE
        at = np.arange(len(block))
        best = np.argmax(scores, axis=1)
        other = scores[at, best].copy()
        scores[at, best] = NONE
        runner = np.argmax(scores, axis=1)
        ranked.append((best, other, runner, scores[at, runner]))
    best, other, runner, next_ = (np.concatenate(column) for column in zip(*ranked, strict=True))
    return np.concatenate(own_all), (best, other), (runner, next_)


_WORD = re.compile(r"[^\W\d_]{3,}")
_COMMON = frozenset("the and for with from final copy draft new old scan file document notes note".split())


def _theme(names: list[str]) -> list[str]:
    """The words a folder's file names share most (at least two files each), up to three."""
    counts: Counter[str] = Counter()
    for name in names:
        counts.update({w.casefold() for w in _WORD.findall(os.path.splitext(name)[0])} - _COMMON)
    return [w for w, n in counts.most_common(3) if n >= 2]


def _finding(
    inputs: Inputs,
    row: int,
    where: tuple[str, str, str | None, str],
    scores: tuple[float, float, float],
    theme: list[str],
    margin: float,
) -> Finding:
    """`where`: its folder, the folder it belongs with, the runner-up (None without one), the folder
    checked; `scores`: own fit, other fit, the runner-up's fit."""
    (folder, target, runner, base), (own, other, next_) = where, scores
    info = inputs.by_path[inputs.vector_paths[row]]
    about = f" ({', '.join(theme)})" if theme else ""
    loose = transient_folder(info.path, base)
    sure = loose is not None or other - own >= 2 * margin
    place = (
        f"sits in {loose}, a place for things on their way"
        if loose
        else f"fits the other files in {os.path.basename(folder) or folder} much less ({own:.3f})"
    )
    rival = (
        f", clearly better than the next folder, {os.path.basename(runner)} ({next_:.3f})," if runner else ""
    )
    evidence = [
        Evidence(
            info.path,
            info.size,
            info.modified,
            round(own, 4),
            f"similarity to {folder_label(info.path)}",
            sure,
        ),
        Evidence(target, None, None, round(other, 4), "the folder it belongs with"),
    ]
    if runner:
        evidence.append(Evidence(runner, None, None, round(next_, 4), "the next closest folder"))
    return Finding(
        "misplaced",
        SEVERITY["misplaced"],
        f"{info.name} belongs with {os.path.basename(target) or target}",
        f"It fits the files in {os.path.basename(target)}{about} as well as they fit together (similarity "
        f"{other:.3f}){rival} and {place}.",
        evidence,
        target=target,
    )
