"""A size check for zip-based documents (DOCX, XLSX, PPTX, ODF, EPUB) before any parser opens them.

The readers build whole XML trees: python-docx parses all of `word/document.xml` before the text budget
can stop it, so a 1.4 MB DOCX whose XML inflates to 359 MB cost 1.6 GB of memory (and, where memory
ran out, killed the process on the same file at every start). `max_file_mb` only sees the compressed
size. The zip's central directory states every member's inflated size (`ZipInfo.file_size`) without
inflating anything, so the check is free:

* the markup a parser builds a tree from (XML, HTML, relationships…) may inflate to `MAX_MARKUP_BYTES`
  (parts a reader streams, such as XLSX worksheets under openpyxl's read-only mode, do not count);
* everything together (media included, which the Office readers load as blobs) to `MAX_ARCHIVE_BYTES`;
* a member of at least `RATIO_FLOOR_BYTES` packed tighter than `MAX_RATIO`:1 is a bomb, not a document
  (real document XML deflates 5–30:1; deflate itself cannot exceed ~1030:1).

The stated sizes can lie; zipfile then stops reading a member at its stated size ("Bad CRC" or a short
read), so a member never inflates past what was checked here.
"""

from __future__ import annotations

import os
import zipfile

from engine.errors import ExtractionError

MAX_MARKUP_BYTES = 100_000_000
MAX_ARCHIVE_BYTES = 1_000_000_000
MAX_RATIO = 100
RATIO_FLOOR_BYTES = 1_000_000
MAX_MEMBERS = 20_000
_MEDIA_EXTENSIONS = frozenset(
    (  # blobs the readers hold as bytes, never parse into a tree
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".bmp",
        ".tif",
        ".tiff",
        ".webp",
        ".emf",
        ".wmf",
        ".ico",
        ".heic",
        ".jfif",
        ".wdp",
        ".mp3",
        ".mp4",
        ".m4a",
        ".m4v",
        ".mov",
        ".avi",
        ".wav",
        ".wmv",
        ".mpg",
        ".mpeg",
        ".ogg",
        ".webm",
        ".ttf",
        ".otf",
        ".woff",
        ".woff2",
        ".odttf",
        ".fntdata",
        ".bin",
        ".jar",
        ".zip",
        ".pdf",
    )
)


def check_archive(path: str, label: str, streamed: str | None = None) -> None:
    """Raise ExtractionError (with the figures) when the archive at `path` would inflate past the limits.
    Members whose name starts with `streamed` are read piecewise by their reader, so only the total and
    ratio limits apply to them."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except zipfile.BadZipFile as exc:
        raise ExtractionError(f"Damaged {label}: not a valid zip archive") from exc
    if len(members) > MAX_MEMBERS:
        raise ExtractionError(
            f"This {label} holds {len(members):,} parts (limit {MAX_MEMBERS:,}), so it is not read; "
            "it may be a zip bomb"
        )
    markup = total = 0
    for member in members:
        total += member.file_size
        if not _is_media(member.filename) and not (streamed and member.filename.startswith(streamed)):
            markup += member.file_size
        if member.file_size >= RATIO_FLOOR_BYTES and member.file_size > MAX_RATIO * max(
            member.compress_size, 1
        ):
            ratio = member.file_size / max(member.compress_size, 1)
            raise ExtractionError(
                f"{member.filename} in this {label} is compressed {ratio:,.0f}:1 "
                f"({_mb(member.file_size)} from {_mb(member.compress_size)}), which only zip bombs do, "
                "so it is not read"
            )
    if markup > MAX_MARKUP_BYTES:
        raise ExtractionError(
            f"This {label} would inflate to {_mb(markup)} of document markup (limit "
            f"{_mb(MAX_MARKUP_BYTES)}), so it is not read; it may be a zip bomb"
        )
    if total > MAX_ARCHIVE_BYTES:
        raise ExtractionError(
            f"This {label} would inflate to {_mb(total)} (limit {_mb(MAX_ARCHIVE_BYTES)}), so it is not read"
        )


def _is_media(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in _MEDIA_EXTENSIONS


def _mb(size: int) -> str:
    if size < 1_000_000:
        return f"{size / 1000:,.0f} KB"
    return f"{size / 1_000_000:,.1f} MB"
