"""A keyword query reads its terms, their ids and its reference score in one statement, kept until a write."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.embed import HashingEmbedder
from engine.retrieval import terms as terms_module
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword import reading as reading_module
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.point_tokens import Stems
from engine.retrieval.keyword.query import read_query_terms
from engine.retrieval.keyword.query_words import TermLookup
from engine.retrieval.keyword.writes import idf
from tests.retrieval.helpers import filled_stores
from tests.retrieval.test_keyword_writes import recounted_df

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
    """The queries whose terms are resolved (in Python for ASCII text, by SQL otherwise)."""
    reads: list[str] = []
    real_sql, real_words = reading_module.read_query_terms, TermLookup.query_terms
    monkeypatch.setattr(
        reading_module, "read_query_terms", lambda cur, q, *more: reads.append(q) or real_sql(cur, q, *more)
    )
    monkeypatch.setattr(
        TermLookup,
        "query_terms",
        lambda self, cur, q, *more: reads.append(q) or real_words(self, cur, q, *more),
    )
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
    keywords, vectors = filled_stores(tmp_path, CORPUS, embedder)
    # the keyword arm decides the order: the hashing embedder's vectors are random with respect to meaning
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True, weights=(0.9, 0.1))

    def no_second_stemming(query: str) -> frozenset[str]:
        raise AssertionError(f"the snippets stemmed {query!r} again")

    monkeypatch.setattr(terms_module.shared_matcher(), "query_terms", no_second_stemming)
    results = search.search("running budget", limit=3)
    assert results and results[0].path == "/r/a.txt"
    assert results[0].snippet[slice(*results[0].highlights[0])] == "Running"
    keywords.close()


WORDS = st.sampled_from(
    "Running runs RUN budget budgets the of and alpha zzyzx T cell G-CSF 2024 ref00005q a's x\x0by "
    "can't foo_bar (beta) e.g. vitamin K; travel--costs".split(" ")
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(WORDS, max_size=6), glue=st.sampled_from([" ", "  ", "\t", ", ", "\n", "/"]))
def test_an_ascii_query_resolved_in_python_equals_the_tokenising_sql(index, words, glue):
    query = glue.join(words)
    sql = read_query_terms(index._reader(), query)
    ours = TermLookup(Stems()).query_terms(index._reader(), query, 0)  # a memo of its own: stems by SQL
    assert ours is not None
    assert ours.terms == sql.terms and ours.tids == sql.tids
    assert ours.reference == pytest.approx(sql.reference, rel=1e-12)
    again = index._words.query_terms(index._reader(), query, index._writes)  # through the kept stems
    assert again is not None and again.terms == sql.terms and again.tids == sql.tids


def test_a_query_that_is_not_ascii_is_left_to_the_sql(index):
    assert TermLookup().query_terms(index._reader(), "Café budget", 0) is None
    assert (
        index.answer("Café budget", 5).terms.terms == read_query_terms(index._reader(), "Café budget").terms
    )


def test_kept_term_rows_are_not_used_after_a_write(index):
    before = index.answer("epsilon budget", 5)
    assert len(before.terms.tids) == 1
    index.upsert("/r/e.txt", ["epsilon budget"])
    after = index.answer("epsilon budget", 5)
    assert len(after.terms.tids) == 2 and after.hits[0].path == "/r/e.txt"
    df, size = recounted_df(index), index.stats()["chunks"]  # counted from the postings themselves
    assert after.terms.reference == pytest.approx(sum(idf(size, df.get(t, 0)) for t in after.terms.terms))
