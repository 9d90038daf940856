"""A file's sense follows its renames: `scan_0042.txt: Rental agreement…` becomes `lease-elm-st.txt: …`.

The extractive sense leads with the file name when the file has no title of its own, and a model's
sense often names the file too. A move or rename reaches the index as a path update with no
re-extraction and no embedding (engine/txn/sync.py → Indexer.moved), so without this step the sense
would name the old file for good. Only the file's own name is rewritten, only where the sense holds
it, and never in a pinned sense: that is the person's own text, and it stays exactly as they wrote it.
Folder renames change no file's name, so they change no sense.
"""

from __future__ import annotations

import os

from engine.indexing.catalog import Catalog


def renamed_sense(sense: str, old_name: str, new_name: str) -> str | None:
    """`sense` naming `new_name` wherever it named `old_name`; None when it does not name the file.
    Only the whole name counts: its stem alone is often an ordinary word ("notes", "budget") that the
    sense uses in its own right."""
    return sense.replace(old_name, new_name) if old_name in sense else None


def follow_rename(catalog: Catalog, old: str, new: str) -> bool:
    """After `catalog.rename(old, new)`: rewrite the unpinned sense of the file now at `new` if it names
    the file by its old name. Runs inside the caller's transaction; True when a sense changed."""
    old_name, new_name = os.path.basename(old), os.path.basename(new)
    if old_name == new_name:
        return False
    record = catalog.get(new)
    if record is None or record.pinned or not record.sense:
        return False
    sense = renamed_sense(record.sense, old_name, new_name)
    if sense is None:
        return False
    catalog.set_sense(new, sense, pinned=False)
    return True
