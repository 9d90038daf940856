"""Walk an indexed folder and list the files worth indexing, skipping what a person never wrote.

Skip rules match whole path *segments*, never substrings: `node_modules` is skipped, a folder called
`my_node_modules_notes` is not. What is skipped, and why:

* hidden entries (a name starting with ".", or the hidden/system attribute on Windows), which covers
  `.git`, `.venv`, `.Trash-1000`, `.DS_Store`…;
* tool and system folders by name (`SKIPPED_DIRS`: `node_modules`, `__pycache__`, `site-packages`,
  `$RECYCLE.BIN`, `System Volume Information`…), compared case-insensitively;
* any folder holding a `pyvenv.cfg` (a Python virtualenv, whatever it is called: `venv`, `env`…);
* opaque bundles (`BUNDLE_SUFFIXES`: `Mail.app`, `Photos Library.photoslibrary`…);
* build outputs — but only where they are build outputs. A folder named `build`, `dist` or `target`
  is skipped when the folder holding it has a project file (`PROJECT_MARKERS`: `pyproject.toml`,
  `package.json`, `Cargo.toml`, `Makefile`…). A person's `Documents/target` or `Build plans` is kept;
* junk files (`JUNK_FILE_NAMES`, Office lock files `~$…`, `*.tmp`, `*.part`, `*.crdownload`).

Paths come out resolved (the root is `realpath`-ed), so each file has exactly one name in the index.
Symlinked folders are followed only when their target lies inside the root and has not been walked
yet (by device and inode), so loops end and nothing outside the root is ever listed. Symlinked files
are not listed: their target is either inside the root (and listed under its own name) or outside it.
Files that vanish or cannot be read during the walk are skipped, never raised — except a path the
OS refuses to name at all (deeper than PATH_MAX: ENAMETOOLONG), which is handed to `on_refused` with
a reason, so the index can record it as failed instead of losing it without a word.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.errors import NotFound
from engine.paths import is_within, lexical, normalize, stat_errno

log = logging.getLogger(__name__)

SKIPPED_DIRS = frozenset(
    name.casefold()
    for name in (
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "site-packages",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".cache",
        ".idea",
        ".vscode",
        "$RECYCLE.BIN",
        "System Volume Information",
        ".Spotlight-V100",
        ".fseventsd",
        ".Trashes",
        "lost+found",
    )
)
TRASH_PREFIX = ".Trash"  # .Trash, .Trash-1000 (hidden anyway; named for is_skipped's readers)
VENV_MARKER = "pyvenv.cfg"
BUILD_OUTPUT_DIRS = frozenset({"build", "dist", "target"})
PROJECT_MARKERS = frozenset(
    {
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "package.json",
        "Cargo.toml",
        "Makefile",
        "makefile",
        "GNUmakefile",
        "CMakeLists.txt",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "build.xml",
        "meson.build",
        "go.mod",
        "composer.json",
        "build.sbt",
    }
)
BUNDLE_SUFFIXES = (".app", ".photoslibrary", ".framework", ".musiclibrary", ".imovielibrary", ".fcpbundle")
JUNK_FILE_NAMES = frozenset({".ds_store", "thumbs.db", "ehthumbs.db", "desktop.ini", "icon\r"})
JUNK_FILE_PREFIXES = ("~$", ".~lock.")
JUNK_FILE_SUFFIXES = (".tmp", ".part", ".crdownload")
FOLDER_TOO_LONG = (
    "The folder's path is longer than this system allows (ENAMETOOLONG), so none of its files "
    "can be read; move it to a shorter folder path to index them"
)
FILE_TOO_LONG = (
    "The path is longer than this system allows (ENAMETOOLONG), so the file cannot be opened; "
    "move it to a shorter folder path to index it"
)
Refused = Callable[[str, str], None]  # (path, reason)
IsBlock = Callable[[str], bool]  # a skipped folder listed as one entry (a tool folder)
# the stat module defines these constants on every OS; only Windows has the attributes to test
_WINDOWS_HIDDEN = (stat.FILE_ATTRIBUTE_HIDDEN | stat.FILE_ATTRIBUTE_SYSTEM) if os.name == "nt" else 0


@dataclass(frozen=True)
class FileEntry:
    path: str
    size: int
    mtime: float


def is_skipped_dir_name(name: str) -> bool:
    """The folder rules that need only the name (not build outputs or virtualenvs)."""
    folded = name.casefold()
    return name.startswith(".") or folded in SKIPPED_DIRS or folded.endswith(BUNDLE_SUFFIXES)


def is_junk_file_name(name: str) -> bool:
    folded = name.casefold()
    return (
        name.startswith(".")
        or folded in JUNK_FILE_NAMES
        or folded.startswith(JUNK_FILE_PREFIXES)
        or folded.endswith(JUNK_FILE_SUFFIXES)
    )


def is_build_output(name: str, sibling_names: set[str] | frozenset[str]) -> bool:
    """`build`/`dist`/`target` next to a project file; anywhere else it is a person's folder."""
    return name.casefold() in BUILD_OUTPUT_DIRS and not PROJECT_MARKERS.isdisjoint(sibling_names)


