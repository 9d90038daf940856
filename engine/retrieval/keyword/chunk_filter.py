"""Which chunk ids a keyword query may return: not removed since the last compaction, and inside its scope.

Two costs this module takes out of the keyword index (measured at 100k chunks, docs/search-latency.md):

- **Removing a file scanned the whole postings table twice** (once to count the terms whose document
  frequency drops, once to delete the rows): 43 ms at 100k chunks, ten times that at 1M. Now a removed
  chunk's postings stay where they are, its id is written to the `dead` table and kept here, and every
  query masks those ids out of the postings before summing them. `refresh_weights()` (the background
  compaction) deletes the orphaned postings in one pass and forgets the ids.
- **A scoped query read the chunk ids of its folder with a scan of every chunk path** on every query
  (6 ms at 100k, so a scoped query cost more than an unscoped one). The ids of recent scopes are kept
  here, keyed by the index's write generation, so a repeated scope (the open folder) costs nothing until
  the next write; the mask is applied to the postings before the sum, so a scoped query sums less.

The scope mask is applied to the concatenated postings of the query's terms, before `top_k` sums them; the
dead ids are dropped from the summed chunks (one binary search per dead id, not one per posting).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable

import numpy as np

Mask = Callable[[np.ndarray], np.ndarray]
SCOPES_KEPT = 16


class ChunkFilter:
    """Dead chunk ids (removed, postings not yet compacted) and the chunk ids of recently queried scopes."""

    def __init__(self, dead: Iterable[int] = ()):
        self._lock = threading.Lock()
        self._dead = np.unique(np.fromiter(dead, dtype=np.int64))
        self._scopes: OrderedDict[str, tuple[int, np.ndarray]] = OrderedDict()

    @property
    def dead_count(self) -> int:
        return len(self._dead)

    def bury(self, ids: np.ndarray) -> None:
        """These chunks were removed (call after the removing transaction committed). The few new ids are
        placed into the sorted array by binary search: `union1d` sorted all of it again with every write,
        6.95 ms a write at 50k waiting ids, 0.055 ms now (at 1M chunks the refresh comes at 5% changed,
        ~25k ids)."""
        if len(ids):
            new = np.unique(np.asarray(ids, dtype=np.int64))
            with self._lock:
                dead = self._dead
                at = np.searchsorted(dead, new)
                present = at < len(dead)
                present[present] = dead[at[present]] == new[present]
                self._dead = np.insert(dead, at[~present], new[~present])

    def compacted(self) -> None:
        """The postings of every dead chunk were deleted: nothing needs masking any more."""
        with self._lock:
            self._dead = np.zeros(0, np.int64)

    def scope_ids(self, scope: str, generation: int) -> np.ndarray | None:
        """The chunk ids of `scope` read at this write generation, or None when they must be read again."""
        with self._lock:
            kept = self._scopes.get(scope)
            if kept is None or kept[0] != generation:
                return None
            self._scopes.move_to_end(scope)
            return kept[1]

    def keep_scope(self, scope: str, generation: int, ids: np.ndarray) -> np.ndarray:
        """Keep the chunk ids of `scope` read at `generation`; returns them sorted (what `mask` takes)."""
        inside = np.sort(np.asarray(ids, dtype=np.int64))
        with self._lock:
            self._scopes[scope] = (generation, inside)
            self._scopes.move_to_end(scope)
            while len(self._scopes) > SCOPES_KEPT:
                self._scopes.popitem(last=False)
        return inside

    @property
    def dead(self) -> np.ndarray:
        """The dead chunk ids, sorted (top_k drops them from its sums, not from the postings)."""
        return self._dead

    def scope_mask(self, inside: np.ndarray | None) -> Mask | None:
        """A mask over chunk ids that keeps those in `inside` (sorted); None when there is no scope.

        Dead ids are not masked here: masking them in the postings searched every posting of the query in
        the dead ids, 6-15 ms CPU for a 430k-posting query at 1M chunks with 1,045 dead (bench/compare.py's
        kept store, load 0.9), where top_k drops them from the summed chunks in well under 1 ms."""
        if inside is None:
            return None

        def allowed(ids: np.ndarray) -> np.ndarray:
            return _member(ids, inside)

        return allowed


def _member(ids: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """`np.isin(ids, sorted_set)` by binary search (the set is sorted and usually far smaller)."""
    if not len(sorted_set):
        return np.zeros(len(ids), dtype=bool)
    at = np.searchsorted(sorted_set, ids)
    at[at == len(sorted_set)] = 0
    inside: np.ndarray = sorted_set[at] == ids
    return inside
