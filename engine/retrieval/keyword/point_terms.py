"""A point write's terms as ids: each text's term ids, the terms new to the index, and the net change of
every document frequency, in numpy over ids (point.py's steps 2-3).

Until session 7 of issue 30 the df change was a Counter over term strings and every changed term, then
every new posting, was looked up in the writer's term -> id dictionary (~170k terms at 100k real chunks).
After other work (the bench interleaves SQLite FTS5's 60 ms replace) those lookups miss the caches: 0.21 ms
for ~600 changed terms where they took 0.06 warm. Now each text's ids are looked up once and kept with its
counts (text_counts.py), so an edit's old text and a text written again need no lookup at all.

Ids are exact while the dictionary they were read from is loaded: within one loaded dictionary a term's id
never changes (point writes only add terms), and `WriteState` starts a new generation whenever it loads
the dictionary again (after a rollback, a bulk write or a refresh, which may drop or renumber terms).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.retrieval.keyword.text_counts import Counted


def look_up(counted: Sequence[Counted], tids: dict[str, int], generation: int) -> None:
    """Give every text its term ids from `tids` (dictionary `generation`), -1 for a term `tids` lacks,
    unless it holds them from this generation already."""
    for text in counted:
        if text.tids is None or text.generation != generation:
            text.tids = _ids(text, tids)
            text.generation = generation


def new_terms(added: Sequence[Counted]) -> list[str]:
    """The terms of the added texts the dictionary lacks, sorted (they get ids in this order)."""
    return sorted(
        {
            term
            for text in added
            if text.tids is not None and (text.tids < 0).any()
            for term, tid in zip(text.counts, text.tids.tolist(), strict=True)
            if tid < 0
        }
    )


def look_up_again(added: Sequence[Counted], tids: dict[str, int]) -> None:
    """Once the new terms are in the dictionary: the ids of the texts that hold them."""
    for text in added:
        if text.tids is not None and (text.tids < 0).any():
            text.tids = _ids(text, tids)


def df_change(gone: Sequence[Counted], added: Sequence[Counted]) -> tuple[np.ndarray, np.ndarray]:
    """(term ids, net change) of every term whose document frequency the write changes: +1 for each added
    text holding it, -1 for each removed one (a removed text's term the dictionary lacks counts nothing, as
    no chunk's term can be missing from it)."""
    plus = _all_ids(added)
    minus = _all_ids(gone)
    minus = minus[minus >= 0]
    ids, where = np.unique(np.concatenate([plus, minus]), return_inverse=True)
    by = np.bincount(where[: plus.size], minlength=ids.size) - np.bincount(
        where[plus.size :], minlength=ids.size
    )
    changed = by != 0
    return ids[changed], by[changed].astype(np.int64)


def _ids(text: Counted, tids: dict[str, int]) -> np.ndarray:
    return np.fromiter((tids.get(term, -1) for term in text.counts), np.int64, len(text.counts))


def _all_ids(texts: Sequence[Counted]) -> np.ndarray:
    parts = [text.tids for text in texts if text.tids is not None]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)
