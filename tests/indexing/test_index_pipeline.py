"""The index end to end on real stores: crawl → extract → sense → chunk → embed → search, and how it
stays in step with moves, edits, pins and removals without needless embedding."""

from __future__ import annotations

import os

import pytest

from engine.errors import NotFound, OutOfBounds
from engine.indexing.queue import CRAWL, DELETION, MANUAL, WATCHER
from engine.indexing.results import QueueRow
from tests.indexing.helpers import SAMPLE, make_engine, write_docs


@pytest.fixture
def engine(tmp_path, sensetree_home):
    eng = make_engine(sensetree_home)
    yield eng
    eng.running.close()


def paths_of(results):
    return [r.path for r in results]


def test_indexing_a_folder_makes_its_files_searchable_by_keyword_and_meaning(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    stats = engine.indexing_stats()
    assert stats.done == 4 and stats.queued == 0 and stats.failed == 0
    hits = engine.semantic_search("sourdough flour starter")
    assert hits[0].path == str(root / "recipes" / "bread.txt")
    assert 0 < hits[0].score <= 1 and hits[0].snippet


def test_unchanged_files_are_never_re_embedded_on_rescan(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    before = engine.parts.embedder.embedded
    engine.reindex_path(str(root / "notes"))  # forgets hashes: content is re-read, but it is the same
    engine.parts.index.drain()
    engine.parts.index.worker.request_scan(str(root))
    engine.parts.index.drain()
    assert engine.parts.embedder.embedded == before


def test_touching_a_file_without_changing_it_costs_no_embedding(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    before = engine.parts.embedder.embedded
    target = root / "notes" / "travel.txt"
    os.utime(target, (1_000_000, 1_000_000))
    engine.parts.index.worker.request_scan(str(root))
    engine.parts.index.drain()
    assert engine.parts.embedder.embedded == before
    assert engine.parts.index.catalog.get(str(target)).mtime == 1_000_000


def test_a_moved_folder_updates_every_path_without_embedding(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    before = engine.parts.embedder.embedded
    os.rename(root / "notes", root / "archive")
    engine.parts.indexer.moved(str(root / "notes"), str(root / "archive"))
    assert engine.parts.embedder.embedded == before
    hits = paths_of(engine.semantic_search("Lisbon train hotel"))
    assert hits[0] == str(root / "archive" / "travel.txt")
    assert not any("/notes/" in p for p in hits)
    assert engine.parts.index.catalog.get(str(root / "archive" / "garden.md")) is not None


def test_an_edited_file_is_keyword_searchable_after_its_job_runs(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    (root / "notes" / "garden.md").write_text("Zucchini flowers bloom in July.", encoding="utf-8")
    engine.parts.index.queue.push(str(root / "notes" / "garden.md"), WATCHER)
    engine.parts.index.drain()
    assert paths_of(engine.semantic_search("zucchini"))[0] == str(root / "notes" / "garden.md")
    assert not engine.parts.search.keywords.search("tomatoes", 5, None)


def test_deleted_files_leave_every_store(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    (root / "recipes" / "bread.txt").unlink()
    engine.parts.index.worker.request_scan(str(root))
    engine.parts.index.drain()
    path = str(root / "recipes" / "bread.txt")
    assert engine.parts.index.catalog.get(path) is None
    assert (
        path not in engine.parts.keywords.chunk_counts() and path not in engine.parts.vectors.chunk_counts()
    )


def test_queue_runs_watcher_before_manual_before_deletions_before_crawl(engine, tmp_path):
    queue = engine.parts.index.queue
    queue.push("/c", CRAWL)
    queue.push("/d", DELETION, action="delete")
    queue.push("/m", MANUAL)
    queue.push("/w", WATCHER)
    order = []
    while (job := queue.next()) is not None:
        order.append(job.path)
        queue.done(job.path)
    assert order == ["/w", "/m", "/d", "/c"]


def test_a_failing_file_is_retried_then_marked_failed_with_its_reason(engine):
    queue = engine.parts.index.queue
    queue.push("/x", CRAWL)
    assert queue.failed("/x", "disk hiccup") is False
    assert queue.next(now=10**12) is not None  # retried after the back-off
    assert queue.failed("/x", "disk hiccup") is False
    assert queue.failed("/x", "disk hiccup again") is True
    assert queue.next(now=10**12) is None
    failed = [q for q in queue.listing() if q.status == "failed"]
    assert failed == [
        QueueRow(
            path="/x", priority=CRAWL, action="index", status="failed", attempts=3, error="disk hiccup again"
        )
    ]
    assert queue.retry() == 1 and queue.next() is not None


def test_a_broken_file_is_recorded_with_a_reason_and_does_not_stop_the_worker(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (root / "broken.docx").write_bytes(b"this is not a zip archive")
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    record = engine.parts.index.catalog.get(str(root / "broken.docx"))
    assert record.status == "failed" and record.error
    assert engine.indexing_stats().done == 4


def test_a_pinned_sense_wins_over_reindexing(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    path = str(root / "notes" / "travel.txt")
    engine.set_file_summary(path, "Itinerary for the Portugal holiday with Maria.")
    engine.parts.index.drain()
    (root / "notes" / "travel.txt").write_text("Train to Porto on 14 May instead.", encoding="utf-8")
    engine.reindex_path(path)
    engine.parts.index.drain()
    details = engine.path_details(path)
    assert details.sense == "Itinerary for the Portugal holiday with Maria." and details.pinned is True
    assert paths_of(engine.semantic_search("Portugal holiday Maria itinerary"))[0] == path


def test_removing_a_root_purges_its_rows_and_vectors(engine, tmp_path):
    docs = write_docs(tmp_path / "Docs", SAMPLE)
    other = write_docs(tmp_path / "DocsEvil", {"x.txt": "Sourdough secrets of the evil twin."})
    engine.add_indexed_folder(str(docs))
    engine.add_indexed_folder(str(other))
    engine.parts.index.drain()
    engine.remove_indexed_folder(str(docs))
    assert engine.get_roots() == [str(other)]
    assert all(p.startswith(str(other) + os.sep) for p in engine.parts.keywords.chunk_counts())
    assert all(p.startswith(str(other) + os.sep) for p in engine.parts.vectors.chunk_counts())
    assert paths_of(engine.semantic_search("sourdough")) == [str(other / "x.txt")]


def test_scope_matches_on_segment_boundaries(engine, tmp_path):
    docs = write_docs(tmp_path / "Docs", {"a.txt": "Quarterly tax return draft."})
    evil = write_docs(tmp_path / "DocsEvil", {"b.txt": "Quarterly tax return stolen."})
    engine.add_indexed_folder(str(docs))
    engine.add_indexed_folder(str(evil))
    engine.parts.index.drain()
    assert paths_of(engine.semantic_search("quarterly tax", scope=str(docs))) == [str(docs / "a.txt")]
    with pytest.raises(OutOfBounds):
        engine.semantic_search("tax", scope=str(tmp_path / "Elsewhere"))


def test_adding_a_missing_folder_says_so(engine, tmp_path):
    with pytest.raises(NotFound):
        engine.add_indexed_folder(str(tmp_path / "nope"))


def test_search_skips_files_that_no_longer_exist(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    (root / "recipes" / "bread.txt").unlink()
    assert str(root / "recipes" / "bread.txt") not in paths_of(
        engine.semantic_search("sourdough bread flour")
    )


def test_binary_files_are_catalogued_by_name_only(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (root / "photo.raw").write_bytes(bytes(range(256)) * 8)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    record = engine.parts.index.catalog.get(str(root / "photo.raw"))
    assert record.status == "skipped" and record.note


def test_the_agent_reads_unknown_text_as_lossy_utf8_but_never_binary_garbage(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (root / "notes.weird").write_bytes("Caf\u00e9 list: beans, filters".encode() + b"\xff")
    (root / "blob.bin").write_bytes(bytes(range(256)) * 4)
    engine.add_indexed_folder(str(root))
    host = engine.parts.agent._host
    assert host.extracted_text(str(root / "notes.weird")).startswith("Café list: beans, filters")
    assert host.extracted_text(str(root / "blob.bin")) == ""


def test_many_independent_moves_update_every_store_at_once_without_embedding(engine, tmp_path):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    before = engine.parts.embedder.embedded
    (root / "Archive").mkdir()
    pairs = [
        (root / "notes" / "travel.txt", root / "Archive" / "travel.txt"),
        (root / "recipes", root / "Archive" / "recipes"),
    ]
    for old, new in pairs:
        os.rename(old, new)
    engine.parts.indexer.moved_many([(str(o), str(n)) for o, n in pairs])
    assert engine.parts.embedder.embedded == before
    expected = {
        str(root / "Archive" / "travel.txt"),
        str(root / "Archive" / "recipes" / "bread.txt"),
        str(root / "notes" / "garden.md"),
        str(root / "invoices" / "acme-2024.txt"),
    }
    assert set(engine.parts.keywords.chunk_counts()) == expected == set(engine.parts.vectors.chunk_counts())
    assert {r.path for r in engine.parts.index.catalog.under(str(root))} == expected
    assert paths_of(engine.semantic_search("sourdough flour"))[0] == str(
        root / "Archive" / "recipes" / "bread.txt"
    )


def test_a_folder_of_forty_files_is_embedded_in_one_model_call(engine, tmp_path):
    """Many files' chunks go to the model together, so length-sorted batches pad little (the end-to-end
    vs raw model speed of bench/index_throughput.py went from 0.81 to 0.95 with 64 files a call, not 16)."""
    root = tmp_path / "Many"
    root.mkdir()
    for i in range(40):
        (root / f"note{i:02d}.txt").write_text(
            f"Note {i} about the garden, the roses and topic {i}.", encoding="utf-8"
        )
    calls = []
    embed = engine.parts.embedder.embed
    engine.parts.embedder.embed = lambda texts: calls.append(len(texts)) or embed(texts)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    assert engine.indexing_stats().done == 40
    assert len(calls) == 1 and calls[0] >= 40
