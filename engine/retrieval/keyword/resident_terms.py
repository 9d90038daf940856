"""Every term's id, kept beside the resident postings, so a query's new words need no term lookup.

A query's words new to the process cost one statement for their term rows (query_words._LOOKUP_SQL,
~0.4-0.6 ms CPU at 100k chunks, the second of a cold query's three; docs/keyword-first-read.md). A term's
id never changes while it exists, and its df is the number of its postings outside the removed chunks
(writes.live_df_sql: what every write keeps `terms.df` equal to, and what recovery recounts it to), which
the query reads anyway. So the background read of the postings (resident_postings.py) also takes every
term's id, in the same read transaction, and a query's terms are looked up here: by Python's string hash
(the process's own, as the snapshot lives only in it) in a sorted array, each hit checked against the
term's bytes, so the answer is exact. 25-30 bytes a term: ~5 MB for the 172k terms of 100k real chunks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TermIds:
    """term -> its id, for the terms the snapshot's `terms` table held."""

    hashes: np.ndarray  # int64 hash(term), ascending
    tids: np.ndarray  # int32, in the order of `hashes`
    starts: np.ndarray  # int64 offsets into `text`, one more than the terms
    text: bytes  # the terms' UTF-8, in the order of `hashes`

    @classmethod
    def of(cls, terms: Iterable[str], tids: np.ndarray) -> TermIds:
        words = list(terms)
        hashes = np.fromiter((hash(w) for w in words), dtype=np.int64, count=len(words))
        order = np.argsort(hashes, kind="stable")
        encoded = [words[i].encode() for i in order.tolist()]
        starts = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)), out=starts[1:])
        return cls(hashes[order], np.asarray(tids)[order].astype(np.int32), starts, b"".join(encoded))

    def tid(self, term: str) -> int | None:
        """The term's id, or None when the snapshot's table did not hold it."""
        h = hash(term)
        at = int(np.searchsorted(self.hashes, h))
        encoded = None
        while at < len(self.hashes) and self.hashes[at] == h:
            encoded = term.encode() if encoded is None else encoded
            if self.text[self.starts[at] : self.starts[at + 1]] == encoded:
                return int(self.tids[at])
            at += 1
        return None

    @property
    def nbytes(self) -> int:
        return int(self.hashes.nbytes + self.tids.nbytes + self.starts.nbytes + len(self.text))


NO_TERMS = TermIds(np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros(1, np.int64), b"")


def live_count(ids: np.ndarray, dead: np.ndarray) -> int:
    """How many of a term's postings' chunk ids are not in `dead` (sorted): its df."""
    if not len(dead) or not len(ids):
        return len(ids)
    at = np.searchsorted(dead, ids)
    at[at == len(dead)] = 0
    return len(ids) - int(np.count_nonzero(dead[at] == ids))
