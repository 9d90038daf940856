"""top_k over many chunks with few distinct scores (postings_cache._best_k's sampled bound), equal to the
exhaustive sum and sort, ties broken by chunk id, with scopes and dead ids masked; and split_by_term's
grouped-rows shortcut equal to its sort."""

from __future__ import annotations

import numpy as np

from engine.retrieval.keyword.chunk_filter import ChunkFilter
from engine.retrieval.keyword.postings_cache import SAMPLE_STRIDE, compact_ids, split_by_term, top_k
from tests.retrieval.helpers import brute_top_k


def tied_postings(rng: np.random.Generator, chunks: int, levels: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """One frequent term over most chunks and two rarer ones, impacts from `levels` values: few distinct
    sums, so the k-th best is inside a long run of ties (the case that made np.partition slow)."""
    postings = []
    for share in (0.9, 0.05, 0.01):
        ids = np.sort(rng.choice(chunks, size=int(chunks * share), replace=False)).astype(np.int64) + 11
        impacts = rng.choice(np.linspace(0.5, 2.0, levels), size=len(ids)).astype(np.float32)
        postings.append((ids, impacts))
    return postings


def test_top_k_of_long_runs_of_ties_equals_the_exhaustive_scan():
    rng = np.random.default_rng(17)
    for trial in range(12):
        chunks = 80 * SAMPLE_STRIDE if trial % 2 else 20_000  # the sampled bound needs 64k scores
        postings = tied_postings(rng, chunks, levels=int(rng.integers(1, 6)))
        reference = brute_top_k(postings, 400)
        for k in (1, 10, 50, 73, 400):
            assert top_k(postings, k) == reference[:k], (trial, k)


def test_top_k_of_ties_with_a_scope_and_dead_ids_equals_the_filtered_exhaustive_scan():
    rng = np.random.default_rng(23)
    for _ in range(8):
        chunks = 30_000
        postings = tied_postings(rng, chunks, levels=int(rng.integers(1, 4)))
        dead = rng.choice(chunks, size=3_000, replace=False).astype(np.int64) + 11
        inside = (
            np.sort(rng.choice(chunks, size=int(rng.integers(50, 25_000)), replace=False)).astype(np.int64)
            + 11
        )
        allowed = set(inside.tolist()) - set(dead.tolist())
        chunk_filter = ChunkFilter(dead)
        mask, buried = chunk_filter.scope_mask(inside), chunk_filter.dead
        reference = brute_top_k(postings, 200, allowed)
        for k in (1, 50, 200):
            assert top_k(postings, k, mask, buried) == reference[:k]
        alive = set(range(11, chunks + 11)) - set(dead.tolist())
        assert chunk_filter.scope_mask(None) is None
        assert top_k(postings, 50, None, buried) == brute_top_k(postings, 50, alive)


def test_split_by_term_of_rows_grouped_by_term_equals_the_split_of_the_same_rows_shuffled():
    rng = np.random.default_rng(5)
    tids = np.repeat(np.array([3, 8, 9, 40], dtype=np.int32), [5, 1, 7, 3])
    ids = rng.permutation(100)[: len(tids)].astype(np.int64)
    weights = rng.random(len(tids)).astype(np.float32)
    grouped = split_by_term(tids, ids, weights)
    order = rng.permutation(len(tids))
    shuffled = split_by_term(tids[order], ids[order], weights[order])
    assert sorted(grouped) == sorted(shuffled) == [3, 8, 9, 40]
    for tid, (got_ids, got_weights) in grouped.items():
        want = sorted(zip(shuffled[tid][0].tolist(), shuffled[tid][1].tolist(), strict=True))
        assert sorted(zip(got_ids.tolist(), got_weights.tolist(), strict=True)) == want
        assert got_ids.tolist() == ids[tids == tid].tolist()  # in the order they were read


def test_compact_ids_keep_int64_past_two_billion_and_top_k_takes_both():
    small = np.array([3, 9, 2_000_000_000], np.int64)
    big = np.array([5, 2**31 + 7], np.int64)
    assert compact_ids(small).dtype == np.int32 and compact_ids(small).tolist() == small.tolist()
    assert compact_ids(big).dtype == np.int64 and compact_ids(big).tolist() == big.tolist()
    w = np.float32
    wide = [(small, np.array([1, 2, 3], w)), (big, np.array([2, 4], w))]
    mixed = [(compact_ids(ids), weights) for ids, weights in wide]
    assert top_k(mixed, 5) == top_k(wide, 5) == brute_top_k(wide, 5)


def test_the_index_caches_a_terms_postings_with_four_byte_ids(tmp_path):
    from engine.retrieval.keyword.index import KeywordIndex

    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many((f"/r/{n}.txt", [f"common word{n}"]) for n in range(30))
    hits = index.search("common", 50)
    (tid,) = index.query_terms("common").tids
    ids, _ = index._postings.get_many([tid])[tid]
    assert ids.dtype == np.int32 and len(ids) == 30
    assert index.search("common", 50) == hits
    index.close()


def test_dead_chunks_dropped_after_the_sum_leave_what_dropping_their_postings_leaves():
    """top_k drops dead ids from the summed chunks: the same chunks and scores as the exhaustive scan of
    the live postings, for int32 and int64 ids, dead ids absent from the postings or past 2^31, more dead
    than live among the best, and every chunk dead."""
    rng = np.random.default_rng(31)
    for trial in range(20):
        postings = []
        for size in (3_000, 700, 90):
            ids = np.sort(rng.choice(5_000, size=size, replace=False)).astype(np.int64) + 3
            impacts = rng.choice(np.linspace(0.5, 2.0, 4), size=size).astype(np.float32)
            postings.append((compact_ids(ids) if trial % 2 else ids, impacts))
        best = [chunk for chunk, _ in brute_top_k(postings, 400)]
        dead = np.unique(
            np.concatenate(
                [
                    np.asarray(best[: int(rng.integers(0, 300))], dtype=np.int64),  # many of the best
                    rng.choice(6_000, size=200).astype(np.int64),  # some present, some not
                    np.array([2**31 + 5, 2**40], dtype=np.int64),  # past every int32 id
                ]
            )
        )
        alive = set(range(0, 6_000)) - set(dead.tolist())
        for k in (1, 50, 400):
            assert top_k(postings, k, None, dead) == brute_top_k(postings, k, alive), (trial, k)
    everything = np.unique(np.concatenate([ids for ids, _ in postings]).astype(np.int64))
    assert top_k(postings, 10, None, everything) == []
