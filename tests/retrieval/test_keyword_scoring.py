"""Keyword top-k over in-memory postings: equal to brute force, scoped equal to filtered, never stale."""

from __future__ import annotations

import numpy as np

from engine.retrieval.keyword import index as bm25
from engine.retrieval.keyword import writing
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.postings_cache import PostingsCache, split_by_term, top_k
from tests.retrieval.helpers import brute_top_k

WORDS = [f"w{i}" for i in range(40)]


def generated_corpus(seed: int = 7, files: int = 60) -> dict[str, list[str]]:
    rng = np.random.default_rng(seed)
    corpus = {}
    for n in range(files):
        folder = ["/r/Docs", "/r/DocsEvil", "/r/Other/deep", "/r/Other"][n % 4]
        corpus[f"{folder}/f{n}.txt"] = [
            " ".join(rng.choice(WORDS, size=int(rng.integers(3, 15)))) for _ in range(int(rng.integers(1, 4)))
        ]
    return corpus


def test_top_k_equals_the_exhaustive_sum_and_sort_including_ties():
    rng = np.random.default_rng(3)
    for _ in range(50):
        postings = []
        for _ in range(3):  # small integer impacts, so many chunks tie
            ids = rng.choice(200, size=int(rng.integers(0, 80)), replace=False).astype(np.int64)
            postings.append((ids, rng.integers(1, 4, size=len(ids)).astype(np.float32)))
        for k in (1, 5, 50, 500):
            ours = top_k(postings, k)
            assert [c for c, _ in ours] == [c for c, _ in brute_top_k(postings, k)]
        allowed = set(range(0, 200, 3))
        inside = np.array(sorted(allowed))
        assert [c for c, _ in top_k(postings, 10, lambda ids, inside=inside: np.isin(ids, inside))] == [
            c for c, _ in brute_top_k(postings, 10, allowed)
        ]


def test_top_k_sums_dense_and_sparse_postings_exactly_as_the_exhaustive_scan():
    """Postings that cover their id range densely are summed by a bincount over it, sparse ones by a
    stable sort; both must give the exhaustive scan's chunks and scores, to the bit."""
    rng = np.random.default_rng(11)
    for span, sizes in ((300, (250, 200, 120)), (300, (40, 10)), (1_000_000, (30, 500, 2000)), (50, (50,))):
        for _ in range(10):
            postings = []
            for size in sizes:
                ids = np.sort(rng.choice(span, size=size, replace=False)).astype(np.int64) + 7
                if rng.random() < 0.3:
                    rng.shuffle(ids)  # a term's ids need not arrive sorted
                postings.append((ids, rng.random(size).astype(np.float32)))
            for k in (1, 10, 50, 10_000):
                assert top_k(postings, k) == brute_top_k(postings, k)


def test_split_by_term_groups_rows_of_several_terms():
    split = split_by_term(np.array([5, 2, 5, 2, 9]), np.array([1, 2, 3, 4, 5]), np.ones(5, np.float32))
    assert {t: ids.tolist() for t, (ids, _) in split.items()} == {2: [2, 4], 5: [1, 3], 9: [5]}


def test_scoped_results_equal_the_unscoped_results_filtered_by_path(tmp_path):
    corpus = generated_corpus()
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(corpus.items())
    for query in ("w1 w2", "w3", "w5 w7 w11", "w0 w39"):
        everything = index.search(query, 10_000)
        for scope in ("/r/Docs", "/r/Other", "/r/Other/deep", "/r/Docs/f0.txt"):
            inside = [h for h in everything if h.path == scope or h.path.startswith(scope + "/")]
            assert index.search(query, 10_000, scope) == inside, (query, scope)
            assert index.search(query, 3, scope) == inside[:3], (query, scope)
    index.close()


