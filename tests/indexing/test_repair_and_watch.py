"""Crash consistency between the three stores, and the watcher feeding changes in without a re-crawl."""

from __future__ import annotations

import os
import threading

from engine.embed import HashingEmbedder
from engine.events import INDEXING_PROGRESS
from tests.indexing.helpers import SAMPLE, indexed_sample, make_engine, write_docs


def test_rows_written_before_a_crash_without_a_catalog_commit_are_dropped_at_start(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    ghost = str(root / "ghost.txt")
    # the crash: vectors and keywords were written, the catalog transaction never committed
    engine.parts.vectors.upsert(ghost, ["ghost text"], HashingEmbedder().embed(["ghost text"]))
    engine.parts.keywords.upsert(ghost, ["ghost text"])
    engine.running.close()
    restarted = make_engine(sensetree_home)
    try:
        assert ghost in restarted.parts.repair_report.orphans_dropped
        assert (
            ghost not in restarted.parts.keywords.chunk_counts()
            and ghost not in restarted.parts.vectors.chunk_counts()
        )
    finally:
        restarted.running.close()


def test_keyword_rows_lost_in_a_crash_are_rebuilt_from_stored_chunks_without_embedding(
    tmp_path, sensetree_home
):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    path = str(root / "notes" / "travel.txt")
    engine.parts.keywords.delete(path)  # a crash between the vector write and the keyword write
    engine.running.close()
    restarted = make_engine(sensetree_home)
    try:
        assert (
            restarted.parts.repair_report.keywords_refilled == [path]
            and restarted.parts.repair_report.requeued == []
        )
        assert restarted.parts.embedder.embedded == 0
        assert restarted.parts.keywords.search("Alfama", 5, None)[0].path == path
    finally:
        restarted.running.close()


def test_a_file_whose_vector_rows_are_missing_stays_searchable_by_keyword_and_is_embedded_again(
    tmp_path, sensetree_home
):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    path = str(root / "notes" / "travel.txt")
    engine.parts.vectors.delete(path)  # a crash that lost one store's rows
    engine.running.close()
    restarted = make_engine(sensetree_home)
    try:
        assert (
            restarted.parts.repair_report.reembedding == [path]
            and restarted.parts.repair_report.requeued == []
        )
        first = restarted.semantic_search("Lisbon Alfama")[0]  # the keyword rows were kept (issue 31, N12)
        assert first.path == path and first.semantic == "pending"
        restarted.parts.index.drain()
        assert restarted.parts.keywords.chunk_counts()[path] == restarted.parts.index.catalog.get(path).chunks
        assert restarted.semantic_search("Lisbon Alfama")[0].path == path
    finally:
        restarted.running.close()


def wait_for(engine, predicate, timeout=20.0):
    """Block until `predicate()` holds after some indexing progress event, or the bound runs out."""
    hit = threading.Event()

    def check(_topic, _payload):
        if predicate():
            hit.set()

    unsubscribe = engine.events.subscribe(check, INDEXING_PROGRESS)
    try:
        if predicate():
            return True
        return hit.wait(timeout)
    finally:
        unsubscribe()


def test_the_watcher_indexes_created_files_and_follows_moves_without_reembedding(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (sensetree_home / "settings.json").write_text('{"indexing": {"debounce_s": 0.2}}', encoding="utf-8")
    engine = make_engine(sensetree_home, background=True)
    try:
        engine.add_indexed_folder(str(root))
        assert wait_for(engine, lambda: engine.indexing_stats().done == 4)
        new = root / "notes" / "new.txt"
        new.write_text("Pottery class every Thursday at the community centre.", encoding="utf-8")
        assert wait_for(
            engine,
            lambda: (
                engine.parts.index.catalog.get(str(new)) is not None
                and engine.parts.index.catalog.get(str(new)).status == "done"
                and engine.parts.index.catalog.get(str(new)).semantic == "done"  # its vectors landed too
            ),
        )
        embedded = engine.parts.embedder.embedded
        moved = root / "pottery.txt"
        os.rename(new, moved)
        assert wait_for(engine, lambda: engine.parts.index.catalog.get(str(moved)) is not None)
        assert engine.parts.embedder.embedded == embedded
        assert engine.semantic_search("pottery Thursday")[0].path == str(moved)
        os.unlink(moved)
        assert wait_for(engine, lambda: engine.parts.index.catalog.get(str(moved)) is None)
    finally:
        engine.running.close()


def test_a_torn_settings_file_is_reported_at_start_and_the_index_survives_it(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.running.close()
    settings = sensetree_home / "settings.json"
    kept = settings.read_text()
    settings.write_text(kept[:-3], encoding="utf-8")  # a torn write
    restarted = make_engine(sensetree_home)
    try:
        notices = restarted.get_config().notices
        assert len(notices) == 1 and "could not be read" in notices[0]
        assert restarted.parts.index.catalog.get(str(root / "notes" / "travel.txt")) is not None
    finally:
        restarted.running.close()
    settings.write_text(kept, encoding="utf-8")  # the person puts their settings back
    engine = make_engine(sensetree_home)
    try:
        assert engine.get_config().notices == []
        assert engine.semantic_search("Lisbon Alfama")[0].path == str(root / "notes" / "travel.txt")
        assert engine.parts.embedder.embedded == 1  # the query only: nothing was re-indexed
    finally:
        engine.running.close()


def test_start_up_notices_say_what_the_repair_did(tmp_path, sensetree_home):
    root, engine = indexed_sample(tmp_path, sensetree_home)
    engine.parts.vectors.delete(str(root / "notes" / "travel.txt"))
    engine.running.close()
    restarted = make_engine(sensetree_home)
    try:
        assert any("1 embedded again" in n for n in restarted.get_config().notices)
    finally:
        restarted.running.close()
