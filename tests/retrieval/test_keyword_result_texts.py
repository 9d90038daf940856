"""A hybrid search reads the keyword arm's hits without their text and reads the text of only the few
results it shows, by chunk id. The text shown is still each chunk's own, also for a result only the
keyword arm found, and an id that no longer holds the chunk it named is never read as that chunk."""

from __future__ import annotations

from engine.indexing.embed import HashingEmbedder
from engine.retrieval.bm25 import KeywordIndex
from engine.retrieval.hybrid import HybridSearch
from engine.retrieval.vectors import VectorIndex

FILES = {
    "/docs/a.txt": ["the budget review for spring", "travel costs of the team"],
    "/docs/b.txt": ["budget travel plans", "nothing to see here"],
    "/docs/c.txt": ["quarterly budget figures and review"],
}


def test_an_answer_with_fewer_texts_has_the_same_hits_their_ids_and_the_best_ones_text(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(FILES.items())
    full = index.answer("budget review", 10)
    assert len(full.hits) == 3 and set(full.texts) == {hit.key for hit in full.hits}
    for shown in (0, 2):
        fewer = index.answer("budget review", 10, texts=shown)
        assert fewer.hits == full.hits and fewer.terms == full.terms and fewer.ids == full.ids
        assert fewer.texts == {hit.key: full.texts[hit.key] for hit in full.hits[:shown]}
    assert index.chunk_texts(full.ids) == full.texts
    index.close()


def test_chunk_texts_leaves_out_an_id_that_no_longer_holds_its_chunk(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert_many(FILES.items())
    ids = index.answer("budget", 10, texts=0).ids
    index.upsert("/docs/a.txt", ["a new text without the word"])  # a.txt's chunks get new ids
    texts = index.chunk_texts(ids)
    assert not any(path == "/docs/a.txt" for path, _ in texts)
    assert texts[("/docs/c.txt", 0)] == "quarterly budget figures and review"
    wrong = {("/docs/b.txt", 0): ids[("/docs/c.txt", 0)]}  # an id naming another chunk is not read
    assert index.chunk_texts(wrong) == {}
    index.close()


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
    many = search.search("budget", limit=1, candidates=5)  # the keyword arm reads one text, shows one
    assert [r.snippet for r in many] == [" ".join(FILES[many[0].path][many[0].chunk_index].split())]
    keywords.close()
