"""Shared setup for the action tests: a small real tree, a real SQLite file, and an in-memory index.

`MemoryIndex` implements the IndexSync protocol with plain dicts so the transaction logic can be
tested before (and independently of) the real indexer; the integration tests use the real Engine.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import paths
from engine.db import Database
from engine.roots import Roots
from engine.txn import MIGRATIONS, TxnService
from engine.txn.executor import Fault


class MemoryIndex:
    """Catalog rows keyed by path: sense, pinned flag and a chunk count; a list of queued paths."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.queued: list[tuple[str, int]] = []
        self.embedded = 0  # files (re-)indexed by drain(): what a real indexer would embed

    def add_tree(self, root: Path) -> None:
        for dirpath, _dirs, files in os.walk(root):
            for name in files:
                path = os.path.join(dirpath, name)
                self.rows[path] = {"sense": f"about {name}", "pinned": False, "chunks": 1 + len(name) % 3}

    def moved(self, old: str, new: str) -> None:
        for path in [p for p in self.rows if paths.is_within(p, old, fold_case=False)]:
            self.rows[paths.rebase(path, old, new)] = self.rows.pop(path)

    def deleted(self, path: str) -> None:
        for key in [p for p in self.rows if paths.is_within(p, path, fold_case=False)]:
            del self.rows[key]

    def sense_of(self, path: str) -> tuple[str | None, bool] | None:
        row = self.rows.get(path)
        return None if row is None else (row["sense"], row["pinned"])

    def pin_sense(self, path: str, sense: str) -> None:
        row = self.rows.setdefault(path, {"sense": None, "pinned": False, "chunks": 0})
        row.update(sense=sense, pinned=True)
        self.queued.append((path, 9))

    def restore_sense(self, path: str, sense: str | None, pinned: bool) -> None:
        if path in self.rows:
            self.rows[path].update(sense=sense, pinned=pinned)

    def enqueue(self, path: str, priority: int) -> None:
        self.queued.append((path, priority))

    def drain(self) -> None:
        """Index what was queued, like the real indexer: a file without a row gets one, a pinned one
        is re-embedded with its pinned sense; vanished paths are dropped."""
        for path, _priority in self.queued:
            if not os.path.isfile(path):
                continue
            if path not in self.rows:
                name = os.path.basename(path)
                self.rows[path] = {"sense": f"about {name}", "pinned": False, "chunks": 1 + len(name) % 3}
            self.embedded += 1
        self.queued.clear()

    def state(self) -> dict[str, dict[str, Any]]:
        return copy.deepcopy(self.rows)


def snapshot(*roots: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry under the roots: relative path → kind and, for files, bytes and mtime."""
    out: dict[str, tuple[Any, ...]] = {}
    for root in roots:
        for dirpath, dirs, files in os.walk(root):
            for name in dirs + files:
                full = os.path.join(dirpath, name)
                rel = os.path.join(root.name, os.path.relpath(full, root))
                if os.path.islink(full):
                    out[rel] = ("link", os.readlink(full))
                elif os.path.isdir(full):
                    out[rel] = ("dir",)
                else:
                    out[rel] = ("file", Path(full).read_bytes(), os.stat(full).st_mtime_ns)
    return out


def write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


@dataclass
class World:
    root: Path
    home: Path
    db: Database
    index: MemoryIndex
    roots: list[str]

    def service(self, fault: Fault | None = None, planner: Any = None) -> TxnService:
        return TxnService(
            self.db, self.home, Roots(lambda: list(self.roots)), self.index, planner, fault=fault
        )

    def trash_files(self) -> list[str]:
        """The items in the trash (their manifest files aside: see trash_manifests)."""
        trash = self.home / "trash"
        return (
            sorted(n for n in os.listdir(trash) if not n.endswith(".manifest.json")) if trash.exists() else []
        )

    def trash_manifests(self) -> list[str]:
        trash = self.home / "trash"
        return sorted(n for n in os.listdir(trash) if n.endswith(".manifest.json")) if trash.exists() else []


def make_world(tmp_path: Path, home: Path, files: dict[str, str], extra_roots: list[Path] = ()) -> World:
    root = tmp_path / "Docs"
    root.mkdir()
    write_tree(root, files)
    db = Database(home / "sensetree.db")
    db.migrate(MIGRATIONS)
    index = MemoryIndex()
    index.add_tree(root)
    for extra in extra_roots:
        index.add_tree(extra)
    return World(root, home, db, index, [str(root), *map(str, extra_roots)])


MIXED_FILES = {
    "invoice-acme.txt": "Invoice 42 from ACME, 120 EUR",
    "invoice-bolt.txt": "Invoice 7 from Bolt, 33 EUR",
    "notes.md": "# Notes\nbuy milk",
    "old/draft.txt": "an old draft nobody needs",
    "photos/cat.txt": "a cat",
    "photos/dog.txt": "a dog",
}


def mixed_plan(root: Path) -> list[dict[str, Any]]:
    """mkdir, moves into new folders (one creating parents), a folder move, rename, delete, requalify."""
    r = str(root)
    return [
        {"kind": "mkdir", "new_path": f"{r}/Finance", "reason": "group invoices"},
        {
            "kind": "move",
            "old_path": f"{r}/invoice-acme.txt",
            "new_path": f"{r}/Finance/acme.txt",
            "reason": "file",
        },
        {
            "kind": "move",
            "old_path": f"{r}/invoice-bolt.txt",
            "new_path": f"{r}/Finance/2024/Q1/bolt.txt",
            "reason": "by quarter",
        },
        {
            "kind": "move",
            "old_path": f"{r}/photos",
            "new_path": f"{r}/Media/photos",
            "reason": "media together",
        },
        {"kind": "rename", "old_path": f"{r}/notes.md", "new_path": f"{r}/shopping.md", "reason": "clearer"},
        {"kind": "delete", "old_path": f"{r}/old", "reason": "obsolete"},
        {
            "kind": "requalify",
            "old_path": f"{r}/Finance/acme.txt",
            "new_summary": "[invoice] ACME invoice 42",
            "reason": "sharper",
        },
    ]
