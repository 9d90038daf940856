"""The Gardener's judgement measured where a person meets it (issue 29): precision and recall per finding
kind, and of each fix's *ticked* operations, on labelled folders indexed by the real Engine (packaged
MiniLM, extractive senses: no reasoning model), through `analyze_directory` and `propose_gardener_fix`.

Two kinds of data:
* `personal`: bench/personal_folder (a different person per seed: series of one template, journal days,
  photos, versions, copies in Downloads, bad and conventional names, misfiled papers);
* `scifact`: bench/gardener_set (SciFact abstracts with an edited copy, a re-saved PDF and a "(1)" copy).

Duplicate kinds are scored on pairs: a pair a finding groups is right when both files are one document
(in one labelled exact, near-duplicate or version group); a labelled pair is recalled when any duplicate
finding groups it. A ticked trash is right when the file is a labelled copy and not the copy to keep.
Series pairs grouped as duplicates are counted apart (they must be 0). Prints; never asserts.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

DUPLICATE_KINDS = ("duplicate", "near_duplicate", "version")
FIX_KINDS = ("duplicate", "near_duplicate", "version", "misplaced", "unhelpful_name")


@dataclass
class Truth:
    """Labels as absolute paths."""

    groups: dict[str, list[tuple[frozenset[str], str | None]]]  # kind → [(paths, keep)]
    series: list[frozenset[str]] = field(default_factory=list)
    unhelpful: frozenset[str] = frozenset()
    conventional: frozenset[str] = frozenset()
    misplaced: dict[str, str] = field(default_factory=dict)

    def same(self) -> set[frozenset[str]]:
        return {
            frozenset(p) for gs in self.groups.values() for paths, _ in gs for p in combinations(paths, 2)
        }

    def copies(self) -> dict[str, str | None]:
        """Every labelled copy → the file to keep of its group (the keep itself maps to None)."""
        out: dict[str, str | None] = {}
        for gs in self.groups.values():
            for paths, keep in gs:
                for p in paths:
                    out.setdefault(p, None if p == keep else keep)
        return out


@dataclass
class Tally:
    hit: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.hit += ok
        self.total += 1

    def __str__(self) -> str:
        return f"{self.hit / self.total:.3f} ({self.hit}/{self.total})" if self.total else "  —  (0/0)"


@dataclass
class Scores:
    precision: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    recall: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    ticked: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    unticked: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    series_grouped: int = 0
    conventional_flagged: int = 0
    wrong: list[str] = field(default_factory=list)  # the false positives and misses, to read
    gaps: list[tuple[float, bool]] = field(default_factory=list)  # misplaced candidates: (gap, right)

    def note(self, tally: Tally, ok: bool, line: str) -> None:
        """Count one judgement; keep the line of a wrong one."""
        tally.add(ok)
        if not ok:
            self.wrong.append(line)

    def merge(self, other: Scores) -> None:
        for mine, theirs in (
            (self.precision, other.precision),
            (self.recall, other.recall),
            (self.ticked, other.ticked),
        ):
            for k, t in theirs.items():
                mine[k].hit += t.hit
                mine[k].total += t.total
        for k, n in other.unticked.items():
            self.unticked[k] += n
        self.series_grouped += other.series_grouped
        self.wrong += other.wrong
        self.gaps += other.gaps
        self.conventional_flagged += other.conventional_flagged


def index(folder: Path, home: Path):  # -> Engine
    from engine.engine import Engine

    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text('{"indexing": {"qualify_with_model": false}}')
    engine = Engine(home)
    engine.add_indexed_folder(str(folder))
    engine.parts.index.drain()
    return engine


def score(engine, folder: Path, truth: Truth) -> Scores:
    report = engine.analyze_directory(str(folder))
    s = Scores()
    _score_duplicates(report.findings, truth, folder, s)
    flagged = {f.paths[0] for f in report.findings if f.kind == "unhelpful_name"}
    for p in flagged:
        s.note(s.precision["unhelpful_name"], p in truth.unhelpful, f"unhelpful name: {_short(p, folder)}")
    for p in truth.unhelpful:
        s.note(s.recall["unhelpful_name"], p in flagged, f"missed unhelpful name: {_short(p, folder)}")
    s.conventional_flagged = len(flagged & truth.conventional)
    moved = {f.paths[0]: f for f in report.findings if f.kind == "misplaced"}
    for p, f in moved.items():
        line = f"misplaced: {_short(p, folder)} → {_short(f.target, folder)}: {f.why}"
        s.note(s.precision["misplaced"], truth.misplaced.get(p) == f.target, line)
    for p, target in truth.misplaced.items():
        ok = p in moved and moved[p].target == target
        s.note(s.recall["misplaced"], ok, f"missed misplaced: {_short(p, folder)} → {_short(target, folder)}")
    s.gaps = misplaced_gaps(engine, folder, report.findings, truth)
    for kind in FIX_KINDS:
        if report.counts.get(kind):
            _score_fix(engine.propose_gardener_fix(str(folder), kind).operations, kind, (truth, folder), s)
    return s


def misplaced_gaps(engine, folder: Path, findings: list, truth: Truth) -> list[tuple[float, bool]]:
    """The calibration of `misplaced.DISTINCT`: every move the rule would propose without that bar, as
    (how much better its destination fits than the next folder, whether the move is right)."""
    from engine.gardener import misplaced
    from engine.gardener.inputs import read_catalog, with_vectors

    s = engine.running.settings.gardener
    files = read_catalog(engine.parts.index.catalog, str(folder), s.max_entries).files
    copies = {p for f in findings if f.kind in DUPLICATE_KINDS for p in f.paths if p != f.keep}
    inputs = with_vectors(files, engine.parts.vectors, str(folder))
    found = misplaced.misplaced(inputs, s.misplaced_margin, s.misplaced_min_cosine, copies, distinct=0.0)
    return [
        (
            f.evidence[1].score - (f.evidence[2].score if len(f.evidence) > 2 else -1.0),
            truth.misplaced.get(f.paths[0]) == f.target,
        )
        for f in found
    ]


def _score_duplicates(findings: list, truth: Truth, folder: Path, s: Scores) -> None:
    same = truth.same()
    grouped: set[frozenset[str]] = set()
    for f in findings:
        if f.kind in DUPLICATE_KINDS:
            for a, b in combinations(f.paths, 2):
                line = f"{f.kind}: {_short(a, folder)} ~ {_short(b, folder)}"
                s.note(s.precision[f.kind], frozenset((a, b)) in same, line)
                grouped.add(frozenset((a, b)))
    for kind, gs in truth.groups.items():
        for paths, _ in gs:
            for a, b in combinations(paths, 2):
                line = f"missed {kind}: {_short(a, folder)} ~ {_short(b, folder)}"
                s.note(s.recall[kind], frozenset((a, b)) in grouped, line)
    s.series_grouped = sum(frozenset(p) in grouped for g in truth.series for p in combinations(g, 2))


def _score_fix(operations: Iterable, kind: str, labelled: tuple[Truth, Path], s: Scores) -> None:
    truth, folder = labelled
    copies = truth.copies()
    for op in operations:
        if not getattr(op, "ticked", True):  # main's code ticks every line
            s.unticked[kind] += 1
            continue
        if op.kind == "delete":
            ok = op.old_path in copies and copies[op.old_path] is not None
        elif op.kind == "move":
            ok = truth.misplaced.get(op.old_path) == os.path.dirname(op.new_path)
        elif op.kind == "rename":
            ok = op.old_path in truth.unhelpful
        else:
            continue
        line = f"ticked {kind}: {op.kind} {_short(op.old_path, folder)} → {_short(op.new_path, folder)}"
        s.note(s.ticked[kind], ok, line)


def _short(path: str | None, folder: Path) -> str:
    return os.path.relpath(path, folder) if path else "?"


def personal_truth(folder, root: Path) -> Truth:
    g = folder.garden

    def ab(p: str) -> str:
        return str(root / p)

    def groups(gs) -> list[tuple[frozenset[str], str | None]]:
        return [(frozenset(ab(p) for p in x.paths), ab(x.keep) if x.keep else None) for x in gs]

    return Truth(
        {
            "duplicate": groups(g.exact_duplicates),
            "near_duplicate": groups(g.near_duplicates),
            "version": groups(g.versions),
        },
        [frozenset(ab(p) for p in x.paths) for x in g.series],
        frozenset(ab(p) for p in g.unhelpful_names),
        frozenset(ab(p) for p in g.conventional_names),
        {ab(p): ab(t) for p, t in g.misplaced.items()},
    )


def run_personal(seeds: list[int], size: str) -> dict[int, Scores]:
    from personal_folder import build

    out = {}
    for seed in seeds:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(os.path.realpath(tmp)) / "Home"
            built = build(root, seed, size)
            started = time.perf_counter()
            engine = index(root, Path(tmp) / "sensetree")
            try:
                out[seed] = score(engine, root, personal_truth(built, root))
            finally:
                engine.running.close()
            print(
                f"seed {seed}: {len(built.files)} files indexed and judged "
                f"in {time.perf_counter() - started:.0f} s"
            )
    return out


def run_scifact(data: Path, bases: int, distractors: int) -> Scores:
    from _common import load_beir
    from gardener_set import write_set

    beir = load_beir(data, "train")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(os.path.realpath(tmp)) / "Set"
        labelled = write_set(folder, beir.corpus, bases, distractors)
        family: dict[int, set[str]] = defaultdict(set)
        for path, base in labelled.files.items():
            if base >= 0:
                family[base].add(path)
        keep = {b: next(p for p in ps if "/papers/" in p) for b, ps in family.items()}
        truth = Truth({"near_duplicate": [(frozenset(ps), keep[b]) for b, ps in family.items()]})
        engine = index(folder, Path(tmp) / "sensetree")
        try:
            return score(engine, folder, truth)
        finally:
            engine.running.close()


def table(title: str, s: Scores, wrong: bool = True) -> None:
    """`wrong`: also list the false positives and misses (per seed; the pooled tables leave them out)."""
    print(f"\n{title}")
    print(f"  {'kind':15} {'precision':>16} {'recall':>16} {'ticked precision':>18} {'unticked':>8}")
    for kind in FIX_KINDS:
        print(
            f"  {kind:15} {s.precision[kind]!s:>16} {s.recall[kind]!s:>16} {s.ticked[kind]!s:>18} "
            f"{s.unticked.get(kind, 0):>8}"
        )
    print(
        f"  series pairs grouped as duplicates: {s.series_grouped}; conventional names flagged: "
        f"{s.conventional_flagged}"
    )
    right = sorted(g for g, ok in s.gaps if ok)
    wrong_gaps = sorted((g for g, ok in s.gaps if not ok), reverse=True)
    print(
        f"  misplaced without the distinctness bar (gap to the next folder): {len(right)} right, the "
        f"smallest gaps {', '.join(f'{g:.3f}' for g in right[:3]) or '—'}; {len(wrong_gaps)} wrong, the "
        f"largest {', '.join(f'{g:.3f}' for g in wrong_gaps[:3]) or '—'}"
    )
    for line in s.wrong if wrong else []:
        print(f"  {line}" if line.startswith("missed") else f"  wrong: {line}")
