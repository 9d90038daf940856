"""Point writes hand out chunk and term ids from blocks drawn ahead (keyword_point.WriteState.take): every id
stays unique across bulk writes, failed writes and a kill, and a point write's ids stay above every id in
the tables, which the staleness count relies on (change_count.py)."""

from __future__ import annotations

from engine.retrieval.keyword.index import KeywordIndex
from tests.retrieval.test_keyword_crash import crash_after


def ids_by_path(index: KeywordIndex) -> dict[str, list[int]]:
    got: dict[str, list[int]] = {}
    for chunk_id, path in index._reader().execute("SELECT id, path FROM chunks ORDER BY id").fetchall():
        got.setdefault(path, []).append(int(chunk_id))
    return got


def assert_ids_unique(index: KeywordIndex) -> None:
    chunks, distinct = index._reader().execute("SELECT count(*), count(DISTINCT id) FROM chunks").fetchone()
    assert chunks == distinct
    terms, distinct = index._reader().execute("SELECT count(*), count(DISTINCT tid) FROM terms").fetchone()
    assert terms == distinct


def test_a_point_write_after_a_bulk_write_gets_ids_above_the_bulk_ones(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert("/docs/a.txt", ["alpha one", "alpha two"])  # draws a block of ids
        index.upsert_many([(f"/docs/b{i}.txt", [f"beta {i}", "gamma"]) for i in range(6)])  # the bulk SQL
        index.upsert("/docs/c.txt", ["delta epsilon"])
        ids = ids_by_path(index)
        bulk = [i for path, got in ids.items() if path.startswith("/docs/b") for i in got]
        assert min(ids["/docs/c.txt"]) > max(bulk)
        index.refresh_weights()
        assert index.stale_ratio() == 0
        index.upsert("/docs/d.txt", ["zeta"])
        assert index.stale_ratio() > 0  # counted: its id is above the refresh's mark
        assert_ids_unique(index)
    finally:
        index.close()


def test_ids_drawn_by_a_failed_write_are_not_handed_out_after_a_kill(tmp_path):
    db = tmp_path / "k.duckdb"
    crash_after(
        db,
        """
        from engine.retrieval.keyword import point as keyword_point
        real = keyword_point._insert
        def fail(*args, **kwargs):
            raise RuntimeError("the write fails after drawing its ids")
        keyword_point._insert = fail
        try:
            index.upsert('/docs/a.txt', ['alpha novel words here'])
        except RuntimeError:
            pass
        keyword_point._insert = real
        index.upsert('/docs/b.txt', ['beta other words', 'gamma'])
        index.upsert('/docs/c.txt', ['delta'])
        """,
    )
    index = KeywordIndex(db)
    try:
        index.upsert("/docs/d.txt", ["epsilon words", "zeta"])
        index.upsert("/docs/e.txt", ["eta theta"])
        assert set(ids_by_path(index)) == {f"/docs/{name}.txt" for name in "bcde"}
        assert_ids_unique(index)
        assert {hit.path for hit in index.search("words", 10)} == {"/docs/b.txt", "/docs/d.txt"}
    finally:
        index.close()
