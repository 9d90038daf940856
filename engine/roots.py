"""The indexed folders ("roots") and the one rule for what lies inside them, plus the one folder listing.

Every part of the engine that takes a path from outside — an IPC command, an agent tool, a plan
operation, the planner's listing — asks the same `Roots` object, built once by the running engine. Before this
module the rule was written five times and the copies disagreed (one allowed everything when no folder
was indexed, another refused; the advice named two different places).

The rule: a path is in bounds when, made absolute and resolved through `..` and symlinks, it is a root
or lies beneath one, matched on *path segments* (a root `…/Docs` never authorises `…/DocsEvil`). Case
is folded, and Unicode normalisation (NFC/NFD) ignored, only where the file system under the root is
probed to ignore them — never on the OS's reputation, because folding on a file system that does not
fold would let a sibling with a look-alike name through. A NUL byte, an unencodable name, a relative
path or a symlink that loops is refused like any other path outside. With **no roots configured,
nothing is in bounds**: there is nothing the person has opened to SenseTree yet, and the refusal says
to add a folder in Folders & indexing (docs/architecture.md, "Roots").

`listing` is the one directory listing (the page, the agent's `list_directory`, the scope tree in the
system prompt, the reorganisation planner): breadth-first, folders first then names case-insensitively,
dot-files hidden unless asked, symlinks listed but never followed, at most `limit` entries.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import stat
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.errors import NotFound, OutOfBounds
from engine.paths import case_insensitive_fs, is_within, normalize, stat_errno

LIST_LIMIT = 200  # DESIGN §2: list_directory and the scope tree show at most 200 entries
SENSES_LIMIT = 60  # DESIGN §2: read_semantics returns the senses of at most 60 files
_CONTROL = re.compile("[\x00-\x1f]")
NO_ROOTS = "No folder is indexed yet; add a folder in Folders & indexing first."
ADVICE = "add its folder in Folders & indexing"


@dataclass(frozen=True)
class Entry:
    """One child in a folder listing. `path` is exact and absolute (joined by the engine, never by the
    page); `size` is None for folders and for what could not be stat'ed; `modified` is a POSIX time."""

    path: str
    name: str
    is_dir: bool
    size: int | None
    modified: float | None


@functools.lru_cache(maxsize=256)
def _normalization_insensitive(root: str) -> bool:
    """True when the file system finds `root` under its other Unicode normal form (macOS APFS/HFS+).
    A root whose name reads the same in NFC and NFD gives no evidence, so nothing is folded for it."""
    for form in ("NFD", "NFC"):
        other = unicodedata.normalize(form, root)
        if other != root:
            try:
                return os.path.samefile(root, other)
            except (OSError, ValueError):
                return False
    return False


class Roots:
    """The roots in force (read through `configured` on every call, so a folder added a moment ago
    counts) and the questions asked of them."""

    def __init__(self, configured: Callable[[], Iterable[str]], *, fold_case: bool | None = None):
        self._configured = configured
        self._fold_case = fold_case  # None: probe each root's file system; tests force True/False

    def paths(self) -> list[str]:
        """The roots, normalised, in their configured order (an unreadable entry is skipped)."""
        found: list[str] = []
        for root in self._configured():
            path = _normal_root(root)
            if path is not None and path not in found:
                found.append(path)
        return found

    def root_of(self, path: str) -> str | None:
        """The deepest root that holds `path`, or None when it is outside (or not a usable path)."""
        target = _resolved(path)
        if target is None:
            return None
        best: str | None = None
        for root in self.paths():
            if self._contains(root, target) and (best is None or len(root) > len(best)):
                best = root
        return best

    def beneath(self, folder: str) -> list[str]:
        """The roots that are `folder` or lie inside it (a new parent root absorbs them)."""
        top = _resolved(folder)
        return [] if top is None else [root for root in self.paths() if self._contains(top, root)]

    def allows(self, path: str) -> bool:
        try:
            self.require(path)
        except OutOfBounds:
            return False
        return True

    def require(self, path: str, *, keep_link: bool = False) -> str:
        """The normalised path when it lies inside a root; else `OutOfBounds`, the one refusal.

        With `keep_link` the last name is kept unresolved (a plan may move a symlink itself): the
        path with its folders resolved must be inside, and so must whatever the link points to.
        """
        shown = _shown(path)
        if not isinstance(path, str) or not path.strip():
            raise OutOfBounds("An empty path was given; use an exact absolute path inside an indexed folder.")
        refuse_unusable(path)
        if not os.path.isabs(os.path.expanduser(path)):
            raise OutOfBounds(f"{shown} is not an absolute path; use an exact path from a listing.")
        roots = self.paths()
        if not roots:
            raise OutOfBounds(f"{shown} cannot be read or changed: {NO_ROOTS}")
        target = _resolved(path)
        candidates = [target]
        if keep_link and target is not None:
            kept = _kept_link(path)
            candidates = [kept, target] if kept is not None and kept != target else [target]
            target = kept
        for candidate in candidates:
            if candidate is None or not any(self._contains(root, candidate) for root in roots):
                raise OutOfBounds(
                    f"{shown} is outside the indexed folders, so it cannot be read or changed "
                    f"(indexed: {', '.join(roots)}); {ADVICE} to allow it."
                )
        assert target is not None
        if _loops(os.path.dirname(target) if keep_link else target):
            raise OutOfBounds(f"{shown} is a symbolic link that loops, so it leads nowhere inside a folder.")
        return target

    def listing(
        self, folder: str, *, depth: int = 1, limit: int = LIST_LIMIT, hidden: bool = False
    ) -> list[Entry]:
        """The entries under `folder` (in bounds, a folder), `depth` levels breadth-first, ≤ `limit`.
        Ask for `limit + 1` to learn whether more exist. Symlinks are entries, never descended into."""
        top = self.require(folder)
        if not os.path.isdir(top):
            raise NotFound(f"{_shown(folder)} is not a folder.")
        entries: list[Entry] = []
        frontier = [(top, 1)]
        while frontier and len(entries) < limit:
            current, level = frontier.pop(0)
            for entry in _children(current, hidden):
                if len(entries) >= limit:
                    break
                entries.append(entry)
                if entry.is_dir and level < max(1, depth):
                    frontier.append((entry.path, level + 1))
        return entries

    def _contains(self, root: str, target: str) -> bool:
        fold = self._fold_case if self._fold_case is not None else case_insensitive_fs(root)
        if _normalization_insensitive(root):
            root, target = unicodedata.normalize("NFC", root), unicodedata.normalize("NFC", target)
        return is_within(target, root, fold_case=fold)


