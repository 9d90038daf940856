"""The LanceDB vector table: replace per file, segment-exact folder operations, renames that keep vectors."""

from __future__ import annotations

import numpy as np
import pytest

from engine.embed import HashingEmbedder
from engine.errors import InvalidInput, StoreError
from engine.retrieval import lance_calls
from engine.retrieval import vectors as vectors_module
from engine.retrieval.vectors import VectorIndex

EMBEDDER = HashingEmbedder(64)
FILES = {
    "/r/Docs/budget.txt": ["quarterly budget review", "travel costs rose"],
    "/r/Docs/notes.md": ["meeting notes hiring plan"],
    "/r/DocsEvil/secret.txt": ["budget spreadsheet secret"],
    "/r/it's/quoted.txt": ["a path with a quote"],
}


def make_index(tmp_path, files=FILES):
    index = VectorIndex(tmp_path / "vectors", EMBEDDER.dim)
    index.upsert_many([(path, texts, EMBEDDER.embed(texts)) for path, texts in files.items()])
    return index


def query(text):
    return EMBEDDER.embed([text])[0]


def test_nearest_chunk_comes_first_with_cosine_similarity_as_score(tmp_path):
    index = make_index(tmp_path)
    hits = index.search(query("quarterly budget review"), k=3)
    assert (hits[0].path, hits[0].chunk_index) == ("/r/Docs/budget.txt", 0)
    assert hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert hits[0].score >= hits[1].score >= hits[2].score


def test_upsert_replaces_every_chunk_of_the_file(tmp_path):
    index = make_index(tmp_path)
    index.upsert("/r/Docs/budget.txt", ["only one chunk now"], EMBEDDER.embed(["only one chunk now"]))
    assert index.chunk_counts()["/r/Docs/budget.txt"] == 1
    assert index.text("/r/Docs/budget.txt", 0) == "only one chunk now"
    assert index.text("/r/Docs/budget.txt", 1) is None


def test_scope_is_segment_exact_so_docs_never_matches_docsevil(tmp_path):
    index = make_index(tmp_path)
    paths = {h.path for h in index.search(query("budget secret spreadsheet"), k=10, scope="/r/Docs")}
    assert paths == {"/r/Docs/budget.txt", "/r/Docs/notes.md"}


def test_rename_of_a_folder_moves_paths_and_keeps_vectors_and_text_byte_identical(tmp_path):
    index = make_index(tmp_path)
    before = index._table.search().where("path = '/r/Docs/budget.txt'").to_arrow().sort_by("chunk_index")
    index.rename("/r/Docs", "/r/Papers")
    after = index._table.search().where("path = '/r/Papers/budget.txt'").to_arrow().sort_by("chunk_index")
    assert after["vector"].to_pylist() == before["vector"].to_pylist()
    assert after["text"].to_pylist() == before["text"].to_pylist()
    counts = index.chunk_counts()
    assert "/r/DocsEvil/secret.txt" in counts and not any(p.startswith("/r/Docs/") for p in counts)


def test_delete_of_a_folder_removes_everything_beneath_it_and_nothing_beside_it(tmp_path):
    index = make_index(tmp_path)
    index.delete("/r/Docs")
    assert set(index.chunk_counts()) == {"/r/DocsEvil/secret.txt", "/r/it's/quoted.txt"}


def test_paths_with_quotes_are_escaped_in_every_operation(tmp_path):
    index = make_index(tmp_path)
    assert [h.path for h in index.search(query("quote"), k=5, scope="/r/it's")] == ["/r/it's/quoted.txt"]
    index.rename("/r/it's", "/r/it''s")
    assert index.texts([("/r/it''s/quoted.txt", 0)]) == {("/r/it''s/quoted.txt", 0): "a path with a quote"}
    index.delete("/r/it''s")
    assert "/r/it''s/quoted.txt" not in index.chunk_counts()


