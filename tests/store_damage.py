"""Damage to the data folder, case by case: every file truncated, garbled, zeroed or deleted, then a start
and a search (issue 31, N1). Shared by tests/test_store_fuzz.py (a seeded sample) and bench/store_fuzz.py
(every case, ≥ 100, each start in a child process so that even an abort counts as a dead start).

A case is (file relative to the data folder, kind of damage, seed). The data folder is built once per run:
the SAMPLE folder indexed, one file edited and re-indexed (more LanceDB versions), the path B-tree built,
and one file deleted into SenseTree's trash (a trash item and its manifest).
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.indexing.helpers import SAMPLE, make_engine, write_docs

KINDS = ("truncate", "garble", "zero", "delete")
TRAVEL = "notes/travel.txt"
QUERY = "Lisbon Alfama"
CATALOG = "sensetree.db"


@dataclass(frozen=True)
class Case:
    file: str  # relative to the data folder
    kind: str
    seed: int

    def __str__(self) -> str:
        return f"{self.kind} {self.file} (seed {self.seed})"


def build_home(base: Path) -> tuple[Path, Path]:
    """An indexed data folder and its root under `base`: (home, root)."""
    root = write_docs(base / "Docs", SAMPLE)
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    engine = make_engine(home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        (root / "recipes/bread.txt").write_text("Rye bread: 400 g rye flour, bake long and slow.")
        engine.reindex_path(str(root / "recipes/bread.txt"))
        engine.parts.index.drain()
        engine.parts.vectors.optimize()
        plan = engine.parts.txn.propose_plan(
            "Clean up", [{"kind": "delete", "old_path": str(root / "invoices")}]
        )
        engine.apply_action_plan(plan["transaction_id"])
    finally:
        engine.running.close()
    return home, root


def data_files(home: Path) -> list[str]:
    """Every file of the data folder, relative, sorted (the log is not damage a start must survive)."""
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and p.suffix != ".log")


def all_cases(home: Path, seed: int = 0) -> list[Case]:
    pairs = [(f, kind) for f in data_files(home) for kind in KINDS]
    return [Case(f, kind, seed + i) for i, (f, kind) in enumerate(pairs)]


def sample(cases: list[Case], count: int, seed: int) -> list[Case]:
    """`count` cases drawn with `seed`, always including damage to the newest LanceDB manifest."""
    manifests = [c for c in cases if c.file == newest_manifest_of(cases) and c.kind == "garble"]
    rest = [c for c in cases if c not in manifests]
    return manifests + random.Random(seed).sample(rest, max(0, min(count - len(manifests), len(rest))))


def newest_manifest_of(cases: list[Case]) -> str:
    """LanceDB names version v's manifest `u64::MAX - v`: the newest sorts first."""
    return min((c.file for c in cases if c.file.endswith(".manifest")), default="")


def newest_manifest(home: Path) -> Path:
    return min((home / "vectors").rglob("_versions/*.manifest"), key=lambda p: p.name)


def garble_third(path: Path, rng: random.Random) -> None:
    """A third of the file overwritten with random bytes at a random place (the damage of finding N1)."""
    raw = bytearray(path.read_bytes())
    third = max(1, len(raw) // 3)
    start = rng.randrange(0, max(1, len(raw) - third + 1))
    raw[start : start + third] = rng.randbytes(third)
    path.write_bytes(bytes(raw))


def damage(path: Path, kind: str, rng: random.Random) -> None:
    if kind == "delete":
        path.unlink()
    elif kind == "truncate":
        size = path.stat().st_size
        with open(path, "r+b") as handle:
            handle.truncate(rng.randrange(0, size) if size else 0)
    elif kind == "zero":
        path.write_bytes(bytes(path.stat().st_size))
    elif kind == "garble":
        garble_third(path, rng)
    else:
        raise ValueError(kind)


def damaged_copy(pristine: Path, work: Path, case: Case) -> Path:
    """A fresh copy of the pristine data folder with the case's damage done to it."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(pristine, work)
    damage(work / case.file, case.kind, random.Random(case.seed))
    return work


def start_and_search(home: Path, root: Path, at_once: bool = True) -> str | None:
    """Start the engine on a damaged data folder, search, let it heal, search again: None when all of it
    held, else what went wrong. Any exception is a dead start. `at_once`: the first search, before any
    healing, must find the file already (whatever store is whole answers; not so when the catalog, which
    vouches for every store's rows, was lost)."""
    try:
        engine = make_engine(home)
    except BaseException as exc:  # a Rust panic is a BaseException: it must count, not end the run
        return f"dead start: {type(exc).__name__}: {_line(exc)}"
    try:
        problem = _search_and_heal(engine, root, at_once)
    except BaseException as exc:
        problem = f"search failed: {type(exc).__name__}: {_line(exc)}"
    try:
        engine.running.close()
    except BaseException as exc:
        problem = problem or f"close failed: {type(exc).__name__}: {_line(exc)}"
    return problem


def _search_and_heal(engine, root: Path, at_once: bool) -> str | None:
    for moment in ("at once", "after healing"):
        hits = engine.semantic_search(QUERY)
        if (at_once or moment != "at once") and (not hits or hits[0].path != str(root / TRAVEL)):
            return f"search {moment} found {[h.path for h in hits][:3]}"
        engine.parts.index.drain()
        engine.parts.index.maintenance()
    return None


def _line(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:300] if str(exc) else ""


def run_case(pristine: Path, work: Path, root: Path, case: Case) -> str | None:
    return start_and_search(damaged_copy(pristine, work, case), root, at_once=case.file != CATALOG)


__all__ = ["KINDS", "Case", "all_cases", "build_home", "damage", "garble_third", "run_case", "sample"]
