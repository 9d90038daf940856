"""What the generator decides before it writes a byte: entries, their lineage, and the labels.

An `Entry` is one file: its relative path, its format, the text its extractor gives back (None for
pictures and binaries), the date it was last touched and its lineage (`doc`): every copy, re-save or
"(1)" of one document shares the lineage, so a query that means the document is answered by any of
them. The `Plan` gathers entries and the label groups as the writers of each folder add them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass
class Entry:
    path: str
    fmt: str  # txt md docx pdf csv jpg png bin
    text: str | None
    when: datetime
    doc: str
    copy_of: str | None = None  # identical bytes of that path
    image: tuple[int, int, int] | None = None  # (pixel seed, width, height)
    shrink_of: str | None = None  # a re-encoded, resized copy of that picture
    size: int = 0  # random binaries: their length


@dataclass
class Plan:
    rng: random.Random
    size: str
    entries: dict[str, Entry] = field(default_factory=dict)
    exact: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    near: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    versions: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    series: list[tuple[str, ...]] = field(default_factory=list)
    unhelpful: set[str] = field(default_factory=set)
    conventional: set[str] = field(default_factory=set)
    misplaced: dict[str, str] = field(default_factory=dict)
    # paraphrases and the lineages (documents) that answer them
    meanings: list[tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)

    @property
    def full(self) -> bool:
        return self.size == "full"

    def n(self, full: int, small: int) -> int:
        """How many of a thing this size holds: the full folder's count, or the small one's."""
        return full if self.full else small

    def add(
        self, path: str, fmt: str, text: str | None, when: datetime, doc: str | None = None, **extra: object
    ) -> Entry:
        if path in self.entries:
            raise ValueError(f"two entries at {path}")
        entry = Entry(path, fmt, text, when, doc or path, **extra)  # type: ignore[arg-type]
        self.entries[path] = entry
        return entry

    def copy(self, src: str, dst: str, when: datetime) -> Entry:
        """An identical copy (same bytes) of `src` at `dst`; the filed `src` is the one to keep."""
        base = self.entries[src]
        entry = self.add(dst, base.fmt, base.text, when, base.doc, copy_of=src)
        self.exact.append(((src, dst), src))
        return entry

    def near_copy(self, src: str, dst: str, text: str, when: datetime, fmt: str | None = None) -> Entry:
        """The same document slightly changed (a line added, re-saved in another format)."""
        base = self.entries[src]
        entry = self.add(dst, fmt or base.fmt, text, when, base.doc)
        self.near.append(((src, dst), src))
        return entry

    def mean(self, paraphrases: tuple[str, ...], *docs: str) -> None:
        self.meanings.append((paraphrases, docs))

    def day(self, year: int, month: int, day: int, hour: int | None = None) -> datetime:
        """A timestamp on that day at a drawn working hour, so times are not all midnight."""
        hour = self.rng.randint(8, 21) if hour is None else hour
        return datetime(year, month, day, hour, self.rng.randint(0, 59), self.rng.randint(0, 59))

    def later(self, when: datetime, lo_days: int, hi_days: int) -> datetime:
        return when + timedelta(days=self.rng.randint(lo_days, hi_days), minutes=self.rng.randint(1, 600))
