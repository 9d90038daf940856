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

The stated sizes can lie, and zipfile does not protect against it: it stops *returning* a member at its
stated size, but a reader's `read()` inflates each compressed block in one call with no output limit, so
a DOCX whose directory says 400 KB for an XML that inflates to 300 MB peaked at 640 MB before failing
(issue 31, N4: 2.46 GB from a 1.96 MB file). So every member a reader reads whole is also inflated here,
in 64 KiB steps with the output capped at its stated size plus one byte (`verify_sizes`): a member that
gives more than it states is refused before any parser opens the file. Parts a reader streams are read
in small steps by zipfile itself and are not inflated here. Members use deflate or no compression
(documents use nothing else); another method is refused.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from typing import BinaryIO

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
    whole = [m for m in members if not (streamed and m.filename.startswith(streamed))]
    verify_sizes(path, label, whole)


STEP = 64 * 1024


def verify_sizes(path: str, label: str, members: list[zipfile.ZipInfo]) -> None:
    """Inflate each member in bounded steps and refuse the file when one gives more than it states."""
    with open(path, "rb") as raw:
        for member in members:
            if member.compress_type == zipfile.ZIP_STORED:
                continue  # read as stored: never more than its compressed size
            if member.compress_type != zipfile.ZIP_DEFLATED:
                raise ExtractionError(
                    f"{member.filename} in this {label} uses a compression documents do not use, so it is "
                    "not read"
                )
            if _inflated_size(raw, member, member.file_size + 1) > member.file_size:
                raise ExtractionError(
                    f"{member.filename} in this {label} inflates to more than the {_mb(member.file_size)} "
                    "its archive states, which only zip bombs do, so it is not read"
                )


def _inflated_size(raw: BinaryIO, member: zipfile.ZipInfo, cap: int) -> int:
    """How many bytes the member's deflate stream gives, counting no further than `cap`."""
    raw.seek(member.header_offset)
    header = raw.read(30)
    if len(header) < 30 or header[:4] != b"PK\x03\x04":
        raise ExtractionError(f"Damaged archive: no local header for {member.filename}")
    name_len, extra_len = int.from_bytes(header[26:28], "little"), int.from_bytes(header[28:30], "little")
    raw.seek(member.header_offset + 30 + name_len + extra_len)
    inflate, left, given = zlib.decompressobj(-15), member.compress_size, 0
    pending = b""
    while given < cap and not inflate.eof:
        if not pending:
            if left <= 0:
                break
            pending = raw.read(min(STEP, left))
            left -= len(pending)
            if not pending:
                break
        try:
            out = inflate.decompress(pending, min(STEP, cap - given))
        except zlib.error as exc:
            raise ExtractionError(f"Damaged archive: {member.filename} cannot be inflated") from exc
        pending = inflate.unconsumed_tail
        given += len(out)
    return given


def _is_media(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in _MEDIA_EXTENSIONS


def _mb(size: int) -> str:
    if size < 1_000_000:
        return f"{size / 1000:,.0f} KB"
    return f"{size / 1_000_000:,.1f} MB"
