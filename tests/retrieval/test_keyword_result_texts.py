"""A result that only the keyword arm found (its file has keyword rows and no vectors yet) shows its own
text: the keyword arm's text serves the snippet, from a hybrid search and from the keyword arm alone."""

from __future__ import annotations

from engine.embed import HashingEmbedder
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.vectors import VectorIndex

FILES = {
    "/docs/a.txt": ["the budget review for spring", "travel costs of the team"],
    "/docs/b.txt": ["budget travel plans", "nothing to see here"],
    "/docs/c.txt": ["quarterly budget figures and review"],
}


def test_a_result_only_the_keyword_arm_found_shows_its_own_text(tmp_path):
    embedder = HashingEmbedder(64)
    keywords = KeywordIndex(tmp_path / "k.duckdb")
    vectors = VectorIndex(tmp_path / "vectors", embedder.dim)
    keywords.upsert_many(FILES.items())
    for path in ("/docs/a.txt", "/docs/b.txt"):  # c.txt has keyword rows and no vectors yet
        vectors.upsert(path, FILES[path], embedder.embed(FILES[path]))
    search = HybridSearch(keywords, vectors, embedder, exists=lambda _p: True, floor=0.0)
    results = {r.path: r for r in search.search("quarterly figures", limit=5)}
    assert results["/docs/c.txt"].snippet == "quarterly budget figures and review"
    assert [r.snippet for r in search.search_keyword("quarterly figures")] == [
        "quarterly budget figures and review"
    ]
    one = search.search("budget", limit=1, candidates=5)
    assert [r.snippet for r in one] == [" ".join(FILES[one[0].path][one[0].chunk_index].split())]
    keywords.close()
