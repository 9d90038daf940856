"""Near-duplicate photos by their pixels, never by their names (issue 29).

A photo is catalogued by name only (no text), so its stored vector says nothing about what it shows:
22 different photos of Pictures/2024 came out as one "near-duplicate" group. Here a photo is judged
by a difference hash of its pixels (dHash: a 9×8 grey thumbnail, one bit per neighbouring pair,
brighter or not), which survives re-encoding, resizing and small edits but not a different picture.
Two photos are the same when their hashes differ in at most `SAME_BITS` of 64 bits and their shapes
agree. Without Pillow (a dependency an install may lack) this check is skipped, never guessed.

Cost: each photo is decoded once per content hash (JPEG draft mode decodes at 1/8 scale); candidate
pairs come from 8 bands of 8 bits (two hashes within 4 bits agree on at least 4 whole bands)."""

from __future__ import annotations

import functools
import logging
import os
from collections import defaultdict
from dataclasses import dataclass

log = logging.getLogger(__name__)

IMAGE_EXTENSIONS = frozenset(".jpg .jpeg .png .gif .bmp .tif .tiff .webp".split())
SAME_BITS = 4  # of 64: re-encoded or resized copies sit at 0–3 in bench/gardener.py, other photos far above
MAX_BYTES = 60 * 1024 * 1024


@dataclass(frozen=True)
class Print:
    bits: int
    width: int
    height: int


def available() -> bool:
    try:
        import PIL.Image  # noqa: F401
    except ImportError:
        return False
    return True


def is_image(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in IMAGE_EXTENSIONS


@functools.lru_cache(maxsize=65_536)
def fingerprint(path: str, content_hash: str | None) -> Print | None:
    """The dHash of the picture at `path` (cached per path and content hash); None if unreadable."""
    try:
        from PIL import Image

        if os.path.getsize(path) > MAX_BYTES:
            return None
        with Image.open(path) as image:
            width, height = image.size
            image.draft("L", (64, 64))
            small = image.convert("L").resize((9, 8), Image.Resampling.BILINEAR)
            pixels = small.tobytes()  # one byte per grey pixel, row by row
    except Exception as error:  # a broken or exotic file is not a finding
        log.debug("no fingerprint for an image: %s", type(error).__name__)
        return None
    bits = 0
    for row in range(8):
        for col in range(8):
            bits = (bits << 1) | int(pixels[row * 9 + col] > pixels[row * 9 + col + 1])
    return Print(bits, width, height)


def distance(a: Print, b: Print) -> int:
    return (a.bits ^ b.bits).bit_count()


def same_picture(a: Print, b: Print) -> bool:
    """Within `SAME_BITS`, and of one shape (a crop or a rotation is another picture)."""
    ratio_a, ratio_b = a.width / max(a.height, 1), b.width / max(b.height, 1)
    return distance(a, b) <= SAME_BITS and abs(ratio_a - ratio_b) <= 0.02 * max(ratio_a, ratio_b)


def candidate_pairs(prints: list[Print]) -> set[tuple[int, int]]:
    """Index pairs that agree on at least one 8-bit band (every pair within 7 bits does)."""
    pairs: set[tuple[int, int]] = set()
    for band in range(8):
        buckets: dict[int, list[int]] = defaultdict(list)
        for i, p in enumerate(prints):
            buckets[(p.bits >> (8 * band)) & 0xFF].append(i)
        for rows in buckets.values():
            if len(rows) > 1:
                pairs.update((a, b) for k, a in enumerate(rows) for b in rows[k + 1 :])
    return pairs