def test_texts_returns_the_stored_text_of_many_chunks_at_once(tmp_path):
    index = make_index(tmp_path)
    texts = index.texts([("/r/Docs/budget.txt", 1), ("/r/Docs/notes.md", 0), ("/r/none.txt", 0)])
    assert texts == {
        ("/r/Docs/budget.txt", 1): "travel costs rose",
        ("/r/Docs/notes.md", 0): "meeting notes hiring plan",
    }


def test_an_empty_index_answers_with_no_hits(tmp_path):
    index = VectorIndex(tmp_path / "vectors", EMBEDDER.dim)
    assert index.search(query("anything"), k=5) == []
    assert index.search(query("anything"), k=5, scope="/r") == []
    index.optimize()  # nothing to do, no error


def test_a_vector_of_the_wrong_size_is_refused_with_a_clear_message(tmp_path):
    index = make_index(tmp_path)
    with pytest.raises(InvalidInput, match="3-d query vector"):
        index.search(np.ones(3, np.float32))
    with pytest.raises(InvalidInput, match="2 chunks but 1 vectors"):
        index.upsert("/r/x.txt", ["a", "b"], EMBEDDER.embed(["a"]))


def test_reopening_with_another_dimension_asks_for_a_reindex(tmp_path):
    make_index(tmp_path)
    with pytest.raises(StoreError, match="re-index"):
        VectorIndex(tmp_path / "vectors", 32)


