"""The term counts of the chunk texts point writes wrote lately, so an edit's old text is not tokenised again.

A one-file update removes the file's changed chunks and counts the terms of their text to lower the
document frequencies (point.py). When a person saves a file again and again, that old text is the text this
process wrote at the file's previous save, and it was tokenised then. Remembered here, its counts come back
without the split, the lower-casing and the stem lookups of every word: ~0.4 ms of a 4-chunk real-text
update's ~3-5 ms of CPU at 100k chunks (docs/keyword-writes.md, Session 7). Each text also keeps its term
ids once looked up (point_terms.py), so neither its removal nor its writing again looks every term up in
the writer's dictionary of ~170k terms, whose entries are cold in the caches after other work.

Keyed by the text itself: a text's term counts are a pure function of it (the split, the stop words and the
stemmer are fixed), so an entry can never be stale, whatever was written, renamed or rolled back since, and
nothing needs forgetting. Its term ids are kept with the generation of the dictionary they were read from
and used only while that dictionary is loaded (point_terms.py). Only written texts are kept, the oldest
going first once KEPT_TEXTS are held.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import numpy as np

from engine.retrieval.keyword.point_tokens import Stems, term_counts

# Texts remembered: the files a person edits in turn. ~3.5 KB each on the real corpus (~1 KB of text, ~2.4 KB
# of counts and arrays, measured with tracemalloc over 2,000 chunks), so at most ~3.5 MB.
KEPT_TEXTS = 1_000


@dataclass(eq=False)
class Counted:
    """One text's terms: `counts` ({term: tf}, as `term_counts` gives them), the tfs in that order, the
    text's length (its number of kept words), and the term ids in that order as the writer's dictionary of
    `generation` had them (None until looked up; point_terms.py)."""

    counts: Counter[str]
    tfs: np.ndarray
    length: int
    tids: np.ndarray | None = None
    generation: int = -1

    @classmethod
    def of(cls, counts: Counter[str]) -> Counted:
        tfs = np.fromiter(counts.values(), np.int64, len(counts))
        return cls(counts, tfs, int(tfs.sum()))


class TextCounts:
    """text -> its `Counted` for texts point writes wrote lately (module docstring). Used under the index's
    write lock. The entries handed out are shared with the memo: callers only fill in their term ids."""

    def __init__(self, kept: int = KEPT_TEXTS) -> None:
        self._kept = kept
        self._counts: OrderedDict[str, Counted] = OrderedDict()

    def of(self, cur: duckdb.DuckDBPyConnection, texts: Sequence[str], stems: Stems) -> list[Counted]:
        """Each text's terms: remembered, or counted now (`term_counts`, one call for all the others)."""
        found = [self._counts.get(text) for text in texts]
        missing = [texts[i] for i, counted in enumerate(found) if counted is None]
        fresh = iter(term_counts(cur, missing, stems) if missing else ())
        return [counted if counted is not None else Counted.of(next(fresh)) for counted in found]

    def keep(self, texts: Sequence[str], counted: Sequence[Counted]) -> None:
        """Remember the terms of texts a write inserts (the texts a later edit of the file removes)."""
        for text, terms in zip(texts, counted, strict=True):
            self._counts[text] = terms
            self._counts.move_to_end(text)
        while len(self._counts) > self._kept:
            self._counts.popitem(last=False)
