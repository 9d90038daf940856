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

Beneath the LRU entries lies the snapshot of the rarer terms' postings read in the background
(resident_postings.py), by the same rule: a term changed after the snapshot's generation is not answered
from it, and a change of every term drops it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from engine.retrieval.keyword.resident_postings import Resident

Postings = tuple[np.ndarray, np.ndarray]  # (chunk ids int32, or int64 past 2^31; impacts float32), one term
# ~64 MB of 4-byte ids and impacts. At 1M chunks bench/compare.py's 200 queries use 680 terms holding 19.2M
# postings, and a miss of one frequent term re-reads up to 645k rows (12-20 ms CPU): 4M postings of 8-byte
# ids (48 MB) missed in the warm pass; twice the postings in a third more memory miss less.
MAX_POSTINGS = 8_000_000
INT32_IDS = np.iinfo(np.int32).max
DENSE_SHARE = 8  # _sums takes the bincount over the id range when it is at most 8x the postings
SAMPLE_STRIDE = 64  # top_k bounds the k-th best score by the k-th best of every 64th score (_best_k)


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
        self._resident: Resident | None = None

    def generation(self) -> int:
        """Read before fetching from the store; pass to `put` afterwards."""
        with self._lock:
            return self._generation

    def get_many(self, tids: Iterable[int]) -> dict[int, Postings]:
        with self._lock:
            found = {}
            resident = self._resident
            for tid in tids:
                entry = self._entries.get(tid)
                if entry is not None:
                    self._entries.move_to_end(tid)
                    found[tid] = entry
                elif resident is not None and self._changed_at.get(tid, 0) <= resident.read_at:
                    held = resident.postings(tid)
                    if held is not None:
                        found[tid] = held
            return found

    def term_ids(self, terms: Iterable[str]) -> dict[str, int | None] | None:
        """Each term's id from the snapshot (None: the corpus lacks it); None when there is no snapshot, or
        a term it lacks may have been added since it was read (resident_terms.py)."""
        with self._lock:
            resident, added = self._resident, self._generation
        if resident is None:
            return None
        found = {term: resident.terms.tid(term) for term in terms}
        if added > resident.read_at and None in found.values():
            return None
        return found

    def has_resident(self) -> bool:
        """Whether a snapshot of the rarer terms' postings is in place (resident_postings.py)."""
        return self._resident is not None

    def resident_nbytes(self) -> int:
        resident = self._resident
        return 0 if resident is None else resident.nbytes

    def install(self, resident: Resident) -> None:
        """Keep a snapshot read from generation `resident.read_at`, unless every term changed since."""
        with self._lock:
            if resident.read_at >= self._all_changed_at:
                self._resident = resident

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
                self._resident = None
                self._changed_at.clear()
                self._entries.clear()
                self._size = 0
                return
            for tid in tids:
                self._changed_at[tid] = self._generation
                entry = self._entries.pop(tid, None)
                if entry is not None:
                    self._size -= len(entry[0])


def compact_ids(ids: np.ndarray) -> np.ndarray:
    """Chunk ids as int32 when every one fits (ids come from a sequence, so they fit until two billion
    chunks have been written), halving the id memory of a cached term; otherwise unchanged (int64). The
    scoring handles both, and a query's terms may mix them."""
    if len(ids) and int(ids.max()) > INT32_IDS:
        return ids
    return ids.astype(np.int32)


def split_by_term(tids: np.ndarray, ids: np.ndarray, weights: np.ndarray) -> dict[int, Postings]:
    """Rows (tid, chunk id, impact) of several terms, as one (ids, impacts) pair per term.

    bm25.postings_sql reads one term after another, so the rows usually arrive grouped already: then
    the stable sort (which would leave them as they are) and its three gathers are skipped, which took
    3-10 ms CPU of a 430k-645k-row read at 1M chunks (load 3.8)."""
    if len(tids) > 1 and not bool((tids[1:] >= tids[:-1]).all()):
        order = np.argsort(tids, kind="stable")
        tids, ids, weights = tids[order], ids[order], weights[order]
    starts = np.flatnonzero(np.r_[True, tids[1:] != tids[:-1]]) if len(tids) else np.array([], dtype=np.int64)
    ends = np.r_[starts[1:], len(tids)]
    return {int(tids[s]): (ids[s:e], weights[s:e]) for s, e in zip(starts, ends, strict=False)}


def top_k(
    postings: Sequence[Postings],
    k: int,
    allowed: Callable[[np.ndarray], np.ndarray] | None = None,
    dead: np.ndarray | None = None,
) -> list[tuple[int, float]]:
    """The k chunks with the highest summed impact, best first, ties by chunk id (as the SQL ordered
    them). `allowed` maps an array of chunk ids to a boolean mask (the scope), applied before summing;
    `dead` (sorted ids) are never returned. A chunk's score is the sum of its own postings only, so
    dropping a dead chunk after the sum leaves every other score and the order as dropping its postings
    before it did."""
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
    if dead is not None and len(dead):
        scores[_positions(unique, dead)] = -np.inf  # below every live score, so chosen last and dropped
    chosen = _best_k(scores, k) if len(unique) > k else np.arange(len(unique))
    order = np.lexsort((unique[chosen], -scores[chosen]))[:k]
    return [(int(unique[i]), float(scores[i])) for i in chosen[order] if scores[i] != -np.inf]


