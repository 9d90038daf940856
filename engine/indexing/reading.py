"""The text a reader (the agent's `read_file`) gets for a file: what indexing extracts, or lossy UTF-8.

Kept beside extraction so there is one policy for "what does this file say": PDF, DOCX and the rest
read through the same extractors the index uses; a file no extractor knows is decoded as UTF-8 with
replacement characters unless it looks like a real binary, whose bytes would only mislead a model.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import NotFound
from engine.indexing.extract import Extracted, extract

WithOcr = Callable[[str, Extracted, int], Extracted]  # scanned pages' cached OCR text joined in
WithMedia = Callable[[str, Extracted], Extracted]  # a photo's caption, a recording's transcript (cached)

LOSSY_READ_BYTES = 256_000
GARBAGE_SHARE = 0.05  # more replacement or control characters than this: a binary, not text


def readable_text(
    path: str, max_chars: int, with_ocr: WithOcr | None = None, with_media: WithMedia | None = None
) -> str:
    """The file's extracted text (with its scanned pages' OCR text once read, through `with_ocr`, and its
    caption or transcript once cached, through `with_media`), else its lossy UTF-8 text, else "" for a
    binary; NotFound if gone."""
    try:
        extracted = extract(path, max_chars=max_chars)
        if with_ocr is not None and extracted.scan_pages:
            extracted = with_ocr(path, extracted, max_chars)
        if with_media is not None:
            extracted = with_media(path, extracted)
    except FileNotFoundError as exc:
        raise NotFound(f'"{path}" does not exist.') from exc
    if extracted.text or extracted.doc_type != "binary":
        return extracted.text
    if extracted.about:  # a photo's EXIF, a song's tags: what SenseTree knows of it, in words
        return extracted.about
    with open(path, "rb") as handle:
        raw = handle.read(LOSSY_READ_BYTES)
    text = raw.decode("utf-8", errors="replace")
    garbage = sum(1 for c in text if c == "\ufffd" or (ord(c) < 32 and c not in "\t\n\r"))
    if b"\x00" in raw or garbage > GARBAGE_SHARE * max(len(text), 1):
        return ""
    return text
