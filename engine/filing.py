"""Where a person files a file, and where its copies land: transient folders (Downloads, Desktop, a temp
or inbox folder, a trash, a backup folder) and copy marks ("(1)", "copy", "Copy of", "kopie", "-backup").

Two judgements read the same rules: the Gardener keeps the filed copy of a duplicate and trashes the one
in Downloads (engine/gardener/keep.py), and search shows the filed copy as the row that stands for its
identical copies when their scores tie (engine/retrieval/copies.py).
"""

from __future__ import annotations

import os
import re

TRANSIENT = frozenset(
    "downloads download desktop tmp temp temporary inbox trash .trash recycle.bin $recycle.bin "
    "scratch unsorted to-sort backup backups".split(" ")
)
_COPY_MARK = re.compile(
    r"(?:\(\d+\)|(?:^|[\s_-])(?:copy|kopie|copie|backup|bak)(?:[\s_-]*\d+)?$|^(?:copy of|kopie van)\s)",
    re.IGNORECASE,
)


def transient_folder(path: str, base: str = "") -> str | None:
    """The transient folder `path` lies in below `base` (its name as written), or None. Only the
    segments below `base` count: a root that happens to lie under /tmp makes nothing in it transient."""
    folder = os.path.dirname(path)
    below = (
        folder[len(base) :] if base and (folder + os.sep).startswith(base.rstrip(os.sep) + os.sep) else folder
    )
    for segment in reversed(below.split(os.sep)):
        if segment.casefold() in TRANSIENT:
            return segment
    return None


def copy_marked(name: str) -> bool:
    """Whether the file name says it is a copy: `lease (1).docx`, `Copy of packing-list.md`."""
    stem = os.path.splitext(name)[0].strip()
    return bool(_COPY_MARK.search(stem))
