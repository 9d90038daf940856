"""KeywordIndex.query_reference: the BM25 score of a chunk holding each query term once at average length."""

from __future__ import annotations

import pytest

from engine.retrieval.keyword.index import KeywordIndex

CORPUS = {
    "/r/a.txt": ["alpha beta"],
    "/r/b.txt": ["gamma delta"],
    "/r/c.txt": ["alpha delta"],
    "/r/d.txt": ["beta gamma"],
}


def test_a_chunk_with_every_query_term_once_at_average_length_scores_exactly_the_reference(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(CORPUS.items())
    hits = index.search("alpha beta", 4)
    assert hits[0].path == "/r/a.txt"
    assert hits[0].score == pytest.approx(index.query_reference("alpha beta"), rel=1e-6)
    assert index.query_reference("Alpha, BETA!") == pytest.approx(index.query_reference("alpha beta"))
    index.close()


def test_words_the_corpus_lacks_raise_the_reference_and_stop_words_count_nothing(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(CORPUS.items())
    assert index.query_reference("alpha beta zzyzx") > 1.5 * index.query_reference("alpha beta")
    assert index.query_reference("the alpha of beta") == pytest.approx(index.query_reference("alpha beta"))
    assert index.query_reference("the of and") == 0.0
    assert index.query_reference("") == 0.0
    index.close()
