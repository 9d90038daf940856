"""The data folder is private: the folder 0700, every file SenseTree writes in it 0600 (POSIX).

The stores hold the extracted text of the person's files, which may come from files only they can
read; the settings file may hold an API key. LanceDB, DuckDB, SQLite and the log handler create their
files themselves, so the only way to make every one of them private is the process umask: start-up
sets it to 077 (`private_umask`) and `make_private` fixes folders and files an older version left
readable. What SenseTree creates *for the person* outside the data folder (a folder a plan makes, a
program `open_path` starts) must not inherit that umask: `user_dir_mode()` and `user_umask()` give the
person's own. Windows and macOS per-user data folders are private already; there this does nothing.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE_UMASK = 0o077
DIR_MODE = 0o700
FILE_MODE = 0o600
MANIFEST = re.compile(r"[0-9a-f]{32}\.manifest\.json")  # engine/txn/trash.py names them so
_user_umask: int | None = None  # the umask the process started with, before private_umask()


def posix() -> bool:
    return os.name == "posix"


def private_umask() -> None:
    """Make every file the process creates from now on private; remembers the person's umask once."""
    global _user_umask
    if not posix():
        return
    previous = os.umask(PRIVATE_UMASK)
    if _user_umask is None:
        _user_umask = previous


def user_umask() -> int:
    """The umask the person runs with (what their own programs would create files with)."""
    if _user_umask is not None:
        return _user_umask
    current = os.umask(PRIVATE_UMASK)
    os.umask(current)
    return current


def user_dir_mode() -> int:
    """The mode a folder created in the person's own tree should get."""
    return 0o777 & ~user_umask()


def mkdir_for_user(path: str) -> None:
    """`os.mkdir` with the person's umask, not the data folder's (a plan's folders are theirs)."""
    os.mkdir(path)
    if posix() and _user_umask is not None:
        os.chmod(path, user_dir_mode())


def make_private(home: Path, skip: tuple[str, ...] = ("trash",)) -> int:
    """chmod the data folder 0700 and what lies in it 0700/0600; returns how many entries changed.

    The trash's *contents* are the person's own files waiting to be restored with their modes, so only
    the trash folder itself and its manifests are made private (the 0700 folder already hides them)."""
    if not posix():
        return 0
    changed = _chmod(home, DIR_MODE)
    for dirpath, dirnames, filenames in os.walk(home):
        top = Path(dirpath) == home
        for name in dirnames:
            changed += _chmod(Path(dirpath, name), DIR_MODE)
        for name in filenames:
            changed += _chmod(Path(dirpath, name), FILE_MODE)
        if top:
            dirnames[:] = [d for d in dirnames if d not in skip]
    for name in skip:
        folder = home / name
        if folder.is_dir() and not folder.is_symlink():
            for entry in folder.iterdir():
                if MANIFEST.fullmatch(entry.name) and entry.is_file() and not entry.is_symlink():
                    changed += _chmod(entry, FILE_MODE)
    if changed:
        log.info("made %d entries in %s private", changed, home)
    return changed


def _chmod(path: Path, mode: int) -> int:
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode) or stat.S_IMODE(info.st_mode) == mode:
            return 0
        os.chmod(path, mode)
        return 1
    except OSError as exc:
        log.warning("could not make %s private: %s", path, exc)
        return 0
