"""Disk primitives that never overwrite and never lose a byte, even when the process dies midway.

`rename_noreplace` asks the kernel to refuse an existing target (Linux `renameat2(RENAME_NOREPLACE)`);
where that is unsupported it falls back to `link` + `unlink` for files and to a lock + re-check for
folders. `move_path` adds the cross-file-system case: copy to a hidden sidecar next to the target,
verify size and content hash, rename the sidecar into place, then rename the source to a hidden
"doomed" sidecar and delete that. Sidecar names are derived from a token (transaction + step), so
`undo_move` can find every intermediate state after a crash and put the source back.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import logging
import os
import shutil
import stat
import sys
import threading
from collections.abc import Callable
from typing import Any, TypedDict

log = logging.getLogger(__name__)

AT_FDCWD = -100
RENAME_NOREPLACE = 1
HASH_LIMIT = 64 * 1024 * 1024  # content hashes for fingerprints only below this size
_fallback_lock = threading.Lock()
_renameat2: Any = None


def _load_renameat2() -> Any:
    global _renameat2
    if _renameat2 is None:
        _renameat2 = False
        if sys.platform.startswith("linux"):
            try:
                func = ctypes.CDLL(None, use_errno=True).renameat2
                func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
                func.restype = ctypes.c_int
                _renameat2 = func
            except (AttributeError, OSError):
                log.info("renameat2 is not available; using link+unlink for no-replace renames")
    return _renameat2


def rename_noreplace(src: str, dst: str) -> None:
    """Rename `src` to `dst`, raising FileExistsError if `dst` exists; EXDEV passes through."""
    func = _load_renameat2()
    if func:
        if func(AT_FDCWD, os.fsencode(src), AT_FDCWD, os.fsencode(dst), RENAME_NOREPLACE) == 0:
            return
        err = ctypes.get_errno()
        if err not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
            raise OSError(err, os.strerror(err), src, None, dst)
    _rename_fallback(src, dst)


def _rename_fallback(src: str, dst: str) -> None:
    if not os.path.isdir(src) or os.path.islink(src):
        try:
            os.link(src, dst, follow_symlinks=False)
        except FileExistsError:
            raise
        except OSError as exc:
            if exc.errno == errno.EXDEV:
                raise
        else:
            os.unlink(src)
            return
    with _fallback_lock:
        if os.path.lexists(dst):
            raise FileExistsError(errno.EEXIST, "target exists", dst)
        os.rename(src, dst)


def sidecar(path: str, role: str, token: str) -> str:
    """A hidden name next to `path` used while copying across file systems (`role`: partial/doomed)."""
    parent, name = os.path.split(path)
    return os.path.join(parent, f".sensetree-{role}-{token}__{name}")


def copy_tree(src: str, dst: str) -> None:
    """Copy a file, symlink or folder with times and modes; `dst` must not exist."""
    if os.path.isdir(src) and not os.path.islink(src):
        shutil.copytree(src, dst, symlinks=True, copy_function=shutil.copy2)
    else:
        shutil.copy2(src, dst, follow_symlinks=False)


def remove_tree(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)


def file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def content_digest(path: str) -> str:
    """A hash of everything under `path`: names, kinds, sizes and file contents (for copy checks)."""
    digest = hashlib.sha256()
    for rel, info in _walk(path):
        digest.update(f"{rel}\0{_kind(info)}\0{info.st_size if _kind(info) == 'file' else 0}\0".encode())
        full = os.path.join(path, rel) if rel else path
        if _kind(info) == "file":
            digest.update(file_sha256(full).encode())
        elif _kind(info) == "link":
            digest.update(os.readlink(full).encode())
    return digest.hexdigest()


class FileFingerprint(TypedDict):
    """A file (or link): its kind, size and mtime, and a content hash below HASH_LIMIT."""

    kind: str
    size: int
    mtime_ns: int
    sha256: str | None


class FolderFingerprint(TypedDict):
    """A folder: how many entries lie beneath it, and a hash of their names, kinds, sizes and mtimes."""

    kind: str
    entries: int
    listing: str


Fingerprint = FileFingerprint | FolderFingerprint


def fingerprint(path: str) -> Fingerprint | None:
    """Size + mtime (and a content hash under HASH_LIMIT) of a file; for a folder, the same for every
    entry beneath it. None when nothing is there. Renames keep it; any edit changes it."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):  # a file now stands where a folder on the way was
        return None
    if _kind(info) != "dir":
        sha = file_sha256(path) if _kind(info) == "file" and info.st_size <= HASH_LIMIT else None
        return {"kind": _kind(info), "size": info.st_size, "mtime_ns": info.st_mtime_ns, "sha256": sha}
    listing = hashlib.sha256()
    count = 0
    for rel, entry in _walk(path):
        if rel:
            count += 1
            size = entry.st_size if _kind(entry) == "file" else 0
            listing.update(f"{rel}\0{_kind(entry)}\0{size}\0{entry.st_mtime_ns}\n".encode())
    return {"kind": "dir", "entries": count, "listing": listing.hexdigest()}


