"""How many of a query's terms each keyword hit holds, counted where the keyword arm scores it
(postings_cache.held_terms, KeywordAnswer.held): the same counts as an exhaustive scan and the same share
as reading the hit's text with the index's stemmer, so coordination (coordination.py) needs no second
look at the winners' texts after the vector arm (issue 30: that look was 3-8 ms of the hybrid's p95)."""

from __future__ import annotations

import numpy as np

from engine.retrieval import coordination as coordination_module
from engine.retrieval.coordination import share_held
from engine.retrieval.keyword.chunk_filter import ChunkFilter
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.postings_cache import compact_ids, held_terms, top_k
from engine.retrieval.terms import shared_matcher
from tests.retrieval.test_coordination import LEASE, QUERY, _search


def brute_held(postings, winners):
    """Chunk id -> how many terms' postings list it, by a plain scan."""
    return {w: sum(int(w in set(ids.tolist())) for ids, _ in postings) for w in winners}


def test_held_terms_counts_each_of_top_ks_winners_terms_with_scopes_dead_ids_and_both_id_widths():
    rng = np.random.default_rng(41)
    for trial in range(10):
        chunks = 5_000
        postings = []
        for share in (0.6, 0.2, 0.05, 0.01)[: 2 + trial % 3]:
            ids = rng.permutation(chunks)[: int(chunks * share)].astype(np.int64) + 3
            ids = np.sort(ids) if trial % 4 < 2 else ids  # ascending as written, or in any order
            ids = compact_ids(ids) if trial % 2 else ids
            postings.append((ids, rng.random(len(ids)).astype(np.float32)))
        dead = np.sort(rng.choice(chunks, size=300, replace=False).astype(np.int64) + 3)
        inside = np.sort(rng.choice(chunks, size=2_000, replace=False).astype(np.int64) + 3)
        chunk_filter = ChunkFilter(dead)
        for mask in (None, chunk_filter.scope_mask(inside)):
            for k in (1, 10, 50):
                best = top_k(postings, k, mask, chunk_filter.dead)
                held = held_terms(postings, [w for w, _ in best])
                assert {w: held[w] for w, _ in best} == brute_held(postings, [w for w, _ in best])
                assert all(1 <= held[w] <= len(postings) for w, _ in best), (trial, k)


def test_held_terms_counts_terms_of_both_id_widths_in_one_query():
    wide = np.array([5, 9, 2**31 + 7, 2**32], dtype=np.int64)  # past two billion: kept int64
    narrow = compact_ids(np.array([5, 8, 9], dtype=np.int64))  # int32
    postings = [(wide, np.ones(4, np.float32)), (narrow, np.ones(3, np.float32))]
    best = top_k(postings, 10)
    held = held_terms(postings, [w for w, _ in best])
    assert held == brute_held(postings, [w for w, _ in best]) == {5: 2, 9: 2, 8: 1, 2**31 + 7: 1, 2**32: 1}


TEXTS = {
    "/r/a.txt": ["Running runners ran a café marathon; the runner's café reopened."],
    "/r/b.txt": ["Categories of categorised things: one category, several Categories."],
    "/r/c.txt": ["Crème brûlée at the café, and a running joke about categories."],
    "/r/d.txt": ["Nothing of the sort here: leeks, potatoes, stock."],
}


def test_the_keyword_answer_counts_each_hits_terms_as_reading_its_text_with_the_index_stemmer(tmp_path):
    keywords = KeywordIndex(tmp_path / "k.duckdb")
    for path, chunks in TEXTS.items():
        keywords.upsert(path, chunks)
    matcher = shared_matcher()
    try:
        for query in ("running café categories", "crème brûlée runner", "category joke marathon stock"):
            answer = keywords.answer(query, 10)
            assert answer.hits and set(answer.held) == {hit.key for hit in answer.hits}, query
            for hit in answer.hits:
                share = answer.held[hit.key] / len(answer.terms.terms)
                assert share == share_held(answer.texts[hit.key], answer.terms.terms, matcher), (query, hit)
        assert keywords.answer("categories", 10).held == {}  # one term: every hit holds the whole query
    finally:
        keywords.close()


def test_hybrid_coordination_reads_no_hits_text_once_the_keyword_arm_counted_its_terms(tmp_path, monkeypatch):
    search = _search(tmp_path, coordination=2.0)
    read = []
    monkeypatch.setattr(coordination_module, "share_held", lambda *args: read.append(args) or 1.0)
    try:
        assert search.search(QUERY)[0].path == LEASE  # the paraphrase still wins over the partial match
        assert read == []  # every share came from the keyword arm's counts
    finally:
        search.keywords.close()
