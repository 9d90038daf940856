"""Cut extracted text into overlapping chunks that respect the text's own structure.

Text is split at the coarsest boundary that works — paragraphs, then lines, then sentences, then
words, and only for a "word" longer than a chunk, a hard character window — and the pieces are packed
greedily up to `max_chars`. Each new chunk starts with about `overlap` characters from the end of the
previous one (cut on a word boundary), so a fact that straddles a boundary is still found whole.
Pieces are at most `max_chars - overlap` long, which leaves room for the overlap, and no chunk is ever
longer than `max_chars`. The output depends only on the input: the same text gives the same chunks.
Lines sit between paragraphs and sentences because code, CSV and lists have lines but few full stops.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import InvalidInput

DEFAULT_MAX_CHARS = 1200
DEFAULT_OVERLAP = 150

# Each level's pattern captures the separator, so re.split returns text, separator, text, …
_LEVELS = (
    re.compile(r"(\n[^\S\n]*\n\s*)"),  # blank line: paragraph
    re.compile(r"(\n\s*)"),  # line
    re.compile(r"((?<=[.!?…;:])\s+|(?<=[。！？；]))"),  # sentence (and clause for very long ones)
    re.compile(r"(\s+)"),  # word
)
_WHITESPACE = re.compile(r"\s")
_CJK_SENTENCE_END = re.compile(r"[。！？]")


@dataclass(frozen=True)
class _Piece:
    text: str
    joiner: str  # what separated it from the previous piece in the source: "\n\n", "\n", " " or ""


def chunk_text(text: str, max_chars: int = DEFAULT_MAX_CHARS, overlap: int = DEFAULT_OVERLAP) -> list[str]:
    """Chunks of at most `max_chars` characters, never empty, with ~`overlap` characters carried over."""
    if max_chars < 1 or not 0 <= overlap < max_chars:
        raise InvalidInput(
            "Chunk sizes must satisfy max_chars >= 1 and 0 <= overlap < max_chars "
            f"(got {max_chars}, {overlap})"
        )
    text = text.strip()
    if not text:
        return []
    if len(text) <= max_chars:
        return [text]
    pieces = _split(text, "", max_chars - overlap, level=0)
    return _pack(pieces, max_chars, overlap)


def _split(text: str, joiner: str, limit: int, level: int) -> list[_Piece]:
    """`text` as pieces of at most `limit` characters, split at the coarsest boundary available."""
    if len(text) <= limit:
        return [_Piece(text, joiner)]
    if level == len(_LEVELS):
        return [_Piece(text[i : i + limit], joiner if i == 0 else "") for i in range(0, len(text), limit)]
    pieces: list[_Piece] = []
    pending = ""  # the separator text seen since the last piece
    for index, part in enumerate(_LEVELS[level].split(text)):
        if index % 2:
            pending += part
        elif part.strip():
            piece_joiner = _normalised(pending) if pieces else joiner
            pieces.extend(_split(part.strip(), piece_joiner, limit, level + 1))
            pending = ""
    return pieces


def _normalised(separator: str) -> str:
    newlines = separator.count("\n")
    if newlines >= 2:
        return "\n\n"
    return "\n" if newlines else (" " if separator else "")


def _pack(pieces: list[_Piece], max_chars: int, overlap: int) -> list[str]:
    chunks: list[str] = []
    current = ""
    for piece in pieces:
        if not current:
            current = piece.text
        elif len(current) + len(piece.joiner) + len(piece.text) <= max_chars:
            current += piece.joiner + piece.text
        else:
            chunks.append(current)
            tail = _overlap_tail(current, min(overlap, max_chars - len(piece.text) - len(piece.joiner)))
            current = tail + piece.joiner + piece.text if tail else piece.text
    if current:
        chunks.append(current)
    return [chunk.strip() for chunk in chunks if chunk.strip()]


def _overlap_tail(chunk: str, limit: int) -> str:
    """The last `limit` characters or fewer of `chunk`, starting at the beginning of a word."""
    if limit <= 0:
        return ""
    if len(chunk) <= limit:
        return chunk.strip()
    start = len(chunk) - limit
    if not chunk[start - 1].isspace():
        boundary = _WHITESPACE.search(chunk, start)
        if boundary is not None:
            start = boundary.end()
        elif _is_cjk(chunk[start]):
            sentence_end = _CJK_SENTENCE_END.search(chunk, start, len(chunk) - 1)
            start = sentence_end.end() if sentence_end else start
        else:
            return ""  # one long word: no boundary to start the overlap on
    return chunk[start:].strip()


def _is_cjk(char: str) -> bool:
    """Scripts written without spaces, where any character boundary is a word boundary."""
    return "\u2e80" <= char <= "\u9fff" or "\uac00" <= char <= "\ud7af" or "\uf900" <= char <= "\ufaff"