def held_terms(postings: Sequence[Postings], winners: list[int]) -> dict[int, int]:
    """Chunk id -> how many of the terms' postings list it, for the (few) `winners` of `top_k`:
    coordination's share of the query (coordination.py), counted in the postings that scored them rather
    than by stemming each winner's text again after the vector arm (3-8 ms of the hybrid's p95 at 100k real
    chunks, issue 30). A term lists a chunk at most once, so that is how many terms hold it. A term's ids are
    ascending as written (a chunk id comes from a sequence), so each is a binary search of the winners
    in it, ~0.04 ms for 84k postings where one membership pass over them all took 0.23 (numpy's table
    `isin`); a term whose ids are not in order (checked, one vectorised comparison) takes that pass."""
    wanted = np.sort(np.asarray(winners, dtype=np.int64))
    counts = np.zeros(len(wanted), dtype=np.int64)
    for ids, _ in postings:
        if not len(ids):
            continue
        if len(ids) > 1 and not bool((ids[1:] >= ids[:-1]).all()):
            counts += np.isin(wanted, ids)
            continue
        fits = wanted <= np.iinfo(ids.dtype).max  # an id wider than the term's cannot be in it
        probe = wanted[fits].astype(ids.dtype)  # searched in the term's own dtype: no copy of the term
        at = np.minimum(np.searchsorted(ids, probe), len(ids) - 1)
        counts[fits] += ids[at] == probe
    return dict(zip(wanted.tolist(), counts.tolist(), strict=True))


def _positions(unique: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Where the ids of `wanted` (sorted) that occur in `unique` (ascending) are: a binary search per wanted
    id, in `unique`'s own dtype (searching int64 ids in int32 ones would copy the int32 array)."""
    if unique.dtype != wanted.dtype:
        wanted = wanted[wanted <= np.iinfo(unique.dtype).max].astype(unique.dtype)
    at = np.searchsorted(unique, wanted)
    found = at < len(unique)
    at, wanted = at[found], wanted[found]
    chosen: np.ndarray = at[unique[at] == wanted]
    return chosen


def _best_k(scores: np.ndarray, k: int) -> np.ndarray:
    """The positions of the k best scores, ties at the k-th broken by position (= chunk id: `_sums`
    returns ids ascending), in position order; `len(scores) > k`.

    Not `np.partition(scores, n - k)`: at 1M chunks a query dominated by one frequent term sums to few
    distinct scores (39 among 184k chunks), and numpy's introselect took 25.6 ms CPU on such runs of ties
    where a sort took 1.3 ms (load 2.0; that partition was 30 of a 36 ms top-k, the keyword arm's p95).
    So: the k-th best of every 64th score bounds the k-th best from below (a subset's k-th best is never
    above the whole's), the scores at or above that bound are the candidates (8k of the 184k), and a sort
    of the candidates gives the exact k-th best; the chosen are every score above it and the first ties
    at it, which is the set the id-ordered tie-break of the full sort chose."""
    sample = scores[::SAMPLE_STRIDE]
    candidates = np.flatnonzero(scores >= np.sort(sample)[-k]) if len(sample) >= k else np.arange(len(scores))
    kept = scores[candidates]
    kth = np.sort(kept)[len(kept) - k]
    above = candidates[kept > kth]
    ties = candidates[kept == kth][: k - len(above)]
    return np.concatenate([above, ties])


def _sums(ids: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct chunk id (ascending) and the sum of its impacts, each sum taken in input order.

    Two ways, by how densely the ids cover their range (CPU time, numpy 2.4): when the postings hold at
    least an eighth as many entries as the range has ids (a query of frequent terms), one bincount over
    the range; otherwise a stable sort, which merges the terms' id-sorted runs instead of sorting from
    scratch (1.3-2.4x faster than the np.unique this replaced). Four id-sorted terms over a 1M-id range
    (load 3.6): 125k postings bincount 1.6 ms vs sort 2.2, 250k 2.7 vs 5.0, 450k 8.6 vs 9.9; 60k 1.6 vs
    1.1 (the crossover; the bound was half the range, which sent a 428k-posting query at 1M chunks down
    the sort). Both add each chunk's impacts in input order; float32 impacts summed in float64 agree to
    the bit either way (tests/retrieval/test_keyword_scoring.py). The chunks present are marked in a
    boolean array, not found as the nonzero counts of a second bincount: `flatnonzero` over 1M int64
    counts took 5 ms more than over 1M booleans (a 644k-posting query: 16.5 ms CPU before, load 2.3)."""
    low = int(ids.min())
    span = int(ids.max()) - low + 1
    if DENSE_SHARE * len(ids) >= span:
        offsets = ids - low
        marked = np.zeros(span, dtype=bool)
        marked[offsets] = True
        present = np.flatnonzero(marked)
        return present + low, np.bincount(offsets, weights=weights, minlength=span)[present]
    order = np.argsort(ids, kind="stable")
    ordered = ids[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    return ordered[starts], np.add.reduceat(weights[order], starts)