def _children(folder: str, hidden: bool) -> list[Entry]:
    """The direct children of `folder`, folders first; a folder that cannot be read lists as empty."""
    try:
        with os.scandir(folder) as it:
            found = [_entry(e) for e in it if hidden or not e.name.startswith(".")]
    except OSError:
        return []
    return sorted(found, key=lambda e: (not e.is_dir, e.name.casefold(), e.name))


def _entry(item: os.DirEntry[str]) -> Entry:
    try:
        st = item.stat(follow_symlinks=False)
    except OSError:
        return Entry(item.path, item.name, False, None, None)
    is_dir = stat.S_ISDIR(st.st_mode)
    return Entry(item.path, item.name, is_dir, None if is_dir else st.st_size, st.st_mtime)


@functools.lru_cache(maxsize=64)
def _normal_root(root: str) -> str | None:
    """A root, normalised once: roots are stored resolved, and a root later swapped for a symlink can
    only make paths through it resolve elsewhere — refused, never let out."""
    return _resolved(root)


def _resolved(path: str) -> str | None:
    """`normalize(path)`, or None for what names no file at all (a NUL byte, an unencodable name)."""
    if not isinstance(path, str) or "\x00" in path:
        return None
    try:
        return normalize(path)
    except (ValueError, OSError):
        return None


def refuse_unusable(path: str) -> None:
    """`OutOfBounds` for text that can name no file anywhere — a NUL byte, or a lone surrogate that is
    not the escape of an undecodable byte — so it cannot lie inside a root. `Roots.require` asks this
    first, and the bridge asks it of every path argument before anything else reads the text."""
    if "\x00" in path:
        raise OutOfBounds(f"{_shown(path)} contains a NUL byte, so it names no file; use an exact path.")
    try:
        os.fsencode(path)
    except UnicodeError:
        raise OutOfBounds(
            f"{_shown(path)} is not valid text for a file name, so it names no file; use an exact path."
        ) from None


def _loops(path: str) -> bool:
    """True when following `path` runs into a symlink loop (ELOOP): it names nothing that can be read."""
    return stat_errno(path) == errno.ELOOP


def _kept_link(path: str) -> str | None:
    """Absolute, `..` collapsed, every folder above resolved; the last name kept as given."""
    try:
        lexical = os.path.normpath(os.path.abspath(os.path.expanduser(path)))
        parent, name = os.path.split(lexical)
        return os.path.join(normalize(parent), name) if name else lexical
    except (ValueError, OSError):
        return None


def _shown(path: object) -> str:
    """The path as the refusal quotes it: readable, with control characters escaped."""
    text = path if isinstance(path, str) else repr(path)
    return repr(text) if _CONTROL.search(text) else f'"{text}"'
