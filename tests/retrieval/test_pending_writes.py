"""Point writes keep their document-frequency changes and removed chunk ids in memory (pending_writes.py):
queries still read exact df and skip removed chunks, a clean close writes both, a kill loses them and the
next open rebuilds them from the postings."""

from __future__ import annotations

import duckdb
import pytest

from engine.retrieval.keyword import pending as pending_writes
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.writes import idf
from tests.retrieval.test_keyword_crash import crash_after
from tests.retrieval.test_keyword_writes import recounted_df

FIRST = [(f"/docs/f{i}.txt", [f"alpha beta file {i}", f"gamma delta {i} alpha"]) for i in range(10)]
QUERY = "alpha gamma epsilon zeta"


def table_df(db_or_index) -> dict[str, int]:
    """The df `terms` holds, read from the file (not through the index's pending changes)."""
    if isinstance(db_or_index, KeywordIndex):
        rows = db_or_index._reader().execute("SELECT term, df FROM terms").fetchall()
    else:
        with duckdb.connect(str(db_or_index), read_only=True) as con:
            rows = con.execute("SELECT term, df FROM terms").fetchall()
    return {term: int(df) for term, df in rows if df}


def marker(db_or_index) -> float:
    """meta's `unwritten` marker, read from the file or through the index."""
    sql = "SELECT value FROM meta WHERE key = 'unwritten'"
    if isinstance(db_or_index, KeywordIndex):
        return db_or_index._reader().execute(sql).fetchone()[0]
    with duckdb.connect(str(db_or_index), read_only=True) as con:
        return con.execute(sql).fetchone()[0]


def expected_reference(index: KeywordIndex, query: str) -> float:
    df, size = recounted_df(index), index.stats()["chunks"]
    return sum(idf(size, df.get(term, 0)) for term in index.query_terms(query).terms)


def point_writes(index: KeywordIndex) -> None:
    index.upsert("/docs/f1.txt", ["alpha epsilon", "zeta"])  # replaces a file
    index.upsert("/docs/new.txt", ["alpha alpha gamma zeta"])  # adds one
    index.delete("/docs/f2.txt")


def test_point_writes_leave_terms_behind_while_queries_read_exact_df(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many(FIRST)  # the bulk path writes df in SQL
        assert table_df(index) == recounted_df(index)
        point_writes(index)
        exact = recounted_df(index)
        assert table_df(index) != exact  # the writes did not update `terms`
        assert {t: n for t, n in index.document_frequencies().items() if n} == exact
        assert index.query_reference(QUERY) == pytest.approx(expected_reference(index, QUERY))
        assert index.query_terms("Café alpha").reference == pytest.approx(  # the SQL path, not ASCII
            expected_reference(index, "Café alpha")
        )
    finally:
        index.close()
    assert marker(tmp_path / "k.duckdb") == 0
    reopened = KeywordIndex(tmp_path / "k.duckdb")
    try:
        assert table_df(reopened) == exact  # written at close
    finally:
        reopened.close()


def test_a_kill_after_point_writes_is_recounted_at_the_next_open(tmp_path, caplog):
    db = tmp_path / "k.duckdb"
    crash_after(
        db,
        f"index.upsert_many({FIRST!r})\n"
        "index.upsert('/docs/f1.txt', ['alpha epsilon', 'zeta'])\n"
        "index.upsert('/docs/new.txt', ['alpha alpha gamma zeta'])\n"
        "index.delete('/docs/f2.txt')\n",
    )
    assert marker(db) == 1
    index = KeywordIndex(db)
    try:
        assert "recounted after an unclean exit" in caplog.text
        exact = recounted_df(index)
        assert exact["alpha"] == 18 and exact["zeta"] == 2
        assert table_df(index) == exact
        assert index.query_reference(QUERY) == pytest.approx(expected_reference(index, QUERY))
        index.upsert("/docs/f3.txt", ["epsilon"])  # and writes go on from exact df
        assert {t: n for t, n in index.document_frequencies().items() if n} == recounted_df(index)
    finally:
        index.close()
    assert marker(db) == 0


def test_a_bulk_write_and_a_refresh_start_from_the_written_changes(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many(FIRST)
        point_writes(index)
        index.upsert_many([(f"/more/m{i}.txt", ["alpha zeta omega"]) for i in range(6)])  # bulk SQL
        assert table_df(index) == recounted_df(index)
        point_writes(index)
        index.refresh_weights()
        assert table_df(index) == recounted_df(index)
        assert marker(index) == 0
    finally:
        index.close()


def test_changes_to_many_terms_are_written_by_the_next_write(tmp_path, monkeypatch):
    monkeypatch.setattr(pending_writes, "WRITE_TERMS", 3)
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many(FIRST)
        index.upsert("/docs/a.txt", ["alpha beta gamma delta"])  # four terms' df change
        before_next = recounted_df(index)
        index.upsert("/docs/b.txt", ["alpha"])  # writes the four, then defers its own
        assert table_df(index) == before_next
        assert {t: n for t, n in index.document_frequencies().items() if n} == recounted_df(index)
    finally:
        index.close()


def dead_table(index: KeywordIndex) -> set[int]:
    return {row[0] for row in index._reader().execute("SELECT chunk_id FROM dead").fetchall()}


def test_chunks_removed_before_a_kill_stay_out_of_results_after_it(tmp_path):
    db = tmp_path / "k.duckdb"
    strong = [(f"/docs/s{i}.txt", ["alpha alpha alpha"]) for i in range(8)]  # outscore the weak ones
    weak = [(f"/docs/w{i}.txt", ["alpha beta gamma delta epsilon"]) for i in range(2)]
    crash_after(
        db,
        f"index.upsert_many({strong + weak!r})\n"
        + "".join(f"index.delete('/docs/s{i}.txt')\n" for i in range(8))  # point writes, one each
        + "assert index.stale_ratio() == (10 + 8) / 2, index.stale_ratio()\n",
    )
    index = KeywordIndex(db)
    try:
        assert {h.path for h in index.search("alpha", 2)} == {"/docs/w0.txt", "/docs/w1.txt"}
        assert len(dead_table(index)) == 8
        assert index.stale_ratio() == pytest.approx((10 + 8) / 2)
        weak_terms = {t: 2 for t in ("alpha", "beta", "gamma", "delta", "epsilon")}
        assert table_df(index) == recounted_df(index) == weak_terms
    finally:
        index.close()


def test_removed_ids_reach_dead_at_close_and_before_a_refresh(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        index.upsert_many(FIRST)
        point_writes(index)  # f1 replaced (2 chunks removed), f2 deleted (2)
        assert dead_table(index) == set()
        assert index.stale_ratio() == pytest.approx((20 + 3 + 4) / 19)
        live = {f"/docs/f{i}.txt" for i in range(10) if i not in (1, 2)}
        assert {h.path for h in index.search("beta", 50)} == live
    finally:
        index.close()
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        assert len(dead_table(index)) == 4
        assert index.stale_ratio() == pytest.approx((20 + 3 + 4) / 19)
        index.delete("/docs/f3.txt")
        index.refresh_weights()  # writes the two ids first, then drops every removed chunk's postings
        assert dead_table(index) == set() and index.stale_ratio() == 0
        assert table_df(index) == recounted_df(index)
    finally:
        index.close()
