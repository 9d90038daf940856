"""The page's two calls for one query (keyword hits first, the fused list next) run the keyword arm once,
and a write between two searches makes the second ask the index again (issue 30)."""

from __future__ import annotations

import threading

import pytest

from engine.embed import HashingEmbedder
from engine.errors import StoreError
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.query import KeywordAnswer
from engine.retrieval.keyword_memo import KeywordAnswers
from engine.retrieval.vectors import VectorIndex

FILES = {
    "/docs/a.txt": ["the budget review for spring", "travel costs of the team"],
    "/docs/b.txt": ["budget travel plans", "nothing to see here"],
    "/docs/c.txt": ["quarterly budget figures and review"],
}
WAIT_S = 10.0


class CountingIndex(KeywordIndex):
    """A real keyword index that counts the keyword arm's reads."""

    answers = 0

    def answer(self, query: str, k: int = 50, scope: str | None = None) -> KeywordAnswer:
        self.answers += 1
        return super().answer(query, k, scope)


def stores(tmp_path):
    embedder = HashingEmbedder(64)
    keywords = CountingIndex(tmp_path / "k.duckdb")
    vectors = VectorIndex(tmp_path / "vectors", embedder.dim)
    keywords.upsert_many(FILES.items())
    for path, chunks in FILES.items():
        vectors.upsert(path, chunks, embedder.embed(chunks))
    return keywords, vectors, embedder


def test_a_keyword_search_then_a_hybrid_search_of_the_same_words_read_the_keyword_index_once(tmp_path):
    keywords, vectors, embedder = stores(tmp_path)
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True, floor=0.0)
    first = search.search_keyword("budget review", limit=20)
    fused = search.search("budget review", limit=20)
    assert keywords.answers == 1
    fresh = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True, floor=0.0)
    assert fused == fresh.search("budget review", limit=20)  # the same results, order and snippets
    assert first == fresh.search_keyword("budget review", limit=20)
    keywords.close()


def test_a_write_between_two_searches_makes_the_second_read_the_index_again(tmp_path):
    keywords, vectors, embedder = stores(tmp_path)
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True, floor=0.0)
    assert {r.path for r in search.search_keyword("quarterly")} == {"/docs/c.txt"}
    keywords.upsert("/docs/d.txt", ["quarterly travel report"])
    assert {r.path for r in search.search_keyword("quarterly")} == {"/docs/c.txt", "/docs/d.txt"}
    assert keywords.answers == 2
    keywords.close()


def test_another_scope_or_depth_is_another_answer(tmp_path):
    keywords, vectors, embedder = stores(tmp_path)
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True, floor=0.0)
    search.search_keyword("budget")
    search.search_keyword("budget", scope="/docs")
    search.search_keyword("budget", candidates=5)
    assert keywords.answers == 3
    keywords.close()


def answer_of(label: str) -> KeywordAnswer:
    return KeywordAnswer([], {("/" + label, 0): label}, None)  # type: ignore[arg-type]


def test_a_second_caller_waits_for_the_answer_being_computed_instead_of_computing_it_again():
    memo = KeywordAnswers()
    computing, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def slow() -> KeywordAnswer:
        calls.append("slow")
        computing.set()
        assert release.wait(WAIT_S)
        return answer_of("slow")

    got: list[KeywordAnswer] = []
    first = threading.Thread(target=lambda: got.append(memo.answer("key", slow)))
    first.start()
    assert computing.wait(WAIT_S)
    second = threading.Thread(target=lambda: got.append(memo.answer("key", lambda: answer_of("again"))))
    second.start()
    release.set()
    first.join(WAIT_S)
    second.join(WAIT_S)
    assert calls == ["slow"]
    assert got == [answer_of("slow"), answer_of("slow")]


def test_an_answer_older_than_the_reuse_window_is_computed_again():
    now = [100.0]
    memo = KeywordAnswers(kept_s=5.0, clock=lambda: now[0])
    assert memo.answer("key", lambda: answer_of("one")) == answer_of("one")
    now[0] += 4.0
    assert memo.answer("key", lambda: answer_of("two")) == answer_of("one")
    now[0] += 2.0
    assert memo.answer("key", lambda: answer_of("three")) == answer_of("three")


def test_a_failed_answer_is_not_kept():
    memo = KeywordAnswers()

    def broken() -> KeywordAnswer:
        raise StoreError("the keyword index is damaged")

    with pytest.raises(StoreError):
        memo.answer("key", broken)
    assert memo.answer("key", lambda: answer_of("healed")) == answer_of("healed")


def test_only_the_last_few_answers_are_kept():
    memo = KeywordAnswers(kept=2)
    for label in ("a", "b", "c"):
        memo.answer(label, lambda label=label: answer_of(label))
    assert memo.answer("a", lambda: answer_of("a again")) == answer_of("a again")
    assert memo.answer("c", lambda: answer_of("c again")) == answer_of("c")
