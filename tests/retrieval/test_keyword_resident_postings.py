"""The rarer terms' postings and every term's id kept in memory (resident_postings.py, resident_terms.py): the
same answers, term ids and reference scores as reading them, no postings or term statement once kept, never
stale after a write, a removal, a compaction or a rebuild, and bounded."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from engine.retrieval.keyword import query_words, reading
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.postings_cache import PostingsCache
from engine.retrieval.keyword.query import QueryTermCache
from engine.retrieval.keyword.query_words import TermLookup
from engine.retrieval.keyword.resident_postings import Resident, ResidentLoader, read_resident
from engine.retrieval.keyword.resident_terms import NO_TERMS, TermIds
from tests.held_lock import held_elsewhere
from tests.retrieval.test_keyword_scoring import WORDS, generated_corpus

QUERIES = ("w1 w2", "w3", "w5 w7 w11", "w0 w39", "w12 w13 w14 w15", "w20 nothing")


def kept_index(path, corpus=None, first: str = "w1") -> KeywordIndex:
    """An index over the generated corpus whose postings are kept in memory."""
    index = KeywordIndex(path)
    index.upsert_many((corpus or generated_corpus()).items())
    keep_postings(index, first)
    return index


def keep_postings(index: KeywordIndex, first: str = "w1") -> None:
    index.search(first)  # the first query with a known term starts the background read
    index.wait_for_postings(10)
    assert index._postings.has_resident()


Answers = list[tuple[list[tuple[str, int, float]], tuple[int, ...], float]]


def answers(index: KeywordIndex, scope: str | None = None) -> Answers:
    """Each query's hits, term ids and reference score, its terms looked up anew."""
    index._terms_of, index._words = QueryTermCache(), TermLookup()
    out = []
    for query in QUERIES:
        got = index.answer(query, 10_000, scope)
        out.append(
            ([(h.path, h.chunk_index, h.score) for h in got.hits], got.terms.tids, got.terms.reference)
        )
    return out


def fresh_answers(path, scope: str | None = None) -> Answers:
    """The answers of the same file opened anew, read with no postings kept."""
    index = KeywordIndex(path)
    index._loading.stop()
    try:
        return answers(index, scope)
    finally:
        index.close()


def forbid_postings_statements(monkeypatch) -> None:
    def refuse(tids):
        raise AssertionError(f"postings of {list(tids)} read by a statement")

    monkeypatch.setattr(reading, "postings_sql", refuse)


def forbid_term_lookups(monkeypatch) -> None:
    monkeypatch.setattr(query_words, "_LOOKUP_SQL", "SELECT error('terms looked up by a statement'), {terms}")


def test_kept_postings_answer_exactly_as_the_statement_does_and_without_it(tmp_path, monkeypatch):
    path = tmp_path / "k.duckdb"
    index = kept_index(path)
    index._postings._entries.clear()  # the LRU entries of the first query: only the snapshot is left
    forbid_postings_statements(monkeypatch)
    forbid_term_lookups(monkeypatch)
    kept = [answers(index, scope) for scope in (None, "/r/Docs", "/r/Other")]
    index.close()
    monkeypatch.undo()
    assert kept == [fresh_answers(path, scope) for scope in (None, "/r/Docs", "/r/Other")]
    assert all(hits for hits, _, _ in kept[0][:-1])


