"""A file's content hash: the key of every cache by content (catalog, OCR, captions); and its stamp: what
says its bytes may have changed since it was read.

Its own module so the indexer and the background phases that cache by content (ocr_phase.py), and the
read-ahead and the reading process's first reads (first_reads.py), share them without importing one another.
"""

from __future__ import annotations

import hashlib
import os

HASH_BLOCK = 1 << 20


def file_hash(path: str) -> str:
    digest = hashlib.blake2b(digest_size=20)
    with open(path, "rb") as handle:
        while block := handle.read(HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """What identifies one version of a file: a different stamp means different bytes may be there."""
    return (st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev)
