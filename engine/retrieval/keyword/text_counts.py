"""The term counts of the chunk texts point writes wrote lately, so an edit's old text is not tokenised again.

A one-file update removes the file's changed chunks and counts the terms of their text to lower the
document frequencies (point.py). When a person saves a file again and again, that old text is the text this
process wrote at the file's previous save, and it was tokenised then. Remembered here, its counts come back
without the split, the lower-casing and the stem lookups of every word: ~0.2 ms of a 4-chunk real-text
update's ~3.3 ms of CPU at 100k chunks (docs/keyword-writes.md, Session 7).

Keyed by the text itself: a text's term counts are a pure function of it (the split, the stop words and the
stemmer are fixed), so an entry can never be stale, whatever was written, renamed or rolled back since, and
nothing needs forgetting. Only written texts are kept, the oldest going first once KEPT_TEXTS are held.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence

import duckdb

from engine.retrieval.keyword.point_tokens import Stems, term_counts

# Texts remembered (a chunk's ~1 KB of text and ~5 KB of counts each): the files a person edits in turn.
KEPT_TEXTS = 1_000


class TextCounts:
    """text -> {term: tf} of texts point writes wrote lately (module docstring). Used under the index's
    write lock. The counts handed out are shared with the memo: callers read them, never change them."""

    def __init__(self, kept: int = KEPT_TEXTS) -> None:
        self._kept = kept
        self._counts: OrderedDict[str, Counter[str]] = OrderedDict()

    def of(self, cur: duckdb.DuckDBPyConnection, texts: Sequence[str], stems: Stems) -> list[Counter[str]]:
        """Each text's term counts (`term_counts`'): remembered, or counted now in one call."""
        found = [self._counts.get(text) for text in texts]
        missing = [texts[i] for i, counts in enumerate(found) if counts is None]
        counted = iter(term_counts(cur, missing, stems) if missing else ())
        return [counts if counts is not None else next(counted) for counts in found]

    def keep(self, texts: Sequence[str], counts: Sequence[Counter[str]]) -> None:
        """Remember the counts of texts a write inserts (the texts a later edit of the file removes)."""
        for text, terms in zip(texts, counts, strict=True):
            self._counts[text] = terms
            self._counts.move_to_end(text)
        while len(self._counts) > self._kept:
            self._counts.popitem(last=False)
