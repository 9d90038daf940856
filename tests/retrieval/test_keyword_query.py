"""A keyword query reads its terms, their ids and its reference score in one statement, kept until a write."""

from __future__ import annotations

import pytest

from engine.indexing.embed import HashingEmbedder
from engine.retrieval import bm25 as bm25_module
from engine.retrieval import terms as terms_module
from engine.retrieval.bm25 import KeywordIndex
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.vectors import VectorIndex

CORPUS = {
    "/r/a.txt": ["Running budgets for the alpha team", "beta travel costs"],
    "/r/b.txt": ["gamma delta budget"],
    "/r/c.txt": ["alpha delta runs"],
}


@pytest.fixture
def index(tmp_path):
    keywords = KeywordIndex(tmp_path / "k.duckdb")
    keywords.upsert_many(CORPUS.items())
    yield keywords
    keywords.close()


def counting_reads(monkeypatch) -> list[str]:
    reads: list[str] = []
    real = bm25_module.read_query_terms
    monkeypatch.setattr(bm25_module, "read_query_terms", lambda cur, q: reads.append(q) or real(cur, q))
    return reads


def test_the_answer_carries_the_terms_the_snippets_mark_and_the_reference_fusion_divides_by(index):
    answer = index.answer("The running budget of zzyzx", 10)
    assert answer.terms.terms == terms_module.shared_matcher().query_terms("The running budget of zzyzx")
    assert answer.terms.terms == {"run", "budget", "zzyzx"}
    assert len(answer.terms.tids) == 2  # zzyzx is not in the corpus
    assert answer.terms.reference == pytest.approx(index.query_reference("running budget zzyzx"))
    assert [h.key for h in answer.hits] == [h.key for h in index.search("The running budget of zzyzx", 10)]
    assert set(answer.texts) == {h.key for h in answer.hits}


def test_a_repeated_query_reads_its_terms_once_until_the_next_write(index, monkeypatch):
    reads = counting_reads(monkeypatch)
    before = index.query_reference("alpha epsilon")
    for _ in range(3):
        index.answer("alpha epsilon", 5)
        index.query_reference("alpha epsilon")
    assert reads == ["alpha epsilon"]
    index.upsert("/r/d.txt", ["epsilon arrives"])  # a new term, a new df and a new corpus size
    after = index.answer("alpha epsilon", 5)
    assert reads == ["alpha epsilon", "alpha epsilon"]
    assert len(after.terms.tids) == 2 and after.hits[0].path == "/r/d.txt"
    assert after.terms.reference != pytest.approx(before)


def test_a_query_without_terms_reads_nothing_and_finds_nothing(index, monkeypatch):
    reads = counting_reads(monkeypatch)
    assert index.answer("   ", 5).hits == []
    assert index.answer("the of and", 5).terms.terms == frozenset()
    assert index.answer("the of and", 5).hits == []
    assert reads == ["the of and"]


def test_hybrid_search_marks_snippets_without_stemming_the_query_a_second_time(tmp_path, monkeypatch):
    embedder = HashingEmbedder(64)
    keywords = KeywordIndex(tmp_path / "k.duckdb")
    vectors = VectorIndex(tmp_path / "vectors", embedder.dim)
    for path, chunks in CORPUS.items():
        keywords.upsert(path, chunks)
        vectors.upsert(path, chunks, embedder.embed(chunks))
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True)

    def no_second_stemming(query: str) -> frozenset[str]:
        raise AssertionError(f"the snippets stemmed {query!r} again")

    monkeypatch.setattr(terms_module.shared_matcher(), "query_terms", no_second_stemming)
    results = search.search("running budget", limit=3)
    assert results and results[0].path == "/r/a.txt"
    assert results[0].snippet[slice(*results[0].highlights[0])] == "Running"
    keywords.close()
