"""A file as the keyword phase sees it before writing: is the version the catalog holds still current
(size and mtime, else the content hash), what are its chunk texts, and the record that waits for the
keyword write. Pure functions over the catalog's record and the disk, shared by the indexer, the
semantic phase and the re-embedding (they embed the same chunk inputs the indexer stored).
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from typing import TypeGuard

from engine.indexing.catalog import PENDING, SEARCHABLE, FileRecord, FileStatus
from engine.indexing.chunk import chunk_text
from engine.indexing.media_client import MediaEndpoint
from engine.indexing.qualify import Complete


@dataclass
class IndexOptions:
    """What the indexer reads from settings on every file (so a changed setting applies at once)."""

    max_file_bytes: int
    max_chars: int
    chunk_chars: int
    chunk_overlap: int
    qualify_prompt: str
    complete: Complete | None
    # the vision / transcription endpoints the person configured, by kind (media_phase.py); none: nothing sent
    media: dict[str, MediaEndpoint] = field(default_factory=dict)


def _indexed(known: FileRecord) -> bool:
    """The catalog holds this file's content (it was read and stored, not failed)."""
    return bool(known.hash) and known.status in SEARCHABLE


def same_version(known: FileRecord | None, st: os.stat_result) -> TypeGuard[FileRecord]:
    """Indexed, and the size and mtime are the ones recorded: nothing to read, not even a hash."""
    return known is not None and _indexed(known) and (known.size, known.mtime) == (st.st_size, st.st_mtime)


def same_content(known: FileRecord | None, digest: str) -> TypeGuard[FileRecord]:
    """Indexed with this very content (a touched or copied-back file): nothing to extract."""
    return known is not None and _indexed(known) and known.hash == digest


def chunk_inputs(
    name: str, sense: str, doc_type: str, text: str, opts: IndexOptions
) -> tuple[list[str], list[str]]:
    """(stored texts, embedded texts). Chunk #0 stores and embeds `[doc_type] sense` + its text; the
    others are embedded with a `file name · sense` prefix but stored clean for snippets and BM25."""
    pieces = chunk_text(text, opts.chunk_chars, opts.chunk_overlap) or [""]
    head = f"[{doc_type}] {sense}".strip()
    stored = [f"{head}\n\n{pieces[0]}".strip()] + pieces[1:]
    return stored, embed_inputs(name, sense, stored)


def embed_inputs(name: str, sense: str, stored: list[str]) -> list[str]:
    """What the model reads for stored chunks: #0 as stored, the others behind `file name · sense`."""
    prefix = f"{name} · {sense}".strip()
    return stored[:1] + [f"{prefix}\n{p}" for p in stored[1:]]


def had_vectors(known: FileRecord | None) -> bool:
    """An earlier version of the file was embedded (its vectors go before the new keyword rows land)."""
    return bool(known and known.status in SEARCHABLE and known.semantic != PENDING)


@dataclass
class Prepared:
    """A file read, qualified (extractively) and chunked, waiting for its keyword write."""

    path: str
    root: str
    size: int
    mtime: float
    hash: str
    sense: str
    doc_type: str
    stored: list[str]
    status: FileStatus
    note: str | None
    had_vectors: bool  # an earlier version's vectors must go before the new keyword rows land


def present(path: str) -> bool:
    """Like `os.path.lexists`, but a path the OS refuses to name (ENAMETOOLONG) is there, to be failed
    with its reason rather than forgotten as deleted."""
    try:
        os.lstat(path)
    except OSError as exc:
        return exc.errno == errno.ENAMETOOLONG
    except ValueError:  # an embedded NUL: no such file can exist
        return False
    return True
