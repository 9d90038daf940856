"""The keyword index heals itself through the Engine: after a kill, with a garbage file, after a fatal
write."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from engine.events import NOTICE
from engine.retrieval.keyword.index import KeywordIndex
from tests.indexing.helpers import SAMPLE, indexed_sample, make_engine, write_docs

REPO = Path(__file__).resolve().parents[2]
TEN = {f"f{i}.txt": f"Report number {i} about the harbour crane inspection schedule." for i in range(10)}


def quarantined(home: Path) -> list[Path]:
    return sorted(home.glob("keywords.corrupt-*.duckdb"))


def test_files_indexed_before_a_kill_can_be_edited_and_deleted_after_a_clean_start(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", TEN)
    child = textwrap.dedent(f"""
        import os
        from engine.engine import Engine
        from engine.embed import HashingEmbedder
        engine = Engine({str(sensetree_home)!r}, embedder=HashingEmbedder())
        engine.add_indexed_folder({str(root)!r})
        engine.parts.index.drain()
        os._exit(137)
    """)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 137, done.stderr
    make_engine(sensetree_home).running.close()  # one start, one clean quit
    engine = make_engine(sensetree_home)
    try:
        (root / "f1.txt").write_text("Rewritten: the lighthouse keeper's logbook.", encoding="utf-8")
        engine.reindex_path(str(root / "f1.txt"))
        os.remove(root / "f2.txt")
        engine.reindex_path(str(root))
        engine.parts.index.drain()
        assert quarantined(sensetree_home) == []  # nothing was damaged: the index simply works
        assert [h.path for h in engine.parts.keywords.search("lighthouse", 5)] == [str(root / "f1.txt")]
        paths = {h.path for h in engine.parts.keywords.search("harbour crane", 50)}
        assert paths == {str(root / f"f{i}.txt") for i in range(10) if i not in (1, 2)}
    finally:
        engine.running.close()


def test_a_garbage_keyword_file_is_kept_aside_and_rebuilt_at_start_with_a_notice(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    (sensetree_home / "keywords.duckdb").write_bytes(os.urandom(64 * 1024))
    restarted = make_engine(sensetree_home)
    try:
        kept = quarantined(sensetree_home)
        assert len(kept) == 1 and kept[0].stat().st_size == 64 * 1024
        assert any("keyword index was damaged" in n for n in restarted.running.notices())
        assert restarted.parts.embedder.embedded == 0  # rebuilt from the stored chunk texts
        travel = str(root / "notes" / "travel.txt")
        assert [h.path for h in restarted.parts.keywords.search("Alfama", 5)] == [travel]
        assert restarted.semantic_search("Alfama Lisbon")[0].path == travel
    finally:
        restarted.running.close()


def test_a_fatal_error_on_a_write_sets_the_file_aside_and_rebuilds_it(tmp_path, sensetree_home, monkeypatch):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    told: list[dict] = []
    engine.events.subscribe(lambda _topic, payload: told.append(payload), NOTICE)
    real_point = KeywordIndex._point  # a one-file re-index is a point write (keyword_point.py)
    failures = iter(
        [duckdb.FatalException("FATAL Error: Failed to delete all rows from index. Only deleted 0")]
    )

    def point_once_fatal(self, cur, where, params, incoming):
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return real_point(self, cur, where, params, incoming)

    monkeypatch.setattr(KeywordIndex, "_point", point_once_fatal)
    try:
        garden = root / "notes" / "garden.md"
        garden.write_text("# Garden plan\n\nCourgettes replace the tomatoes this year.", encoding="utf-8")
        engine.reindex_path(str(garden))
        engine.parts.index.drain()  # the write hits the fatal error, heals and is repeated on the fresh index
        assert len(quarantined(sensetree_home)) == 1
        assert told and "rebuilt" in told[0]["message"]
        assert engine.parts.keywords.rebuilt.wait(60)
        assert [h.path for h in engine.parts.keywords.search("Courgettes", 5)] == [str(garden)]
        assert [h.path for h in engine.parts.keywords.search("Alfama", 5)] == [
            str(root / "notes" / "travel.txt")
        ]
        assert engine.parts.keywords.chunk_counts() == engine.parts.index.catalog.done_chunk_counts()
        assert engine.indexing_stats().failed == 0
    finally:
        engine.running.close()


def test_searches_answer_from_the_vectors_while_the_keyword_index_is_rebuilt(
    tmp_path, sensetree_home, monkeypatch
):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    real_query_terms = KeywordIndex._query_terms
    calls = iter([duckdb.InternalException("INTERNAL Error: Corrupted ART index")])

    def query_terms_once_broken(self, cur, query):
        failure = next(calls, None)
        if failure is not None:
            raise failure
        return real_query_terms(self, cur, query)

    monkeypatch.setattr(KeywordIndex, "_query_terms", query_terms_once_broken)
    try:
        travel = str(root / "notes" / "travel.txt")
        with engine.parts.indexer.lock:  # the rebuild waits for this lock: every search here runs before it
            first = engine.semantic_search("Lisbon Alfama museum")
            assert engine.parts.keywords.rebuilding and engine.parts.keywords.chunk_counts() == {}
            assert first and first[0].path == travel  # the vector arm answered
        assert engine.parts.keywords.rebuilt.wait(60)
        assert [h.path for h in engine.parts.keywords.search("Alfama", 5)] == [travel]
        assert len(engine.parts.keywords.chunk_counts()) == len(SAMPLE)
    finally:
        engine.running.close()


def test_damage_that_comes_back_at_once_is_reported_not_healed_forever(tmp_path, monkeypatch):
    from engine.errors import StoreError
    from engine.retrieval.keyword.healing import MAX_HEALS, KeywordStore

    store = KeywordStore(tmp_path / "k.duckdb")

    def always_fatal(cur, query):
        raise duckdb.FatalException("FATAL Error: database has been invalidated")

    monkeypatch.setattr(KeywordIndex, "_query_terms", staticmethod(always_fatal))
    try:
        for _ in range(MAX_HEALS + 1):
            with pytest.raises(StoreError):
                store.search("anything")
        assert len(sorted(tmp_path.glob("k.corrupt-*.duckdb"))) == MAX_HEALS
    finally:
        store.close()


def test_a_keyword_index_that_cannot_heal_leaves_search_to_the_vectors(tmp_path, sensetree_home, monkeypatch):
    from engine.retrieval.keyword.healing import MAX_HEALS

    root, engine = indexed_sample(tmp_path, sensetree_home)

    def always_fatal(cur, query):
        raise duckdb.FatalException("FATAL Error: database has been invalidated")

    monkeypatch.setattr(KeywordIndex, "_query_terms", staticmethod(always_fatal))
    try:
        for _ in range(MAX_HEALS + 1):  # the last search finds the heals used up: the keyword arm is skipped
            results = engine.semantic_search("Lisbon Alfama museum")
            assert results and results[0].path == str(root / "notes" / "travel.txt")
    finally:
        engine.running.close()
