"""Path rules shared by scope filters, the agent's bounds and plan validation.

Containment is decided on *path segments* after resolving `..` and symlinks: a root `/x/Docs`
contains `/x/Docs/a.txt` but never `/x/DocsEvil/secret`. Case is folded only where the file system
under the root is case-insensitive (detected, not assumed from the OS).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path


def normalize(path: str | os.PathLike[str]) -> str:
    """Absolute, `~` expanded, `..` collapsed and symlinks resolved (for paths that do not exist yet,
    the longest existing prefix is resolved and the rest appended)."""
    return os.path.realpath(os.path.abspath(os.path.expanduser(os.fspath(path))))


def lexical(path: str | os.PathLike[str]) -> str:
    """Absolute with `..` collapsed but symlinks kept: the name a person sees for a path."""
    return os.path.normpath(os.path.abspath(os.path.expanduser(os.fspath(path))))


@functools.lru_cache(maxsize=256)
def case_insensitive_fs(directory: str) -> bool:
    """True when the file system holding `directory` ignores case (probed on the directory itself)."""
    probe = Path(directory)
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    swapped = str(probe).swapcase()
    if swapped == str(probe):
        return False
    try:
        return os.path.samefile(probe, swapped)
    except OSError:
        return False


def is_within(path: str, root: str, *, fold_case: bool | None = None) -> bool:
    """True when `path` is `root` or lies beneath it, on segment boundaries (both already normalised)."""
    if fold_case is None:
        fold_case = case_insensitive_fs(root)
    if fold_case:
        path, root = path.casefold(), root.casefold()
    root = root.rstrip(os.sep) or os.sep
    if path == root:
        return True
    prefix = root if root.endswith(os.sep) else root + os.sep
    return path.startswith(prefix)


def find_root(path: str, roots: Iterable[str]) -> str | None:
    """The deepest root that contains `path` (normalised), or None."""
    return _deepest(normalize(path), (normalize(root) for root in roots))


def _deepest(target: str, normalized_roots: Iterable[str]) -> str | None:
    best: str | None = None
    for r in normalized_roots:
        if is_within(target, r) and (best is None or len(r) > len(best)):
            best = r
    return best


class RootFinder:
    """`find_root` for many paths in a row (one batch of the indexer), each folder resolved once.

    Why: `normalize` lstat's every component of a path, and each lstat gives the interpreter up to the
    other threads (the read-ahead's), so a file's ~10 of them cost far more than the calls: about a sixth
    of the indexer's thread in the keyword phase (py-spy, bench/recoll.py). A file's resolved path is its
    folder's resolved path and its name unless the file itself is a symbolic link (that is how `realpath`
    walks), so one lstat of the file is enough once its folder is known. Meant to live while nothing can
    move a folder (the indexer keeps one for a group of files written under its lock).
    """

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def normalize(self, path: str) -> str:
        """`normalize(path)`, with the folder's resolution remembered."""
        full = lexical(path)
        folder, name = os.path.split(full)
        if not name or os.path.islink(full):
            return normalize(full)
        return os.path.join(self._folder(folder), name)

    def find_root(self, path: str, roots: Iterable[str]) -> str | None:
        """`find_root(path, roots)`."""
        return _deepest(self.normalize(path), (self._folder(root) for root in roots))

    def _folder(self, folder: str) -> str:
        resolved = self._folders.get(folder)
        if resolved is None:
            resolved = self._folders[folder] = normalize(folder)
        return resolved


def subtree_range(path: str) -> tuple[str, str]:
    """(prefix, upper): every path strictly beneath `path` sorts in [prefix, upper), so a store can
    answer "this folder and everything in it" with an index range instead of a LIKE or a scan."""
    prefix = path.rstrip(os.sep) + os.sep
    return prefix, prefix[:-1] + chr(ord(os.sep) + 1)


def rebase(path: str, old_prefix: str, new_prefix: str) -> str:
    """`path` moved from under `old_prefix` to under `new_prefix` (segment-exact)."""
    if path == old_prefix:
        return new_prefix
    return new_prefix + path[len(old_prefix) :]


def stat_errno(path: str) -> int | None:
    """The errno `os.stat(path)` fails with (ELOOP, ENAMETOOLONG …), or None when it succeeds."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno
    return None


def display_name(path: str) -> str:
    return os.path.basename(path.rstrip(os.sep)) or path
