"""The two small types every format reader shares: a text budget and the metadata it returns.

A reader never builds an unbounded string: it feeds pieces to a `TextBudget`, which keeps at most
`limit` characters and tells the reader when to stop, so a huge spreadsheet or PDF costs no more than
its first million characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class NotText(Exception):
    """Raised by a reader when the bytes are not text (the file is catalogued by name only)."""


@dataclass(frozen=True)
class ReadMeta:
    """What a reader learned besides the text: the document's own title and a note for the person."""

    title: str | None = None
    note: str | None = None
    scan_pages: tuple[int, ...] = ()  # pages (from 0) with no text layer: scans, for OCR (ocr_phase.py)


@dataclass
class TextBudget:
    """Collects text pieces up to `limit` characters; `truncated` once anything had to be left out."""

    limit: int
    truncated: bool = False
    _parts: list[str] = field(default_factory=list)
    _used: int = 0

    @property
    def exhausted(self) -> bool:
        return self.truncated or self._used >= self.limit

    def add(self, piece: str, sep: str = "\n") -> bool:
        """Append `piece` (after `sep` unless it is the first); False when the reader should stop."""
        if not piece:
            return not self.exhausted
        if self._used and sep:
            piece = sep + piece
        room = self.limit - self._used
        if len(piece) > room:
            self._parts.append(piece[:room])
            self._used = self.limit
            self.truncated = True
            return False
        self._parts.append(piece)
        self._used += len(piece)
        return True

    def mark_truncated(self) -> None:
        """The reader left part of the source unread (for example the tail of a huge text file)."""
        self.truncated = True

    def text(self) -> str:
        return "".join(self._parts)


def clean_title(value: object) -> str | None:
    """A metadata title as a stripped string, or None when it is missing, blank or junk (`is_junk_title`)."""
    if value is None:
        return None
    title = " ".join(str(value).split())
    return None if not title or is_junk_title(title) else title


_JUNK_TITLES = re.compile(
    r"""(?ix)^(?:
        untitled(?:[\s_-]*(?:\d+|document|presentation|spreadsheet|drawing|page|note|file|project))*
        (?:\.\w{1,5})?                                        # Untitled, Untitled-1, untitled.pdf
      | (?:microsoft\s+)?(?:office\s+)?(?:word|excel|powerpoint|publisher|visio)\s+-\s.*
      | (?:microsoft\s+)?(?:word|excel|powerpoint)\s+(?:document|presentation|workbook|worksheet)
      | (?:new\s+)?(?:document|doc|book|workbook|sheet|presentation|slide|folie|diapositive)\s*-?\s*\d*
      | (?:no\s+)?title | title\s+of\s+(?:the\s+)?document | (?:insert|your|enter)\s+title(?:\s+here)?
      | none | null | \(null\) | nil | unknown | n/?a | default | temp | tmp\w*
      | [^\s/\\]+\.(?:pdf|docx?|dotx?|xlsx?|pptx?|odt|ods|odp|rtf|txt|tex|dvi|ps|eps|indd|qxd|pages|key
                     |numbers|html?)                        # a bare file name
      | (?:[a-z]:[\\/]|[\\/]|~/|file:).*                      # a path the generator saw, not a title
    )$"""
)
_HAS_WORD = re.compile(r"[^\W_]", re.UNICODE)


def is_junk_title(title: str) -> bool:
    """A title a program filled in, not a person: `untitled`, `Microsoft Word - report.docx`, `Document1`,
    a bare file name or path, a placeholder, or nothing but punctuation. Such a title would lead the
    sense (`untitled: …`) and say nothing true about the file, so it is dropped."""
    return not _HAS_WORD.search(title) or _JUNK_TITLES.match(title.strip()) is not None
