"""A one-file update leaves the chunks that come back unchanged where they are (keyword/point.py's
`unchanged`): same ids, postings still live, nothing counted as changed, and the same index as a rebuild."""

from __future__ import annotations

from engine.retrieval.keyword.index import KeywordIndex
from tests.retrieval.test_keyword_writes import assert_refreshed_equals, recounted_df, snapshot

BEFORE = ["apple banana cherry", "durian elder fig", "grape honeydew kiwi"]
AFTER = ["apple banana cherry", "durian elder figs and lemons", "grape honeydew kiwi", "mango"]


def chunk_ids(index: KeywordIndex, path: str) -> dict[int, int]:
    rows = index._reader().execute("SELECT chunk_index, id FROM chunks WHERE path = ?", [path]).fetchall()
    return dict(rows)


def test_an_edit_keeps_the_ids_of_the_chunks_it_leaves_unchanged_and_removes_only_the_changed_one(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert("/r/a.txt", BEFORE)
        index.refresh_weights()
        before = chunk_ids(index, "/r/a.txt")
        index.upsert("/r/a.txt", AFTER)
        after = chunk_ids(index, "/r/a.txt")
        assert after[0] == before[0] and after[2] == before[2]
        assert after[1] not in before.values() and after[3] not in before.values()
        # one chunk removed and two added, of four: the unchanged two are not counted as changed
        assert index.stale_ratio() == 3 / 4
        assert {h.chunk_index for h in index.search("apple kiwi lemon", 10)} == {0, 1, 2}
        assert not {h.chunk_index for h in index.search("fig", 10)} - {1}
        assert recounted_df(index) == snapshot(index)["df"]
    finally:
        index.close()


def test_an_edit_that_keeps_chunks_leaves_the_index_a_rebuild_of_its_text_holds(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    rebuilt = KeywordIndex(tmp_path / "rebuilt.duckdb")
    try:
        index.upsert("/r/a.txt", BEFORE)
        index.upsert("/r/b.txt", ["banana split", "cherry pie"])
        index.upsert("/r/a.txt", AFTER)
        kept = chunk_ids(index, "/r/a.txt")
        index.upsert("/r/a.txt", AFTER[:2])  # chunks 2 and 3 go, 0 and 1 stay
        assert chunk_ids(index, "/r/a.txt") == {0: kept[0], 1: kept[1]}
        rebuilt.upsert_many([("/r/a.txt", AFTER[:2]), ("/r/b.txt", ["banana split", "cherry pie"])])
        got, fresh = snapshot(index), snapshot(rebuilt)
        assert got["chunks"] == fresh["chunks"] and got["tf"] == fresh["tf"] and got["df"] == fresh["df"]
        assert_refreshed_equals(index, rebuilt, ["apple", "lemon", "kiwi", "banana cherry", "fig"])
    finally:
        index.close()
        rebuilt.close()
