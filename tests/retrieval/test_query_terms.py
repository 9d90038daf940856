"""Queries are tokenised like documents: stop words dropped before stemming, single letters kept."""

from __future__ import annotations

from engine.retrieval.keyword import tokenize
from engine.retrieval.keyword.index import KeywordIndex

CORPUS = {
    "/r/abbrev.txt": ["FORs and ARs were counted in every sample."],
    "/r/tcell.txt": ["T cell activation after vaccination."],
    "/r/bcell.txt": ["B cell activation after vaccination."],
    "/r/vitk.txt": ["Vitamin K deficiency in newborns."],
    "/r/vitd.txt": ["Vitamin D deficiency in adults."],
    "/r/gcsf.txt": ["G-CSF raised the neutrophil count."],
}


def build(tmp_path) -> KeywordIndex:
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(CORPUS.items())
    return index


def top(index: KeywordIndex, query: str) -> list[str]:
    return [hit.path for hit in index.search(query, 10)]


def test_query_stop_words_are_dropped_instead_of_matching_abbreviations_that_stem_alike(tmp_path):
    index = build(tmp_path)
    assert top(index, "for") == []  # "for" would stem to the term of "FORs"
    assert top(index, "are") == []  # "are" would stem to the term of "ARs"
    assert top(index, "what are FORs for") == ["/r/abbrev.txt"]
    index.close()


def test_single_letters_are_kept_in_documents_and_queries(tmp_path):
    index = build(tmp_path)
    assert top(index, "T cell")[0] == "/r/tcell.txt"
    assert top(index, "vitamin K")[0] == "/r/vitk.txt"
    assert top(index, "K") == ["/r/vitk.txt"]
    assert top(index, "G CSF") == ["/r/gcsf.txt"]
    index.close()


def test_the_english_words_a_and_i_stay_stop_words():
    assert {"a", "i"} <= tokenize.STOPWORDS
    assert not {"t", "k", "g", "n", "b"} & tokenize.STOPWORDS
    assert tokenize.STOPWORDS <= tokenize.SMART_STOPWORDS
