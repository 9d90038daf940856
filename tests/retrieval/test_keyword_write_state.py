"""The writer's in-memory copy of the document frequencies (keyword_point.WriteState) never drifts from
the table: after any sequence of point writes, bulk writes, deletes, renames and a write that fails, the
index holds exactly what a from-scratch build of the final corpus holds, and searches agree after a
refresh. The new df of a write come from that copy, not from the database, so a drift would show here."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from engine.errors import StoreError
from engine.retrieval.keyword import index as bm25
from engine.retrieval.keyword import point as keyword_point
from engine.retrieval.keyword.index import KeywordIndex
from engine.retrieval.keyword.writes import corpus_stats, weight_sql
from tests.retrieval.test_keyword_writes import (
    QUERIES,
    assert_refreshed_equals,
    bulk_build,
    corpus,
    recounted_df,
    snapshot,
)


def weights_match_the_statistics_now(index: KeywordIndex, path: str) -> None:
    """A write weights its new postings with the df and corpus statistics after it: recomputed from the
    tables, they must be what the write stored."""
    cur = index._reader()
    n, avgdl = corpus_stats(cur)
    df = index.document_frequencies()  # the table's df lag behind it (pending_writes.py)
    cur.register("exact_df", pa.table({"term": list(df), "df": pa.array(list(df.values()), pa.int64())}))
    rows = cur.execute(
        f"""SELECT t.term, p.w, {weight_sql("p.tf", "c.len", "e.df", n, avgdl)} FROM postings p
        JOIN chunks c ON c.id = p.chunk_id JOIN terms t USING (tid) JOIN exact_df e USING (term)
        WHERE c.path = ?""",
        [path],
    ).fetchall()
    cur.unregister("exact_df")
    assert [(term, w) for term, w, _ in rows] == [
        (term, pytest.approx(want, rel=1e-6)) for term, _, want in rows
    ]


UNICODE = [
    "Straße über naïve ΔG façade",
    "İstanbul café été",
    "β-blocker TNF-α IL-1β budget",
    "ＡＢＣ ｄｉｇｉｔ",
]


def test_any_sequence_of_writes_leaves_what_a_fresh_build_of_the_final_corpus_holds(tmp_path, monkeypatch):
    rng = random.Random(11)
    files = corpus(60, seed=3)
    live = dict(files)
    index = bulk_build(tmp_path / "live.duckdb", files, monkeypatch)
    try:
        pool = corpus(40, seed=5)
        for step in range(40):
            kind = rng.choice(["upsert", "upsert", "unicode", "delete", "rename", "bulk"])
            if kind == "upsert" or (kind in ("delete", "rename") and not live):
                path, chunks = rng.choice(list(pool.items()))
                path = (
                    f"/r/u/{step}-{path.rsplit('/', 1)[1]}" if rng.random() < 0.5 else rng.choice(list(live))
                )
                index.upsert(path, chunks)
                live[path] = chunks
                weights_match_the_statistics_now(index, path)
            elif kind == "unicode":
                path = rng.choice(list(live))
                chunks = [rng.choice(UNICODE) + " " + rng.choice(UNICODE) for _ in range(rng.randint(1, 3))]
                index.upsert(path, chunks)
                live[path] = chunks
                weights_match_the_statistics_now(index, path)
            elif kind == "delete":
                path = rng.choice(list(live))
                index.delete(path)
                del live[path]
            elif kind == "rename":
                old = rng.choice(list(live))
                new = f"/r/moved/{step}.txt"
                index.rename(old, new)
                live[new] = live.pop(old)
            else:  # a keyword-phase group: more than POINT_FILES files, the bulk SQL path
                group = {f"/r/g{step}/{n}.txt": chunks for n, chunks in enumerate(list(pool.values())[:6])}
                index.upsert_many(group.items())
                live.update(group)
            state = snapshot(index)
            assert state["df"] == recounted_df(index), (step, kind)
        rebuilt = bulk_build(tmp_path / "rebuilt.duckdb", live, monkeypatch)
        try:
            a, b = snapshot(index), snapshot(rebuilt)
            assert a["chunks"] == b["chunks"] and a["tf"] == b["tf"] and a["df"] == b["df"]
            assert_refreshed_equals(index, rebuilt, [*QUERIES, "straße", "istanbul", "blocker", "budget"])
        finally:
            rebuilt.close()
    finally:
        index.close()


def test_a_write_that_fails_after_shifting_df_leaves_the_next_write_exact(tmp_path, monkeypatch):
    index, reference = KeywordIndex(tmp_path / "k.duckdb"), KeywordIndex(tmp_path / "reference.duckdb")
    try:
        for target in (index, reference):
            target.upsert("/r/a.txt", ["apple banana", "apple cherry"])
            target.upsert("/r/b.txt", ["banana"])

        def broken(*args: object, **kwargs: object) -> object:
            raise bm25.duckdb.InvalidInputException("disk full")  # after the df UPDATE ran in SQL

        with monkeypatch.context() as patch:
            patch.setattr(keyword_point, "_insert", broken)
            with pytest.raises(StoreError):
                index.upsert("/r/c.txt", ["apple banana durian"])
        for target in (index, reference):  # weighted with df read again, not with the failed write's
            target.upsert("/r/d.txt", ["apple durian"])
        assert (
            recounted_df(index) == snapshot(index)["df"] == {"appl": 3, "banana": 2, "cherri": 1, "durian": 1}
        )
        assert snapshot(index) == snapshot(reference)
        assert {h.path for h in index.search("durian")} == {"/r/d.txt"}
    finally:
        index.close()
        reference.close()


def test_an_index_from_before_the_mark_counts_on_from_its_change_counter(tmp_path):
    index = KeywordIndex(tmp_path / "k.duckdb")
    index.upsert("/r/a.txt", ["apple", "banana"])
    index.upsert("/r/b.txt", ["cherry"])
    index.upsert("/r/b.txt", ["date", "cherry"])  # 3 added, then 1 removed and 2 added: 6 changes
    index._writer.execute("DELETE FROM meta WHERE key = 'refreshed_below'")  # as the earlier code left it:
    index._writer.execute("INSERT INTO meta VALUES ('changed', 6)")  # a counter and no mark
    index.close()
    index = KeywordIndex(tmp_path / "k.duckdb")
    try:
        assert index.stale_ratio() == pytest.approx(6 / 4)
        index.upsert("/r/c.txt", ["elder"])
        assert index.stale_ratio() == pytest.approx(7 / 5)
        index.refresh_weights()
        assert index.stale_ratio() == 0
        index.delete("/r/a.txt")
        index.upsert("/r/d.txt", ["fig"])
        assert index.stale_ratio() == pytest.approx(3 / 4)  # 2 removed, 1 added; 4 chunks now
    finally:
        index.close()
