"""Which copy of a duplicate to keep: the one a person filed (issue 29).

"Keep the newest" kept the copy in Downloads and trashed `Documents/Housing/lease-agreement-2023.docx`
whenever the dates were equal, which they are for a download saved twice. The order, most telling first:

1. not in a transient place — Downloads, Desktop, a temp or inbox folder, a trash, a backup folder;
2. not marked as a copy — "(1)", "copy", "Copy of", "kopie", "-backup";
3. the better name — not a scanner's or camera's default (`names.is_unhelpful`);
4. for versions, the latest revision (the newest); for copies, the older (the original);
5. the shallower path (filed once, not buried in a backup), then the path itself, so the choice is stable.
"""

from __future__ import annotations

import os

from engine.filing import copy_marked, transient_folder
from engine.gardener.inputs import FileInfo
from engine.gardener.names import is_unhelpful

__all__ = ["common_folder", "copy_marked", "folder_label", "to_keep", "transient_folder", "why_removed"]


def common_folder(members: list[FileInfo]) -> str:
    """The deepest folder holding every member: what lies above it says nothing about any copy."""
    return os.path.commonpath([os.path.dirname(m.path) for m in members]) if members else ""


def to_keep(members: list[FileInfo], newest: bool = False) -> FileInfo:
    """The copy to keep among `members` (see the module's order)."""
    base = common_folder(members)

    def rank(f: FileInfo) -> tuple[object, ...]:
        age = -(f.modified or 0.0) if newest else (f.modified or 0.0)
        return (
            transient_folder(f.path, base) is not None,
            copy_marked(f.name),
            is_unhelpful(f.name),
            age,
            f.path.count(os.sep),
            f.path,
        )

    return min(members, key=rank)


def why_removed(removed: FileInfo, kept: FileInfo) -> str:
    """What makes `removed` the copy to go, in words: "in Downloads", "a “(1)” copy", "older"…"""
    base = common_folder([removed, kept])
    place = transient_folder(removed.path, base)
    if place and not transient_folder(kept.path, base):
        return f"it sits in {place}"
    if copy_marked(removed.name) and not copy_marked(kept.name):
        return "its name marks it as a copy"
    if is_unhelpful(removed.name) and not is_unhelpful(kept.name):
        return "its name says less"
    return "the other is the one filed"


def folder_label(path: str) -> str:
    """The folder of `path` as a person reads it: its last two segments (`Documents/Housing`)."""
    parts = os.path.dirname(path).split(os.sep)
    return "/".join(p for p in parts[-2:] if p) or os.sep
