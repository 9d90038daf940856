"""The removed chunk ids a keyword query masks until the next refresh: ChunkFilter.bury keeps them sorted
and distinct whatever order and repeats they come in, and top_k drops exactly them, whether they are
fewer than the query's chunks or many more (near a refresh at 1M chunks they are ~23k)."""

from __future__ import annotations

import numpy as np

from engine.retrieval.keyword.chunk_filter import ChunkFilter
from engine.retrieval.keyword.postings_cache import top_k
from tests.retrieval.helpers import brute_top_k


def test_bury_keeps_every_removed_id_once_in_order():
    rng = np.random.default_rng(5)
    for _ in range(100):
        start = rng.integers(0, 500, rng.integers(0, 40))
        chunk_filter, expected = ChunkFilter(start.tolist()), set(start.tolist())
        for _ in range(6):
            ids = rng.integers(0, 500, rng.integers(0, 12))  # repeats, and ids already buried
            chunk_filter.bury(ids)
            expected |= set(ids.tolist())
            assert chunk_filter.dead.tolist() == sorted(expected)
            assert chunk_filter.dead_count == len(expected)


def test_top_k_drops_the_dead_ids_however_many_there_are():
    rng = np.random.default_rng(9)
    for trial in range(30):
        chunks = 5_000
        ids = np.sort(rng.choice(chunks, size=int(rng.integers(1, 400)), replace=False)).astype(np.int64)
        postings = [(ids, rng.random(len(ids)).astype(np.float32))]
        many = trial % 2 == 0  # more dead ids than the query's chunks, or fewer
        dead = np.unique(rng.choice(chunks, size=3_000 if many else 20)).astype(np.int64)
        if trial % 3 == 0:
            ids32 = (ids.astype(np.int32), postings[0][1])  # compacted int32 ids (postings cache)
            postings = [ids32]
        dropped = set(dead.tolist())
        reference = [(cid, score) for cid, score in brute_top_k(postings, len(ids)) if cid not in dropped]
        for k in (1, 10, 50, 1000):
            assert top_k(postings, k, dead=dead) == reference[:k], (trial, k)
