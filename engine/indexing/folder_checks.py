"""What may become an indexed folder: an absolute path to real files, never a pseudo file system.

A root is resolved once and kept for good, so a relative path (`""`, `".."`, `"Docs"`) would be
resolved against whatever working directory the server happened to start in — the person cannot see
that, so it is refused rather than guessed. Kernel and runtime file systems (`/proc`, `/sys`, `/dev`,
the tmpfs under `/run`, cgroups …) hold no documents, only endless or changing pseudo files, some of
them readable secrets of other processes; they are refused by name and, on Linux, by the file-system
type of the mount that holds the folder (`/proc/self/mounts`), so a bind mount elsewhere is caught
too. Removable drives under `/run/media/<user>` are ordinary file systems and stay allowed.

The operating system's own folders (`/`, `/etc`, `/usr`, `/bin`, `/var` and its system parts, `C:\\Windows`,
`C:\\Program Files`…) are refused too (issue 31, F12: `/etc` was accepted): they hold configuration,
programs and logs, some of it other users' or secret, not a person's documents. Only the system's part
of `/var` is refused, so macOS's per-user temporary folders (`/private/var/folders`) stay allowed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from engine.errors import InvalidInput
from engine.paths import is_within, normalize

PSEUDO_DIRS = ("/proc", "/sys", "/dev")
RUNTIME_DIRS = ("/run", "/var/run", "/dev")  # a memory file system here is the system's, not a person's
PSEUDO_TYPES = frozenset(
    {
        "proc",
        "sysfs",
        "devtmpfs",
        "devpts",
        "cgroup",
        "cgroup2",
        "securityfs",
        "debugfs",
        "tracefs",
        "configfs",
        "fusectl",
        "mqueue",
        "hugetlbfs",
        "pstore",
        "bpf",
        "binfmt_misc",
        "efivarfs",
        "selinuxfs",
        "nsfs",
        "rpc_pipefs",
        "nfsd",
    }
)
MEMORY_TYPES = frozenset({"tmpfs", "ramfs"})
# The folder itself and everything beneath it (`/private/…`: macOS's real spelling of /etc and /var).
SYSTEM_TREES: tuple[str, ...] = ("/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_TREES += ("/boot", "/private/etc", "/System", "/var/lib", "/var/log", "/var/cache", "/var/spool")
SYSTEM_TREES += ("/var/db", "/private/var/db", "/private/var/log")
SYSTEM_FOLDERS = ("/", "/var", "/private", "/private/var", "/Library", "/Applications")  # only themselves
WINDOWS_SYSTEM = ("SystemRoot", "ProgramFiles", "ProgramFiles(x86)", "ProgramData")  # C:\Windows …
MOUNTS_FILE = "/proc/self/mounts"


def checked_root(path: str, data_dir: str | None = None) -> str:
    """The normalised folder for `add_indexed_folder`, or InvalidInput saying what to give instead
    (also when it holds, or lies inside, SenseTree's own `data_dir`)."""
    text = path.strip() if isinstance(path, str) else ""
    if not text:
        raise InvalidInput("Give the folder's full path, for example /home/jane/Documents.")
    expanded = os.path.expanduser(text)
    if not os.path.isabs(expanded):
        raise InvalidInput(
            f'"{path}" is a relative path; give the folder\'s full path '
            f"(for example {os.path.join(os.path.expanduser('~'), 'Documents')})."
        )
    root = normalize(expanded)
    reason = system_reason(root) or pseudo_reason(root, read_mounts())
    if reason:
        raise InvalidInput(
            f'"{path}" {reason}; it holds no documents to index. Choose a folder of your files.'
        )
    if data_dir is not None and (is_within(root, data_dir) or is_within(data_dir, root)):
        raise InvalidInput(f'"{path}" holds SenseTree\'s own data folder; choose a folder of your documents.')
    return root


def system_reason(root: str) -> str | None:
    """Why `root` (normalised) is one of the operating system's own folders, or None."""
    if sys.platform == "win32":
        for variable in WINDOWS_SYSTEM:
            folder = os.environ.get(variable)
            if folder and is_within(root, normalize(folder)):
                return f"is inside {folder}, a folder of the operating system"
        return None
    if root in SYSTEM_FOLDERS:
        return "is one of the operating system's own folders"
    for tree in SYSTEM_TREES:
        if is_within(root, tree, fold_case=False):
            return f"is inside {tree}, a folder of the operating system"
    return None


def pseudo_reason(root: str, mounts: Iterable[tuple[str, str]]) -> str | None:
    """Why `root` (normalised) is a pseudo file system, or None; `mounts` are (mount point, fs type)."""
    if sys.platform == "win32":
        return None
    for name in PSEUDO_DIRS:
        if is_within(root, name, fold_case=False):
            return f"is inside {name}, a system file system"
    holder = _holding_mount(root, mounts)
    if holder is None:
        return None
    point, kind = holder
    if kind in PSEUDO_TYPES:
        return f"is on a {kind} file system (mounted at {point})"
    if kind in MEMORY_TYPES and any(is_within(point, d, fold_case=False) for d in RUNTIME_DIRS):
        return f"is on the system's runtime {kind} (mounted at {point})"
    return None


def read_mounts(path: str = MOUNTS_FILE) -> list[tuple[str, str]]:
    """(mount point, fs type) pairs of this process's mount table; empty where there is none (macOS)."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    mounts = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 3:
            mounts.append((_unescape(fields[1]), fields[2]))
    return mounts


def _holding_mount(root: str, mounts: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """The deepest mount point containing `root`; the last one listed wins at equal depth (it is on top)."""
    best: tuple[str, str] | None = None
    for point, kind in mounts:
        if is_within(root, point, fold_case=False) and (best is None or len(point) >= len(best[0])):
            best = (point, kind)
    return best


def _unescape(field: str) -> str:
    r"""Mount points in /proc/self/mounts escape space, tab, newline and backslash as \ooo octal."""
    if "\\" not in field:
        return field
    out, i = [], 0
    while i < len(field):
        chunk = field[i + 1 : i + 4]
        if field[i] == "\\" and len(chunk) == 3 and all(c in "01234567" for c in chunk):
            out.append(chr(int(chunk, 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)
