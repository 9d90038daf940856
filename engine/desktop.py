"""Handing a file to the person's own programs: its default application, or the file manager showing it."""

from __future__ import annotations

import os
import subprocess
import sys

from engine import privacy
from engine.errors import EngineError, NotFound
from engine.roots import Roots


def open_with_os(path: str, reveal: bool) -> None:
    """Open a file with its default application, or show it in the file manager."""
    if sys.platform == "darwin":
        cmd = ["open", "-R", path] if reveal else ["open", path]
    elif sys.platform == "win32":
        if reveal:
            subprocess.Popen(["explorer", "/select,", path])
        else:
            os.startfile(path)  # type: ignore[attr-defined]
        return
    else:
        cmd = ["xdg-open", os.path.dirname(path) if reveal else path]
    try:
        subprocess.Popen(
            cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            umask=privacy.user_umask(),
        )  # what the person's program saves is not made 0600
    except FileNotFoundError as exc:
        raise EngineError(f"No program to open files was found ({cmd[0]}); open {path} yourself.") from exc


def open_in_bounds(roots: Roots, path: str, reveal: bool) -> None:
    """`open_path`: a file or folder inside the indexed folders, opened (or shown in its folder) by the OS."""
    target = roots.require(path)
    if not os.path.exists(target):
        raise NotFound(f'"{path}" no longer exists.')
    open_with_os(target, reveal)
