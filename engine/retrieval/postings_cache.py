"""Postings of recently queried terms, held in memory, and the top-k scoring over them.

Measured at 100k chunks (bench/compare.py and docs/search-latency.md): a keyword query's time in DuckDB
went to scanning whole row groups of the term-sorted postings table (four terms with 21k postings read
491k rows) and then grouping them, while LanceDB's native FTS answered the same query 2.5× faster.
Here a term's postings are read once as two arrays (chunk ids, BM25 impacts) and kept; a query sums the
impacts of its terms with numpy and keeps the k best, and only those k chunks are read back from
DuckDB (path, index, text: point reads by id). A scope is applied to the postings themselves, before
the sum, so a scoped query does less work than an unscoped one, not more.

Staleness is ruled out by generations: every write that changes a term's postings marks the term
changed at a new generation once its transaction has committed; an entry read at an older generation
than its term's last change is never stored, and a change drops the term's entry. Memory is bounded by
`max_postings` (least recently used terms go first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

import numpy as np

Postings = tuple[np.ndarray, np.ndarray]  # (chunk ids int64, impacts float32), one term
MAX_POSTINGS = 4_000_000  # ~48 MB of ids and impacts; at 1M chunks the ~1,000 most frequent terms


class PostingsCache:
    """Term id → its postings, with generation checks against concurrent writes (module docstring)."""

    def __init__(self, max_postings: int = MAX_POSTINGS):
        self.max_postings = max_postings
        self._lock = threading.Lock()
        self._entries: OrderedDict[int, Postings] = OrderedDict()
        self._size = 0
        self._generation = 0
        self._changed_at: dict[int, int] = {}
        self._all_changed_at = 0

    def generation(self) -> int:
        """Read before fetching from the store; pass to `put` afterwards."""
        with self._lock:
            return self._generation

    def get_many(self, tids: Iterable[int]) -> dict[int, Postings]:
        with self._lock:
            found = {}
            for tid in tids:
                entry = self._entries.get(tid)
                if entry is not None:
                    self._entries.move_to_end(tid)
                    found[tid] = entry
            return found

    def put(self, tid: int, postings: Postings, read_at: int) -> None:
        """Keep `postings` unless the term changed after generation `read_at` (then they may be stale)."""
        size = len(postings[0])
        if size > self.max_postings:
            return
        with self._lock:
            if read_at < max(self._changed_at.get(tid, 0), self._all_changed_at) or tid in self._entries:
                return
            self._entries[tid] = postings
            self._size += size
            while self._size > self.max_postings:
                _, (ids, _) = self._entries.popitem(last=False)
                self._size -= len(ids)

    def changed(self, tids: Iterable[int] | None) -> None:
        """Call after a committed (or rolled back) write: these terms' postings changed (None: all of
        them)."""
        with self._lock:
            self._generation += 1
            if tids is None:
                self._all_changed_at = self._generation
                self._changed_at.clear()
                self._entries.clear()
                self._size = 0
                return
            for tid in tids:
                self._changed_at[tid] = self._generation
                entry = self._entries.pop(tid, None)
                if entry is not None:
                    self._size -= len(entry[0])


def split_by_term(tids: np.ndarray, ids: np.ndarray, weights: np.ndarray) -> dict[int, Postings]:
    """Rows (tid, chunk id, impact) of several terms, as one (ids, impacts) pair per term."""
    order = np.argsort(tids, kind="stable")
    tids, ids, weights = tids[order], ids[order], weights[order]
    starts = np.flatnonzero(np.r_[True, tids[1:] != tids[:-1]]) if len(tids) else np.array([], dtype=np.int64)
    ends = np.r_[starts[1:], len(tids)]
    return {int(tids[s]): (ids[s:e], weights[s:e]) for s, e in zip(starts, ends, strict=False)}


def top_k(
    postings: Sequence[Postings], k: int, allowed: Callable[[np.ndarray], np.ndarray] | None = None
) -> list[tuple[int, float]]:
    """The k chunks with the highest summed impact, best first, ties by chunk id (as the SQL ordered
    them). `allowed` maps an array of chunk ids to a boolean mask (the scope), applied before summing."""
    if not postings or k <= 0:
        return []
    ids = np.concatenate([p[0] for p in postings])
    weights = np.concatenate([p[1] for p in postings]).astype(np.float64)
    if allowed is not None and len(ids):
        keep = allowed(ids)
        ids, weights = ids[keep], weights[keep]
    if not len(ids):
        return []
    unique, scores = _sums(ids, weights)
    if len(unique) > k:
        # everything scoring at least the k-th best, so ties at the boundary are broken by id below
        kth = np.partition(scores, len(scores) - k)[len(scores) - k]
        candidates = np.flatnonzero(scores >= kth)
    else:
        candidates = np.arange(len(unique))
    order = np.lexsort((unique[candidates], -scores[candidates]))[:k]
    chosen = candidates[order]
    return [(int(unique[i]), float(scores[i])) for i in chosen]


def _sums(ids: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct chunk id (ascending) and the sum of its impacts, each sum taken in input order.

    Two ways, by how densely the ids cover their range (measured with numpy on 100k and 1M ids, CPU
    time): when the postings hold at least half as many entries as the range has ids (a query of
    frequent terms), one bincount over the range is 3-8x faster than sorting; otherwise a stable sort,
    which merges the terms' id-sorted runs instead of sorting from scratch (1.3-2.4x faster than the
    np.unique this replaced). Both add each chunk's impacts in input order, so they agree to the bit."""
    low = int(ids.min())
    span = int(ids.max()) - low + 1
    if 2 * len(ids) >= span:
        offsets = ids - low
        present = np.flatnonzero(np.bincount(offsets, minlength=span))
        return present + low, np.bincount(offsets, weights=weights, minlength=span)[present]
    order = np.argsort(ids, kind="stable")
    ordered = ids[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    return ordered[starts], np.add.reduceat(weights[order], starts)
