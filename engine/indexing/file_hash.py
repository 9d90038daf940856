"""A file's content hash: the key of every cache by content (catalog, OCR, captions).

Its own module so the indexer and the background phases that cache by content (ocr_phase.py) share it
without importing one another.
"""

from __future__ import annotations

import hashlib

HASH_BLOCK = 1 << 20


def file_hash(path: str) -> str:
    digest = hashlib.blake2b(digest_size=20)
    with open(path, "rb") as handle:
        while block := handle.read(HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()