def test_optimize_builds_an_ann_index_on_a_big_table_and_search_still_finds_exact_matches(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(vectors_module, "ANN_MIN_ROWS", 500)
    rng = np.random.default_rng(7)
    matrix = rng.normal(size=(600, 64)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    index = VectorIndex(tmp_path / "vectors", 64)
    index.upsert_many([(f"/r/F{i // 100}/doc{i}.txt", [f"text {i}"], matrix[i : i + 1]) for i in range(600)])
    index.optimize()
    assert index.has_ann()
    assert [ix.index_type for ix in index._table.list_indices() if ix.columns == ["vector"]] == ["IvfHnswSq"]
    for i in (3, 250, 599):
        assert index.search(matrix[i], k=1)[0].path == f"/r/F{i // 100}/doc{i}.txt"
    scoped = index.search(matrix[250], k=5, scope="/r/F2")
    assert scoped[0].path == "/r/F2/doc250.txt" and all(h.path.startswith("/r/F2/") for h in scoped)
    index.upsert("/r/F9/late.txt", ["late"], matrix[:1] * -1)  # written after the index: scanned flat
    assert index.search(matrix[0] * -1, k=1)[0].path == "/r/F9/late.txt"


def test_search_with_text_returns_each_hits_stored_text(tmp_path):
    index = make_index(tmp_path)
    hits, texts = index.search_with_text(query("meeting notes hiring plan"), k=2)
    assert texts[hits[0].key] == "meeting notes hiring plan"
    assert set(texts) == {h.key for h in hits}


def test_the_hnsw_search_breadth_grows_with_the_table_and_always_covers_k():
    assert vectors_module.search_breadth(50, 100_000) == 200  # recall@10 1.000 at 100k real vectors
    assert vectors_module.search_breadth(50, 1_000_000) == 800  # ef 200 gave 0.832 at 1M, ef 800 0.974
    assert vectors_module.search_breadth(50, 50_000_000) == 1000
    assert vectors_module.search_breadth(600, 100_000) == 1200


def _ann_index(tmp_path, monkeypatch):
    """700 unit vectors in folders F0..F6 of 100, behind an ANN index, plus one row it has not folded in."""
    monkeypatch.setattr(vectors_module, "ANN_MIN_ROWS", 500)
    rng = np.random.default_rng(5)
    matrix = rng.normal(size=(700, 64)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    index = VectorIndex(tmp_path / "vectors", 64)
    index.upsert_many([(f"/r/F{i // 100}/doc{i}.txt", [f"text {i}"], matrix[i : i + 1]) for i in range(700)])
    index.optimize()
    index.upsert("/r/F3/late.txt", ["late"], matrix[:1])  # a row the ANN index has not folded in
    return index, matrix


def test_an_index_given_a_search_breadth_asks_it_for_every_ann_search(tmp_path, monkeypatch):
    index, matrix = _ann_index(tmp_path, monkeypatch)
    asked: list[tuple[int, int]] = []

    def breadth(k: int, rows: int) -> int:
        asked.append((k, rows))
        return 3 * k

    narrow = index.with_breadth(breadth)
    assert narrow.search(matrix[42], k=5)[0].path == "/r/F0/doc42.txt"
    assert asked == [(5, 701)]
    index.search(matrix[42], k=5)  # the product's own breadth is not the one given to another index
    assert asked == [(5, 701)]


def test_a_repeated_scoped_search_counts_its_scope_once_until_the_next_write(tmp_path, monkeypatch):
    index, matrix = _ann_index(tmp_path, monkeypatch)
    counted: list[object] = []
    real_count = index._table.count_rows
    monkeypatch.setattr(
        index._table, "count_rows", lambda where=None: counted.append(where) or real_count(where)
    )
    for _ in range(3):
        assert index.search(matrix[250], k=3, scope="/r/F2")[0].path == "/r/F2/doc250.txt"
    assert len([w for w in counted if w is not None]) == 1
    index.upsert("/r/F2/new.txt", ["new"], matrix[:1] * -1)  # a write: the scope is counted again
    assert index.search(matrix[0] * -1, k=1, scope="/r/F2")[0].path == "/r/F2/new.txt"
    assert len([w for w in counted if w is not None]) == 2


def test_a_search_answers_exactly_as_lancedbs_public_query_builder(tmp_path, monkeypatch):
    index, matrix = _ann_index(tmp_path, monkeypatch)
    monkeypatch.setattr(vectors_module, "EXACT_SCOPE_ROWS", 50)  # F1..F6 hold 100: searched by the ANN
    for scope in (None, "/r/F2", "/r/F3", "/r/F0/doc5.txt", "/r/Nowhere"):
        for row in (0, 5, 250, 333, 699):
            ann = index.has_ann() and not (
                scope and index._rows_under(scope, vectors_module.path_filter(scope)) <= 50
            )
            where = None if scope is None else vectors_module.path_filter(scope)
            hits, texts = index.start_search(matrix[row], 20, scope).result()
            ef = index._breadth(20, index.count()) if ann else None
            public = lance_calls.nearest_sync(index._table, matrix[row], 20, where, ef)
            assert [h.path for h in hits] == public["path"].to_pylist()
            assert [texts[h.key] for h in hits] == public["text"].to_pylist()
            assert np.allclose([1.0 - h.score for h in hits], public["_distance"].to_numpy())


def test_a_warm_search_is_one_request_to_lancedbs_event_loop(tmp_path, monkeypatch):
    """Each request is a hand-off to LanceDB's loop thread and back; on two busy cores the wake-ups cost
    more than the search, and LanceDB's own builder makes four. (Every request reaches the loop through
    asyncio.run_coroutine_threadsafe, LanceDB's blocking calls and a started search alike.)"""
    import asyncio

    index, matrix = _ann_index(tmp_path, monkeypatch)
    index.search(matrix[1], 10)
    index.search(matrix[1], 10, scope="/r/F2")  # the shape and the scope's size are read once
    calls: list[object] = []
    real_submit = asyncio.run_coroutine_threadsafe
    monkeypatch.setattr(
        asyncio, "run_coroutine_threadsafe", lambda coro, loop: calls.append(coro) or real_submit(coro, loop)
    )
    assert index.search(matrix[1], 10)[0].path == "/r/F0/doc1.txt"
    assert index.search(matrix[250], 10, scope="/r/F2")[0].path == "/r/F2/doc250.txt"
    assert len(calls) == 2
