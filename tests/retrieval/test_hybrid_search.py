"""Hybrid search end to end over real files, with the deterministic hashing embedder."""

from __future__ import annotations

import pytest

from engine.embed import HashingEmbedder
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.vectors import VectorIndex

TEXTS = {
    "Docs/budget.txt": [
        "The quarterly budget review for the marketing team.",
        "Appendix: travel costs and the revised budget for the spring offsite.",
    ],
    "Docs/recipes/bread.md": ["Sourdough bread: flour, water, salt, and a long slow rise."],
    "DocsEvil/leak.txt": ["The quarterly budget review leaked to a competitor."],
    "Other/zebra.txt": ["Zebras graze on the savanna in large herds."],
}


class WordCountReranker:
    """A reranker for tests: the share of query words the text contains (a probability in [0, 1])."""

    name = "test-word-count"

    def __init__(self):
        self.calls = 0

    def score(self, query, texts):
        self.calls += 1
        words = query.lower().split()
        return [sum(w in t.lower() for w in words) / len(words) for t in texts]


@pytest.fixture
def corpus(tmp_path):
    root = tmp_path / "root"
    embedder = HashingEmbedder(64)
    keywords = KeywordIndex(tmp_path / "k.duckdb")
    vectors = VectorIndex(tmp_path / "vectors", embedder.dim)
    for relative, chunks in TEXTS.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n\n".join(chunks), encoding="utf-8")
        keywords.upsert(str(path), chunks)
        vectors.upsert(str(path), chunks, embedder.embed(chunks))
    yield root, HybridSearch(keywords, vectors, embedder)
    keywords.close()


def test_best_file_comes_first_with_one_result_per_file_and_a_snippet(corpus):
    root, search = corpus
    results = search.search("budget travel costs", limit=10)
    assert results[0].path == str(root / "Docs/budget.txt")
    assert results[0].name == "budget.txt"
    assert "travel costs" in results[0].snippet
    assert len({r.path for r in results}) == len(results)
    assert all(0.0 <= r.score <= 1.0 for r in results)
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)


def test_a_chunk_first_in_both_arms_scores_one(corpus):
    _, search = corpus
    top = search.search("Zebras graze on the savanna in large herds.", limit=1)[0]
    assert top.name == "zebra.txt" and top.score == pytest.approx(1.0)


def test_scope_is_segment_exact_so_docs_never_returns_docsevil(corpus):
    root, search = corpus
    results = search.search("quarterly budget review leaked", scope=str(root / "Docs"), limit=10)
    assert results and all(r.path.startswith(str(root / "Docs") + "/") for r in results)
    assert str(root / "DocsEvil/leak.txt") not in {r.path for r in results}


def test_a_file_deleted_from_disk_is_not_returned_even_before_the_index_catches_up(corpus):
    root, search = corpus
    (root / "Docs/budget.txt").unlink()
    paths = [r.path for r in search.search("quarterly budget review", limit=10)]
    assert str(root / "Docs/budget.txt") not in paths
    assert str(root / "DocsEvil/leak.txt") in paths


def test_a_reranker_reorders_the_head_and_its_probability_becomes_the_score(corpus):
    root, search = corpus
    reranker = WordCountReranker()
    search.reranker = reranker
    results = search.search("sourdough salt", limit=3)
    assert reranker.calls == 1
    assert results[0].path == str(root / "Docs/recipes/bread.md") and results[0].score == pytest.approx(1.0)
    assert all(r.score <= results[0].score for r in results)


def test_keyword_and_dense_arms_can_be_searched_alone(corpus):
    root, search = corpus
    assert search.search_keyword("sourdough")[0].path == str(root / "Docs/recipes/bread.md")
    assert search.search_keyword("sourdough")[0].score == pytest.approx(1.0)
    assert search.search_dense("Zebras graze on the savanna in large herds.")[0].name == "zebra.txt"


def test_an_empty_query_returns_nothing(corpus):
    _, search = corpus
    assert search.search("   ") == []


def test_results_carry_highlight_ranges_of_the_query_terms_in_their_snippet(corpus):
    _, search = corpus
    top = search.search("sourdough")[0]
    marked = [top.snippet[start:end].lower() for start, end in top.highlights]
    assert marked and set(marked) == {"sourdough"}


def test_snippets_come_from_the_text_each_arm_returns_without_a_second_read(corpus, monkeypatch):
    _, search = corpus

    def no_second_read(keys):
        keys = list(keys)
        assert not keys, f"hybrid search read chunk text again for {keys}"
        return {}

    monkeypatch.setattr(search.vectors, "texts", no_second_read)
    results = search.search("sourdough flour salt", limit=10)
    assert results[0].name == "bread.md" and "Sourdough" in results[0].snippet
    keyword_only = search.search_keyword("savanna herds", limit=3)
    assert keyword_only[0].name == "zebra.txt" and "savanna" in keyword_only[0].snippet
    dense_only = search.search_dense("Zebras graze on the savanna in large herds.", limit=3)
    assert dense_only[0].name == "zebra.txt" and "savanna" in dense_only[0].snippet
