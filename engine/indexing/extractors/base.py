"""The two small types every format reader shares: a text budget and the metadata it returns.

A reader never builds an unbounded string: it feeds pieces to a `TextBudget`, which keeps at most
`limit` characters and tells the reader when to stop, so a huge spreadsheet or PDF costs no more than
its first million characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class NotText(Exception):
    """Raised by a reader when the bytes are not text (the file is catalogued by name only)."""


@dataclass(frozen=True)
class ReadMeta:
    """What a reader learned besides the text: the document's own title and a note for the person."""

    title: str | None = None
    note: str | None = None


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
    """A metadata title as a stripped string, or None when it is missing or blank."""
    if value is None:
        return None
    title = " ".join(str(value).split())
    return title or None