def test_a_budget_keeps_the_rarest_terms_and_reads_the_others(tmp_path):
    path = tmp_path / "k.duckdb"
    index = KeywordIndex(path)
    index.upsert_many(generated_corpus().items())
    cur = index._root.cursor()
    everything = read_resident(cur, 0, 10**9, threading.Event())
    dfs = index.document_frequencies()
    budget = sorted(dfs.values())[len(dfs) // 2] * (len(dfs) // 2)  # about half the terms
    capped = read_resident(cur, 0, budget, threading.Event())
    cur.close()
    assert everything is not None and capped is not None
    assert everything.held.sum() == len(dfs) and capped.size <= budget
    tids = index._reader().execute("SELECT term, tid FROM terms").fetchall()
    held = {term for term, tid in tids if capped.postings(tid) is not None}
    assert held and len(held) < len(dfs)
    assert max(dfs[t] for t in held) <= min(dfs[t] for t in dfs if t not in held)
    for term, tid in tids:  # a held term's postings are all of them
        if term in held:
            got, want = capped.postings(tid), everything.postings(tid)
            assert got is not None and want is not None
            assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()
    index._postings = PostingsCache()
    index._postings.install(capped)
    assert answers(index) == fresh_answers(path)
    index.close()


@pytest.mark.parametrize("write", ["upsert", "delete", "rename", "refresh", "upsert_many"])
def test_kept_postings_never_answer_after_a_write_changed_their_terms(tmp_path, write):
    path = tmp_path / "k.duckdb"
    index = kept_index(path)
    if write == "upsert":
        index.upsert("/r/Docs/f0.txt", ["w1 w1 w1 w2 w39", "w5"])
    elif write == "delete":
        index.delete("/r/Docs/f4.txt")
    elif write == "rename":
        index.rename("/r/Docs/f4.txt", "/r/Other/f4.txt")
    elif write == "refresh":
        index.upsert("/r/new.txt", ["w3 w3 w5"])
        index.refresh_weights()  # every weight changes
        assert not index._postings.has_resident()
    else:  # a bulk batch of more terms than the bound forgets every term
        index.upsert_many(
            [
                (f"/r/bulk/{n}.txt", [" ".join(WORDS[n:] + [f"x{n}_{i}" for i in range(99)])])
                for n in range(30)
            ]
        )
    assert answers(index) == fresh_answers_of(index)
    index.close()


def fresh_answers_of(index: KeywordIndex) -> Answers:
    """What a second reader of the same open file reads with no postings kept."""
    saved = index._postings, index._loading
    index._postings, index._loading = PostingsCache(), ResidentLoader(lambda resident: None, budget=0)
    try:
        return answers(index)
    finally:
        index._postings, index._loading = saved


def test_a_point_write_leaves_the_other_terms_kept(tmp_path, monkeypatch):
    index = kept_index(
        tmp_path / "k.duckdb", {"/r/a.txt": ["alpha beta"], "/r/b.txt": ["gamma delta"]}, "alpha"
    )
    index._postings._entries.clear()
    index.upsert("/r/a.txt", ["alpha zebra"])
    forbid_postings_statements(monkeypatch)
    assert [h.path for h in index.search("gamma", 5)] == ["/r/b.txt"]  # untouched: still from the snapshot
    with pytest.raises(AssertionError, match="read by a statement"):
        index.search("alpha", 5)  # changed by the write: read again
    index.close()


def test_a_read_overtaken_by_a_write_keeps_none_of_that_writes_terms():
    cache = PostingsCache()
    read_at = cache.generation()
    snapshot = Resident(
        np.array([0, 1, 2]),
        np.array([10, 11], np.int32),
        np.ones(2, np.float32),
        np.ones(2, bool),
        read_at,
        NO_TERMS,
    )
    cache.changed([1])  # committed while the snapshot was being read
    cache.install(snapshot)
    assert set(cache.get_many([0, 1])) == {0}
    cache.changed(None)  # every term changed
    assert cache.get_many([0]) == {} and not cache.has_resident()
    cache.install(snapshot)  # read before that change: never kept
    assert not cache.has_resident()


def test_a_rebuilt_index_keeps_its_own_postings(tmp_path):
    path = tmp_path / "k.duckdb"
    index = kept_index(path)
    index.close()
    path.unlink()  # set aside and rebuilt (healing.py) with other text
    rebuilt = kept_index(path, {"/r/x.txt": ["w1 w1 w3"], "/r/y.txt": ["w2"]})
    assert rebuilt._postings.resident_nbytes() < index._postings.resident_nbytes()
    assert {h.path for h in rebuilt.search("w1 w2", 10)} == {"/r/x.txt", "/r/y.txt"}
    assert answers(rebuilt) == fresh_answers_of(rebuilt)
    rebuilt.close()


def test_close_stops_a_read_in_progress(tmp_path, monkeypatch):
    from engine.retrieval.keyword import resident_postings

    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(generated_corpus().items())
    monkeypatch.setattr(resident_postings, "SLICE_POSTINGS", 1)  # one term per statement
    reached, release = threading.Event(), threading.Event()

    class ReleasedOnStop(threading.Event):
        def set(self) -> None:
            super().set()
            release.set()  # the read goes on only once close has asked it to stop

    index._loading._stop = ReleasedOnStop()
    slices = resident_postings._slices

    def slow(*args):
        out = slices(*args)
        reached.set()
        release.wait(10)
        return out

    monkeypatch.setattr(resident_postings, "_slices", slow)
    index.search("w1")
    assert reached.wait(10)
    closing = threading.Thread(target=index.close)
    closing.start()
    closing.join(10)
    assert not closing.is_alive() and not index._postings.has_resident()


def test_a_term_a_write_added_after_the_snapshot_is_found(tmp_path, monkeypatch):
    index, other = kept_index(tmp_path / "k.duckdb"), kept_index(tmp_path / "other.duckdb")
    index.upsert("/r/Docs/z.txt", ["zebra w1"])
    assert [h.path for h in index.search("zebra", 10)] == ["/r/Docs/z.txt"]
    assert answers(index) == fresh_answers_of(index)
    forbid_term_lookups(monkeypatch)  # with no write since the snapshot, a missing term is simply absent
    assert other.search("zebra w1", 10) == other.search("w1", 10)
    other.close()
    index.close()


def test_terms_are_looked_up_by_statement_while_a_write_is_ending(tmp_path):
    index = kept_index(tmp_path / "k.duckdb")
    cur = index._reader()
    assert index._kept_rows(cur, ["w1"], index.generation()) is not None
    with held_elsewhere(index._write_lock):  # a write between its commit and the masking of its removals
        assert index._kept_rows(cur, ["w1"], index.generation()) is None
    assert index._kept_rows(cur, ["w1"], index.generation() - 1) is None  # a generation a write has ended
    index.close()


def test_term_ids_are_exact_when_two_terms_share_a_hash():
    h = hash("alpha")
    ids = TermIds(np.array([h, h]), np.array([7, 9], np.int32), np.array([0, 4, 9]), b"betaalpha")
    assert ids.tid("alpha") == 9 and ids.tid("beta") is None and ids.tid("gamma") is None
    built = TermIds.of(["b", "a", "ccc"], np.array([1, 2, 3]))
    assert [built.tid(t) for t in ("a", "b", "ccc", "cc")] == [2, 1, 3, None]
    assert NO_TERMS.tid("a") is None