def is_skipped(path: str, root: str) -> bool:
    """True when `crawl(root)` would not list `path` (also True for a path outside `root`).

    The watcher calls this for every event, so it touches the disk only where a rule needs it: a
    `pyvenv.cfg` probe per folder segment, and a project-file probe for `build`/`dist`/`target`.
    """
    path, root = _comparable(path, root)
    if not is_within(path, root):
        return True
    segments = [s for s in path[len(root) :].split(os.sep) if s]
    folder = root
    for index, name in enumerate(segments):
        current = os.path.join(folder, name)
        is_folder = index < len(segments) - 1 or os.path.isdir(current)
        if is_folder and (
            is_skipped_dir_name(name) or _is_build_output_on_disk(name, folder) or _is_venv(current)
        ):
            return True
        if not is_folder and is_junk_file_name(name):
            return True
        folder = current
    return False


def _ignore(path: str, reason: str) -> None:
    log.info("cannot index %r: %s", path, reason)


def crawl(root: str, on_refused: Refused = _ignore, blocks: IsBlock | None = None) -> Iterator[FileEntry]:
    """Every indexable file under `root`, depth-first in name order, as resolved paths.

    Raises NotFound when `root` itself is not an existing folder (an unplugged drive must not look
    like a folder whose files were all deleted). Folders and files whose path the OS refuses
    (ENAMETOOLONG) go to `on_refused(path, reason)`. A skipped folder for which `blocks(path)` is
    true (a tool folder: descriptors.py) is listed itself, as one entry, and still not walked.
    """
    top = normalize(root)
    if not os.path.isdir(top):
        raise NotFound(
            f'"{root}" is not a folder that exists; reconnect its drive or remove it from the indexed folders'
        )
    visited: set[tuple[int, int]] = set()
    pending = [top]
    while pending:
        folder = pending.pop()
        identity = _identity(folder)
        if identity is None:
            if _too_long(folder):
                on_refused(folder, FOLDER_TOO_LONG)
            continue
        if identity in visited:
            continue
        visited.add(identity)
        entries = _list(folder)
        names = {entry.name for entry in entries}
        if folder != top and VENV_MARKER in names:
            if blocks is not None and blocks(folder):
                yield from _folder_entry(folder)
            continue
        subfolders, files = _sort_entries(entries, names, top, on_refused, blocks)
        yield from files
        pending.extend(reversed(subfolders))


def _sort_entries(
    entries: list[os.DirEntry[str]], names: set[str], top: str, on_refused: Refused, blocks: IsBlock | None
) -> tuple[list[str], list[FileEntry]]:
    """One folder's entries split into the subfolders to walk and the files to list."""
    subfolders: list[str] = []
    files: list[FileEntry] = []
    for entry in entries:
        if _is_hidden_on_windows(entry):
            continue
        if entry.is_dir(follow_symlinks=False):
            if not (is_skipped_dir_name(entry.name) or is_build_output(entry.name, names)):
                subfolders.append(entry.path)
            elif blocks is not None and blocks(entry.path):
                files.extend(_folder_entry(entry.path))
        elif entry.is_symlink():
            target = _followable_symlinked_folder(entry.path, top)
            if target is not None:
                subfolders.append(target)
        elif not is_junk_file_name(entry.name):
            found = _file_entry(entry, on_refused)
            if found is not None:
                files.append(found)
    return subfolders, files


