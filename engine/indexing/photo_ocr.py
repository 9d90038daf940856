"""Text in photos: a photo is read by OCR only when a quick look finds text in it.

Most photos hold no text, and reading one at full size costs a core seconds. So each photo is first read
small (its longer side at CHECK_SIDE pixels) in Tesseract's sparse-text mode, and only when that finds
CHECK_WORDS confident words (letters, 3 or more, confidence at least CONFIDENCE) is it read at full size
(at most READ_PIXELS). Only confident words are kept, line by line: a photo's texture read as text is
noise, not words. bench/photo_text.py measures the check on generated and real photos (tests/data/photos/)
with and without text (docs/indexing.md).

Decoding is bounded: a JPEG is decoded already reduced (Pillow's draft mode, libjpeg's DCT scaling), so a
100-megapixel JPEG costs a few megapixels; any other format decodes whole, so one over DECODE_PIXELS is not
read for text and says why (a 100-megapixel PNG would take 300-400 MB).
"""

from __future__ import annotations

import math
import os
import warnings

from engine.errors import ExtractionError
from engine.indexing import ocr
from engine.indexing.metadata import PHOTOS

PHOTO_PAGES = (0,)  # a photo is one "page" in the OCR cache
CHECK_SIDE = 1280
CONFIDENCE = 60.0
CHECK_WORDS = 3  # bench/photo_text.py: without text 0-2 (2 once, leaves; 14 real photos: 0), with text 3-558
READ_PIXELS = 4_000_000  # text in a photo is large; 12 megapixels of leaves took Tesseract over 60 s
MIN_PIXELS = 40_000  # an icon or thumbnail (under 200 × 200) holds no text worth an OCR
DECODE_PIXELS = 36_000_000  # an 8K screenshot is 33 megapixels; a camera JPEG is drafted, never decoded whole
MAX_CHARS = 4_000
NO_TEXT = "No text in the picture (a quick OCR look found none)"


def is_photo(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in PHOTOS


def read_photo(path: str, seconds: float = ocr.PAGE_SECONDS) -> tuple[str, str | None]:
    """(the confident words in the photo, line by line, and None), or ("", why there are none)."""
    small = shrink(load(path, CHECK_SIDE * CHECK_SIDE), CHECK_SIDE)
    if small.width * small.height < MIN_PIXELS or not holds_text(small, seconds):
        return "", NO_TEXT
    text = full_read(path, seconds)
    return (text, None) if text else ("", NO_TEXT)


def full_read(path: str, seconds: float = ocr.PAGE_SECONDS) -> str:
    """The confident words of the photo read at up to READ_PIXELS, line by line (no look first)."""
    read = ocr.run(shrink_to(load(path, READ_PIXELS), READ_PIXELS), ["--psm", "11", "tsv"], seconds)
    return "\n".join(" ".join(words) for words in confident_lines(read))[:MAX_CHARS]


def holds_text(small, seconds: float = ocr.PAGE_SECONDS) -> bool:
    """The quick look: CHECK_WORDS confident words in the photo read small."""
    return look_words(small, seconds) >= CHECK_WORDS


def look_words(small, seconds: float = ocr.PAGE_SECONDS) -> int:
    """How many confident, word-like words Tesseract's sparse-text mode finds in the small photo."""
    return sum(len(line) for line in confident_lines(ocr.run(small, ["--psm", "11", "tsv"], seconds)))


def load(path: str, pixels: int, mode: str = "L"):  # -> PIL.Image.Image, upright, bounded (docstring)
    from PIL import Image

    try:
        with warnings.catch_warnings():  # a huge image warns: its decoding is bounded here instead
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                return _decoded(image, pixels, mode)
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise ExtractionError(f"The picture could not be decoded ({exc})") from exc


def _decoded(image, pixels: int, mode: str):
    from PIL import ImageOps

    width, height = image.size
    if image.format == "JPEG":
        image.draft(mode, fitted(width, height, pixels))  # at least this size, at 1/2, 1/4 or 1/8
    elif width * height > DECODE_PIXELS:
        raise ExtractionError(
            f"The picture is too large to read for text ({width * height / 1e6:.0f} megapixels; "
            f"pictures over {DECODE_PIXELS // 1_000_000} are not decoded whole)"
        )
    return ImageOps.exif_transpose(image).convert(mode)


def fitted(width: int, height: int, pixels: int) -> tuple[int, int]:
    ratio = min(1.0, math.sqrt(pixels / max(1, width * height)))
    return max(1, int(width * ratio)), max(1, int(height * ratio))


def shrink_to(image, pixels: int):
    """The image with at most `pixels` pixels."""
    width, height = fitted(image.width, image.height, pixels)
    return image if width >= image.width else image.resize((width, height))


def shrink(image, side: int):
    """The image with its longer side at most `side` pixels."""
    ratio = side / max(image.width, image.height)
    if ratio >= 1:
        return image
    return image.resize((max(1, int(image.width * ratio)), max(1, int(image.height * ratio))))


def confident_lines(tsv: str) -> list[list[str]]:
    """The words of Tesseract's TSV output that are confident and look like words, grouped by line."""
    lines: dict[tuple[str, ...], list[str]] = {}
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5":  # level 5: a word
            continue
        word = cells[11].strip()
        try:
            confidence = float(cells[10])
        except ValueError:
            continue
        if confidence >= CONFIDENCE and looks_like_word(word):
            lines.setdefault(tuple(cells[1:5]), []).append(word)
    return list(lines.values())


def looks_like_word(word: str) -> bool:
    """Three or more letters or digits, mostly letters or digits (not `|||` or `~-=` from a texture)."""
    alnum = sum(c.isalnum() for c in word)
    return alnum >= 3 and alnum >= 0.7 * len(word) and any(c.isalpha() for c in word)