def test_cached_postings_never_outlive_a_change_to_their_terms(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many([("/r/a.txt", ["alpha beta"]), ("/r/b.txt", ["gamma"])])
    assert [h.path for h in index.search("alpha", 10)] == ["/r/a.txt"]  # now cached
    index.upsert("/r/b.txt", ["alpha alpha delta"])
    assert sorted(h.path for h in index.search("alpha", 10)) == ["/r/a.txt", "/r/b.txt"]
    index.delete("/r/b.txt")
    assert [h.path for h in index.search("alpha", 10)] == ["/r/a.txt"]
    index.upsert("/r/a.txt", ["beta only"])
    assert index.search("alpha", 10) == []
    before = index.search("beta", 10)
    index.upsert("/r/c.txt", ["unrelated words", "more of them"])
    index.refresh_weights()  # every weight changes: nothing cached may survive
    after = index.search("beta", 10)
    assert [h.path for h in after] == [h.path for h in before] and after[0].score != before[0].score
    index.close()


def test_postings_read_before_a_change_are_not_kept():
    cache = PostingsCache()
    read_at = cache.generation()
    cache.changed([4])  # a write committed while the read was under way
    cache.put(4, (np.array([1]), np.array([1.0], np.float32)), read_at)
    cache.put(5, (np.array([2]), np.array([1.0], np.float32)), read_at)
    assert set(cache.get_many([4, 5])) == {5}
    cache.changed(None)
    assert cache.get_many([5]) == {}
    cache.put(5, (np.array([2]), np.array([1.0], np.float32)), read_at)
    assert cache.get_many([5]) == {}


def test_the_cache_stays_within_its_bound():
    cache = PostingsCache(max_postings=10)
    for tid in range(5):
        cache.put(tid, (np.arange(4), np.ones(4, np.float32)), cache.generation())
    assert sum(len(ids) for ids, _ in cache.get_many(range(5)).values()) <= 10
    assert 4 in cache.get_many([4])


def test_a_query_repeated_after_a_write_finds_the_terms_that_write_added(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert("/r/a.txt", ["alpha"])
    assert index.search("alpha zebra", 10)[0].path == "/r/a.txt"
    assert index.search("zebra", 10) == []  # remembered: no term "zebra" yet
    index.upsert("/r/z.txt", ["zebra crossing"])
    assert [h.path for h in index.search("zebra", 10)] == ["/r/z.txt"]
    assert {h.path for h in index.search("alpha zebra", 10)} == {"/r/a.txt", "/r/z.txt"}
    index.close()


def test_a_scoped_query_sees_writes_and_renames_inside_its_scope_at_once(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many([("/r/Docs/a.txt", ["walrus tusk"]), ("/r/Other/b.txt", ["walrus"])])
    assert [h.path for h in index.search("walrus", scope="/r/Docs")] == ["/r/Docs/a.txt"]
    index.upsert("/r/Docs/c.txt", ["walrus walrus"])
    assert {h.path for h in index.search("walrus", scope="/r/Docs")} == {"/r/Docs/a.txt", "/r/Docs/c.txt"}
    index.rename("/r/Other/b.txt", "/r/Docs/b.txt")  # a rename changes no postings, only the scope
    assert {h.path for h in index.search("walrus", scope="/r/Docs")} == {
        "/r/Docs/a.txt",
        "/r/Docs/b.txt",
        "/r/Docs/c.txt",
    }
    index.rename("/r/Docs/a.txt", "/r/Other/a.txt")
    assert "/r/Docs/a.txt" not in {h.path for h in index.search("walrus", scope="/r/Docs")}
    assert [h.path for h in index.search("walrus", scope="/r/Other")] == ["/r/Other/a.txt"]
    index.close()


def test_removing_a_file_leaves_its_postings_for_the_compaction_and_never_returns_them(tmp_path):
    corpus = generated_corpus(seed=5)
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(corpus.items())
    postings = index.stats()["postings"]
    removed = [path for path in corpus if path.startswith("/r/Docs/")]
    for path in removed:
        index.delete(path)
    index.upsert("/r/Other/f1.txt", ["w1 w2 w3 replaced"])
    assert index.stats()["postings"] > postings - 10  # no scan deleted the removed chunks' rows
    index.close()
    index = KeywordIndex(tmp_path / "k.duckdb")  # the removed ids survive a restart
    final = {p: t for p, t in corpus.items() if p not in removed} | {"/r/Other/f1.txt": ["w1 w2 w3 replaced"]}
    fresh = KeywordIndex(tmp_path / "fresh.duckdb")
    fresh.upsert_many(final.items())
    for query in ("w1 w2", "w3", "w5 w7 w11", "w0 w39", "replaced"):
        assert {h.key for h in index.search(query, 10_000)} == {h.key for h in fresh.search(query, 10_000)}
    index.refresh_weights()
    assert index.stats()["postings"] == fresh.stats()["postings"]
    for query in ("w1 w2", "w3", "w5 w7 w11", "replaced"):
        assert [(h.key, round(h.score, 4)) for h in index.search(query, 10_000)] == [
            (h.key, round(h.score, 4)) for h in fresh.search(query, 10_000)
        ]
    index.close()
    fresh.close()


def test_queries_run_on_one_duckdb_thread_and_a_bulk_insert_gives_it_back(tmp_path, monkeypatch):
    monkeypatch.setattr(writing, "BULK_ROWS", 10)  # so a small batch takes the bulk path, on every core
    monkeypatch.setattr(writing, "POINT_ROWS", 0)  # (and not the point path of small writes)
    index = KeywordIndex(tmp_path / "k.duckdb")
    threads = "SELECT current_setting('threads')"
    assert index._reader().execute(threads).fetchone() == (bm25.QUERY_THREADS,)
    index.upsert_many((f"/r/f{i}.txt", [f"walrus {i}"]) for i in range(40))
    assert index._reader().execute(threads).fetchone() == (bm25.QUERY_THREADS,)
    assert len(index.search("walrus", 100)) == 40
    index.refresh_weights()  # every core too, and back to one
    assert index._reader().execute(threads).fetchone() == (bm25.QUERY_THREADS,)
    index.close()
