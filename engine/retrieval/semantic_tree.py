"""The meaning map: a relevance heat map of the folder tree for one query.

Each file scores its best search score; a folder scores the maximum of its descendants; children are
sorted by score, so the branches that matter come first and a person can see *where* in their tree a
topic lives. Only folders on the way to a hit appear. A pure function of the hits, so it is tested
without a database."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

ALL_FOLDERS = "All folders"
MAP_LIMIT = 200  # files a map holds at most


@dataclass
class TreeNode:
    name: str
    path: str
    is_dir: bool
    score: float
    size: int = 0  # bytes of the files beneath (a treemap's area)
    children: list[TreeNode] = field(default_factory=list)


def build_tree(
    hits: Iterable[tuple[str, float]], bases: list[str], sizes: Mapping[str, int | None] | None = None
) -> TreeNode | None:
    """The tree of `hits` (path, score) under `bases` (the scope, or the roots); None without a hit.
    A hit outside every base is ignored. With several bases holding hits, a virtual node joins them."""
    sizes = sizes or {}
    best: dict[str, float] = {}
    for path, score in hits:
        if score > best.get(path, float("-inf")):
            best[path] = score
    roots = [_subtree(base, best, sizes) for base in sorted(set(bases), key=len, reverse=True)]
    found = [r for r in roots if r is not None]
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    found.sort(key=lambda n: -n.score)
    return TreeNode(ALL_FOLDERS, "", True, found[0].score, sum(n.size for n in found), found)


def _subtree(base: str, best: dict[str, float], sizes: Mapping[str, int | None]) -> TreeNode | None:
    prefix = base.rstrip(os.sep) + os.sep
    mine = {p: s for p, s in best.items() if p.startswith(prefix)}
    for p in mine:
        del best[p]  # the deepest base claims a hit first (bases are visited longest first)
    if not mine:
        return None
    top = TreeNode(os.path.basename(base.rstrip(os.sep)) or base, base, True, float("-inf"))
    folders: dict[str, TreeNode] = {base: top}
    for path, score in mine.items():
        parent = _folder_node(os.path.dirname(path), folders)
        leaf = TreeNode(os.path.basename(path), path, False, score, int(sizes.get(path) or 0))
        parent.children.append(leaf)
        _raise(path, score, leaf.size, folders, base)
    _sort(top)
    return top


def _folder_node(folder: str, folders: dict[str, TreeNode]) -> TreeNode:
    node = folders.get(folder)
    if node is None:
        node = TreeNode(os.path.basename(folder), folder, True, float("-inf"))
        folders[folder] = node
        _folder_node(os.path.dirname(folder), folders).children.append(node)
    return node


def _raise(path: str, score: float, size: int, folders: dict[str, TreeNode], base: str) -> None:
    folder = os.path.dirname(path)
    while True:
        node = folders[folder]
        node.score = max(node.score, score)
        node.size += size
        if folder == base:
            return
        folder = os.path.dirname(folder)


def _sort(node: TreeNode) -> None:
    node.children.sort(key=lambda n: (-n.score, n.name.casefold()))
    for child in node.children:
        if child.is_dir:
            _sort(child)


def top_branches(tree: TreeNode, n: int = 3) -> list[str]:
    """The paths of the `n` best folders directly under the tree's top (for the bench and the CLI)."""
    return [c.path for c in tree.children if c.is_dir][:n]