def _kind(info: os.stat_result) -> str:
    if stat.S_ISLNK(info.st_mode):
        return "link"
    if stat.S_ISDIR(info.st_mode):
        return "dir"
    return "file"


def _walk(root: str) -> list[tuple[str, os.stat_result]]:
    """Every entry under `root` (root itself as ""), sorted, without following symlinks."""
    out = [("", os.lstat(root))]
    if _kind(out[0][1]) != "dir":
        return out
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            out.append((os.path.relpath(full, root), os.lstat(full)))
    out.sort(key=lambda item: item[0])
    return out


def move_path(
    src: str,
    dst: str,
    token: str,
    on_copied: Callable[[], None] | None = None,
    on_placed: Callable[[], None] | None = None,
) -> None:
    """Move `src` to `dst` without replacing anything; across file systems copy → verify → delete.
    `on_copied` runs once the verified copy exists, before the source is touched (the journal mark);
    `on_placed` once the copy holds the target name, before the source is deleted."""
    try:
        rename_noreplace(src, dst)
        return
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
    if os.path.lexists(dst):
        raise FileExistsError(errno.EEXIST, "target exists", dst)
    partial = sidecar(dst, "partial", token)
    remove_tree(partial)
    copy_tree(src, partial)
    if content_digest(src) != content_digest(partial):
        remove_tree(partial)
        raise OSError(errno.EIO, f"the copy of {src} on the other drive does not match the original")
    if on_copied is not None:
        on_copied()
    rename_noreplace(partial, dst)
    if on_placed is not None:
        on_placed()
    doomed = sidecar(src, "doomed", token)
    rename_noreplace(src, doomed)
    remove_tree(doomed)


def undo_move(src: str, dst: str, token: str, dst_is_ours: bool) -> str:
    """Put whatever a (possibly interrupted) `move_path(src, dst, token)` did back to `src`.
    `dst_is_ours` says the journal proves a complete copy reached `dst` (state copied/undoing).
    Returns a short description of what was done; raises OSError when it cannot be done safely."""
    partial, doomed = sidecar(dst, "partial", token), sidecar(src, "doomed", token)
    back = token + "r"
    remove_tree(partial)
    if os.path.lexists(src):
        remove_tree(sidecar(src, "partial", back))
        if os.path.lexists(dst) and (dst_is_ours or os.path.samefile(src, dst)):
            doomed_dst = sidecar(dst, "doomed", back)
            rename_noreplace(dst, doomed_dst)
            remove_tree(doomed_dst)
            return f"removed the copy at {dst}"
        remove_tree(sidecar(dst, "doomed", back))
        return f"{src} is in place"
    if os.path.lexists(doomed):
        remove_tree(doomed)
    if not os.path.lexists(dst):
        raise OSError(errno.ENOENT, f"neither {src} nor {dst} exists any more", dst)
    remove_tree(sidecar(src, "partial", back))
    move_path(dst, src, back)
    return f"moved {dst} back to {src}"
