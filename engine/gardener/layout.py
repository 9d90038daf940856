"""The checks that need the folder tree as it is on disk, not as indexed: junk drawers (more than
`clutter_files` files directly in one folder), nesting deeper than `max_depth`, and empty folders.

The tree comes from the one folder listing (`Roots.listing`, breadth-first, capped at the entries
limit); the Gardener never walks the disk itself. Folders the crawler skips (`node_modules`, `.git`,
virtualenvs…) are left out. When the cap stops the listing, empty folders are not reported: a folder
whose children were not reached would look empty.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.gardener.inputs import parent
from engine.gardener.model import SEVERITY, Evidence, Finding
from engine.indexing.crawl import is_junk_file_name, is_skipped_dir_name

MAX_LEVELS = 64


class EntryLike(Protocol):
    @property
    def path(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def is_dir(self) -> bool: ...
    @property
    def size(self) -> int | None: ...
    @property
    def modified(self) -> float | None: ...


class Lister(Protocol):
    def listing(
        self, folder: str, *, depth: int = 1, limit: int = 200, hidden: bool = False
    ) -> Sequence[EntryLike]: ...


@dataclass(frozen=True)
class Tree:
    folder: str
    entries: list[EntryLike]
    truncated: bool


def read_tree(lister: Lister, folder: str, limit: int) -> Tree:
    """The listing under `folder` (≤ `limit` entries), without what lies in (or is) a folder the crawler
    skips. The listing is breadth-first, so a folder always comes before its contents: one pass that
    remembers the skipped folders decides every entry from its parent, with no path arithmetic."""
    entries = list(lister.listing(folder, depth=MAX_LEVELS, limit=limit + 1))
    truncated = len(entries) > limit
    skipped: set[str] = set()
    kept = []
    for e in entries[:limit]:
        if parent(e.path) in skipped or (e.is_dir and is_skipped_dir_name(e.name)):
            if e.is_dir:
                skipped.add(e.path)
            continue
        kept.append(e)
    return Tree(folder, kept, truncated)


def _level(tree: Tree, path: str) -> int:
    return len(os.path.relpath(path, tree.folder).split(os.sep))


def clutter(tree: Tree, max_files: int) -> list[Finding]:
    counts = Counter(parent(e.path) for e in tree.entries if not e.is_dir and not is_junk_file_name(e.name))
    return [
        Finding(
            "clutter",
            SEVERITY["clutter"],
            f"{os.path.basename(folder) or folder} holds {n} loose files",
            f"{n} files sit directly in this folder (more than {max_files}); grouping them into subfolders "
            f"by kind makes them findable.",
            [Evidence(folder, None, None, float(n), f"{n} files directly inside")],
        )
        for folder, n in sorted(counts.items())
        if n > max_files
    ]


def too_deep(tree: Tree, max_depth: int) -> list[Finding]:
    """One finding per folder that starts the excess (at level `max_depth + 1`), with how deep it goes."""
    deepest: dict[str, int] = {}
    for e in tree.entries:
        if not e.is_dir:
            continue
        level = _level(tree, e.path)
        if level > max_depth:
            parts = os.path.relpath(e.path, tree.folder).split(os.sep)
            top = os.path.join(tree.folder, *parts[: max_depth + 1])
            deepest[top] = max(deepest.get(top, 0), level)
    return [
        Finding(
            "depth",
            SEVERITY["depth"],
            f"{os.path.basename(top)} is nested {max_depth + 1} levels deep",
            f"Folders go {level} levels below {tree.folder} here (more than {max_depth}); deep trees hide "
            f"files from browsing.",
            [Evidence(top, None, None, float(level), f"{level} levels deep")],
        )
        for top, level in sorted(deepest.items())
    ]


def empty_folders(tree: Tree, lister: Lister) -> list[Finding]:
    if tree.truncated:
        return []
    parents = {parent(e.path) for e in tree.entries}
    found = []
    for e in tree.entries:
        if e.is_dir and e.path not in parents and not lister.listing(e.path, limit=1, hidden=True):
            found.append(
                Finding(
                    "empty_folder",
                    SEVERITY["empty_folder"],
                    f"{e.name} is empty",
                    "The folder holds nothing, not even hidden files.",
                    [Evidence(e.path, None, e.modified, None, "empty")],
                )
            )
    return found