def _folder_entry(folder: str) -> list[FileEntry]:
    """A tool folder as one entry: its own size and mtime stand for it in the catalog."""
    try:
        info = os.stat(folder)
    except OSError:
        return []
    return [FileEntry(folder, info.st_size, info.st_mtime)]


def _followable_symlinked_folder(link: str, top: str) -> str | None:
    """The resolved target of a symlink to a folder inside the root that is not itself skipped."""
    target = os.path.realpath(link)
    if not os.path.isdir(target) or not is_within(target, top) or is_skipped(target, top):
        return None
    return target


def _list(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as iterator:
            return sorted(iterator, key=lambda entry: entry.name)
    except OSError as exc:  # vanished, permission denied, not a folder any more
        log.debug("skipping unreadable folder %s: %s", folder, exc)
        return []


def _file_entry(entry: os.DirEntry[str], on_refused: Refused) -> FileEntry | None:
    try:
        if not entry.is_file(follow_symlinks=False):
            return None  # a socket, pipe or device
        info = entry.stat(follow_symlinks=False)
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            on_refused(entry.path, FILE_TOO_LONG)
        else:
            log.debug("skipping vanished file %r: %s", entry.path, exc)
        return None
    return FileEntry(entry.path, info.st_size, info.st_mtime)


def _too_long(path: str) -> bool:
    return stat_errno(path) == errno.ENAMETOOLONG


def _identity(folder: str) -> tuple[int, int] | None:
    try:
        info = os.stat(folder)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _is_hidden_on_windows(entry: os.DirEntry[str]) -> bool:
    if not _WINDOWS_HIDDEN:
        return False
    try:
        return bool(getattr(entry.stat(follow_symlinks=False), "st_file_attributes", 0) & _WINDOWS_HIDDEN)
    except OSError:
        return False  # the entry's own checks meet the error again and report or skip it


def _is_build_output_on_disk(name: str, parent: str) -> bool:
    if name.casefold() not in BUILD_OUTPUT_DIRS:
        return False
    return any(os.path.exists(os.path.join(parent, marker)) for marker in PROJECT_MARKERS)


def _is_venv(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, VENV_MARKER))


def _comparable(path: str, root: str) -> tuple[str, str]:
    """`path` and `root` in one spelling: as written when that already nests, else both resolved."""
    lexical_path, lexical_root = lexical(path), lexical(root)
    if is_within(lexical_path, lexical_root):
        return lexical_path, lexical_root.rstrip(os.sep) or os.sep
    return normalize(path), normalize(root).rstrip(os.sep) or os.sep


# Listings a descriptor needs (descriptors.py) live here, in the crawler, like every folder listing.
COUNT_LIMIT = 500_000  # entries counted in a tool folder at most…
COUNT_SECONDS = 3.0  # …and for at most this long: past either, the block says "more than"
_CACHED_FOLDERS = 64

_listings: dict[str, tuple[int, list[str]]] = {}
_listings_lock = threading.Lock()


def visible_names(folder: str) -> list[str]:
    """The folder's visible file and folder names, sorted (a descriptor's siblings, descriptors.py);
    cached while the folder's mtime holds, so a folder of 10,000 photos is listed once, not once per photo."""
    try:
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return []
    with _listings_lock:
        cached = _listings.get(folder)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    try:
        names = sorted(n for n in os.listdir(folder) if not is_junk_file_name(n))
    except OSError:
        return []
    with _listings_lock:
        if len(_listings) >= _CACHED_FOLDERS:
            _listings.pop(next(iter(_listings)))
        _listings[folder] = (mtime, names)
    return names


def count_files(path: str) -> tuple[int, bool]:
    """(files under `path`, whether the count is complete): bounded in entries and time, never raises
    (a tool folder's block says how many files it holds, descriptors.py)."""
    deadline = time.monotonic() + COUNT_SECONDS
    files, seen = 0, 0
    pending = [path]
    while pending:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    else:
                        files += 1
        except OSError:
            continue
        if seen >= COUNT_LIMIT or time.monotonic() > deadline:
            return files, False
    return files, True
