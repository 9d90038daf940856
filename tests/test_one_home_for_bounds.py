"""Grep-level guards for issue 14: the bounds rule and the folder listing each live in engine/roots.py.

The rule had five copies and the listing four, and the copies disagreed. These tests read the source
(AST, not text, so comments and docstrings do not count) and fail when a copy comes back: a module
other than the ones named below calling `is_within`/`find_root`, or listing a folder itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = [*sorted((REPO / "engine").rglob("*.py")), *sorted((REPO / "bridge").rglob("*.py"))]
SOURCES += [*sorted((REPO / "cli").rglob("*.py")), REPO / "app.py"]

# Who may still call the segment-containment primitives, and why that is not a bounds check.
CONTAINMENT_ALLOWED = {
    "engine/roots.py": "the bounds rule itself",
    "engine/paths.py": "defines is_within and find_root",
    "engine/indexing/crawl.py": "the crawler: what under a root it walks and skips",
    "engine/indexing/watch.py": "the watcher maps file events to the root they belong to",
    "engine/indexing/indexer.py": "the root of a job (its skip rules)",
    "engine/indexing/store_sync.py": "the root a moved or queued file lands in; the files of a removed root",
    "engine/indexing/repair.py": "start-up purge over stored, normalised catalog paths (no stat per row)",
    "engine/indexing/reembed.py": "subtree geometry: the files under a moved folder",
    "engine/indexing/shadow.py": "subtree geometry: the shadow index's files under a moved folder",
    "engine/indexing/folder_checks.py": "what may become a root: mount points and the data folder",
    "engine/txn/validate.py": "subtree geometry of a plan (a move into itself), after Roots decided bounds",
    "engine/txn/service.py": "subtree geometry of the steps a transaction ran",
    "engine/txn/sync.py": "subtree geometry of the index update after a move",
    "engine/stores.py": "which stored roots nest inside others",
    "app.py": "the status command groups failed files under their root for display",
}
# Who may read a folder's children: the one listing, and the crawler.
LISTING_ALLOWED = {"engine/roots.py", "engine/indexing/crawl.py", "engine/indexing/scan.py"}
# Walks of trees that are not listings for anyone: a subtree already in bounds, or the data folder.
WALK_ALLOWED = {
    "engine/txn/sync.py": "the files under a folder a transaction moved",
    "engine/txn/fsops.py": "copy-verify of a folder moved across devices",
    "engine/txn/trash.py": "the size of what goes to the trash; the trash manifests",
    "engine/txn/journal_file.py": "the transaction journals in the data folder",
    "engine/privacy.py": "making the data folder private (it lists the data folder, never a root)",
    "engine/retrieval/lance_calls.py": "a damaged vector table's old manifests (data folder)",
}


def _calls(path: Path) -> list[tuple[str, int]]:
    """(dotted name of the callee, line) for every call in the module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                found.append((func.id, node.lineno))
            elif isinstance(func, ast.Attribute):
                found.append((f".{func.attr}", node.lineno))  # a method, on whatever object
                if isinstance(func.value, ast.Name):
                    found.append((f"{func.value.id}.{func.attr}", node.lineno))
    return found


def _offenders(names: set[str], allowed: set[str] | dict[str, str]) -> list[str]:
    hits = []
    for path in SOURCES:
        rel = path.relative_to(REPO).as_posix()
        if rel in allowed:
            continue
        hits += [f"{rel}:{line} calls {name}" for name, line in _calls(path) if name in names]
    return hits


def test_no_module_outside_roots_decides_bounds_with_is_within_or_find_root():
    primitives = {"is_within", "paths.is_within", "find_root", "paths.find_root"}
    assert _offenders(primitives, CONTAINMENT_ALLOWED) == []


def test_the_agent_the_bridge_and_the_engine_facade_hold_no_containment_logic_at_all():
    for rel in ("engine/engine.py", "engine/agent_adapter.py"):
        assert rel not in CONTAINMENT_ALLOWED
    assert not any(rel.startswith(("engine/agent/", "bridge/", "cli/")) for rel in CONTAINMENT_ALLOWED)
    assert not (REPO / "engine" / "agent" / "bounds.py").exists()


def test_the_deleted_copies_stay_deleted():
    gone = {"require_in_roots", "_bounded_target", "Bounds"}
    defined = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in gone:
                defined.append(f"{path.relative_to(REPO)}:{node.lineno} defines {node.name}")
    assert defined == []


def test_no_module_outside_roots_and_the_crawler_lists_a_folder():
    listers = {"os.scandir", "os.listdir", "scandir", "listdir", ".iterdir"}
    assert _offenders(listers, LISTING_ALLOWED | {"engine/privacy.py"}) == []


def test_tree_walks_happen_only_where_named():
    walkers = {"os.walk", ".glob", ".rglob"}
    assert _offenders(walkers, LISTING_ALLOWED | set(WALK_ALLOWED) | {"engine/privacy.py"}) == []
