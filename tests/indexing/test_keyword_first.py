"""Keyword-first indexing: files are findable by keyword before their vectors land; both phases survive
a crash between their writes; Pause and Remove stop the running batch."""

from __future__ import annotations

import threading

import pytest

from engine.embed import HashingEmbedder
from engine.indexing.scan import scan_root
from engine.indexing.semantic import SemanticPhase
from tests.indexing.helpers import SAMPLE, make_engine, write_docs
from tests.indexing.test_repair_and_watch import wait_for


class Crash(BaseException):
    """The process dying between two writes (not an Exception: nothing may catch and carry on)."""


def crashed_at(sensetree_home, root, monkeypatch, method: str):
    """An Engine indexing `root` that dies when the catalog's `method` is called (after the write it
    commits), its stores still open so the test can see what landed; the crash hook is removed."""
    engine = make_engine(sensetree_home)
    engine.add_indexed_folder(str(root))

    def crash(*_args, **_kwargs):
        raise Crash

    monkeypatch.setattr(engine.parts.index.catalog, method, crash)
    with pytest.raises(Crash):
        engine.parts.index.drain()
    monkeypatch.undo()
    return engine


def keyword_phase_only(engine, root) -> None:
    scan_root(str(root), engine.parts.index.catalog, engine.parts.index.queue, lambda: False)
    jobs = engine.parts.index.queue.claim_batch(100)
    engine.parts.indexer.process_batch(jobs)
    engine.parts.index.queue.release([job.path for job in jobs])


def test_a_file_is_found_by_keyword_before_its_vectors_land_and_says_semantic_pending(
    tmp_path, sensetree_home
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.worker._scans.clear()
        keyword_phase_only(engine, root)
        assert engine.parts.embedder.embedded == 0 and engine.parts.vectors.chunk_counts() == {}
        path = str(root / "notes" / "travel.txt")
        hits = engine.semantic_search("Alfama")
        assert hits[0].path == path and hits[0].semantic == "pending"
        stats = engine.indexing_stats()
        assert stats.keyword.done == len(SAMPLE) and stats.semantic.done == 0
        assert SemanticPhase(engine.parts.indexer).run_batch() == len(SAMPLE)
        assert engine.semantic_search("Alfama")[0].semantic == "done"
        assert engine.parts.vectors.chunk_counts()[path] == engine.parts.index.catalog.get(path).chunks
    finally:
        engine.running.close()


def test_a_crash_after_the_keyword_write_and_before_the_catalog_commit_is_repaired(
    tmp_path, sensetree_home, monkeypatch
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = crashed_at(sensetree_home, root, monkeypatch, "record_indexed")
    assert engine.parts.keywords.chunk_counts()  # the keyword rows were written
    engine.running.close()
    restarted = make_engine(sensetree_home)
    try:
        assert len(restarted.parts.repair_report.orphans_dropped) == len(SAMPLE)
        assert restarted.parts.keywords.chunk_counts() == {}
        restarted.parts.index.drain()  # the jobs were still queued
        assert restarted.indexing_stats().done == len(SAMPLE)
        assert restarted.semantic_search("Sourdough")[0].path == str(root / "recipes" / "bread.txt")
    finally:
        restarted.running.close()


def test_a_crash_after_the_vector_write_and_before_the_semantic_commit_is_re_embedded(
    tmp_path, sensetree_home, monkeypatch
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = crashed_at(sensetree_home, root, monkeypatch, "mark_semantic_done")
    assert engine.parts.vectors.chunk_counts()  # vectors landed, the catalog never said so
    engine.running.close()
    restarted = make_engine(sensetree_home)
    try:
        dropped = restarted.parts.repair_report.pending_vectors_dropped
        assert len(dropped) == len(SAMPLE) and restarted.parts.vectors.chunk_counts() == {}
        assert restarted.parts.repair_report.requeued == []  # the keyword rows were fine: no re-extraction
        restarted.parts.index.drain()
        counts = restarted.parts.vectors.chunk_counts()
        assert all(counts[p] == restarted.parts.index.catalog.get(p).chunks for p in dropped)
        assert restarted.indexing_stats().semantic.done == len(SAMPLE)
    finally:
        restarted.running.close()


def test_keyword_rows_lost_for_a_file_still_pending_send_it_back_to_the_keyword_phase(
    tmp_path, sensetree_home
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.worker._scans.clear()
        keyword_phase_only(engine, root)
        path = str(root / "notes" / "garden.md")
        engine.parts.keywords.delete(path)
        engine.parts.index.drain()
        assert engine.parts.keywords.chunk_counts()[path] == engine.parts.index.catalog.get(path).chunks
        assert engine.parts.vectors.chunk_counts()[path] == engine.parts.index.catalog.get(path).chunks
    finally:
        engine.running.close()


def test_an_interrupted_keyword_batch_leaves_unread_files_queued_without_charging_an_attempt(
    tmp_path, sensetree_home
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.worker._scans.clear()
        scan_root(str(root), engine.parts.index.catalog, engine.parts.index.queue, lambda: False)
        jobs = engine.parts.index.queue.claim_batch(100)
        read: list[str] = []
        original = engine.parts.indexer._prepare

        def prepare(job, *rest):
            read.append(job.path)
            return original(job, *rest)

        engine.parts.indexer._prepare = prepare
        ran = engine.parts.index.worker._keyword_batch(jobs, lambda: len(read) >= 1)
        assert ran == 1
        left = {row.path: row.attempts for row in engine.parts.index.queue.listing()}
        assert len(left) == len(SAMPLE) - 1 and set(left.values()) == {0}
    finally:
        engine.running.close()


def test_an_interrupted_semantic_batch_writes_no_vectors(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.worker._scans.clear()
        keyword_phase_only(engine, root)
        assert SemanticPhase(engine.parts.indexer).run_batch(lambda: True) == 0
        assert engine.parts.vectors.chunk_counts() == {}
        assert engine.indexing_stats().semantic.done == 0
    finally:
        engine.running.close()


class SlowEmbedder(HashingEmbedder):
    """One text per model call; the first runs at once, every later one waits until the test opens
    `gate` (bounded), so the test acts mid-batch whatever the machine's speed."""

    batch_size = 1

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.gate = threading.Event()

    def embed(self, texts: list[str]):
        if self.started.is_set():
            assert self.gate.wait(30), "the test never opened the gate"
        self.started.set()
        return super().embed(texts)


def _many_files(tmp_path, n: int = 40):
    return write_docs(tmp_path / "Many", {f"f{i:02d}.txt": f"note {i} about topic{i}" for i in range(n)})


def test_pause_stops_the_running_semantic_batch(tmp_path, sensetree_home):
    root = _many_files(tmp_path)
    slow = SlowEmbedder()
    engine = make_engine(sensetree_home, background=True)
    engine.parts.indexer.embedder = engine.parts.search.embedder = slow
    try:
        engine.add_indexed_folder(str(root))
        assert slow.started.wait(30)
        engine.set_indexing_paused(True)
        slow.gate.set()
        assert wait_for(engine, lambda: engine.indexing_stats().paused)
    finally:
        engine.running.close()
    assert 0 < slow.embedded < 40  # stopped mid-batch, long before 40 slices
    reopened = make_engine(sensetree_home)
    try:  # the interrupted batch wrote nothing: every file is still pending, and searchable by keyword
        assert reopened.indexing_stats().semantic.done == 0
        assert reopened.indexing_stats().keyword.done == 40
    finally:
        reopened.running.close()


def test_remove_takes_the_folder_off_the_list_at_once_and_purges_in_the_background(tmp_path, sensetree_home):
    root = _many_files(tmp_path)
    slow = SlowEmbedder()
    engine = make_engine(sensetree_home, background=True)
    engine.parts.indexer.embedder = engine.parts.search.embedder = slow
    try:
        engine.add_indexed_folder(str(root))
        assert slow.started.wait(30)
        assert engine.remove_indexed_folder(str(root)) == []
        assert engine.get_roots() == []
        slow.gate.set()
        assert wait_for(engine, lambda: engine.parts.index.catalog.under(str(root)) == [])
        assert engine.parts.keywords.chunk_counts() == {} and engine.parts.vectors.chunk_counts() == {}
        assert slow.embedded < 40
    finally:
        engine.running.close()


def test_a_model_written_sense_arrives_in_the_semantic_phase_after_the_file_is_searchable(
    tmp_path, sensetree_home
):
    from engine.agent.testing import FunctionModel

    root = write_docs(tmp_path / "Docs", {"travel.txt": SAMPLE["notes/travel.txt"]})
    asked: list[str] = []

    def describe(_system: str, user: str) -> str:
        asked.append(user)
        return "Itinerary for a Lisbon city break in May."

    model = FunctionModel(lambda _messages, _tools: "unused", text_fn=describe)
    engine = make_engine(sensetree_home, chat_model=model)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.worker._scans.clear()
        keyword_phase_only(engine, root)
        path = str(root / "travel.txt")
        assert asked == [] and "Lisbon city break" not in (engine.parts.index.catalog.get(path).sense or "")
        assert engine.semantic_search("Alfama")[0].semantic == "pending"
        assert SemanticPhase(engine.parts.indexer).run_batch() == 1
        record = engine.parts.index.catalog.get(path)
        assert len(asked) == 1 and "Lisbon city break" in record.sense and record.semantic == "done"
        assert engine.parts.keywords.search("itinerary", 5, None)[0].path == path  # chunk #0 carries it
    finally:
        engine.running.close()


def test_the_query_model_warms_only_once_every_queued_file_is_keyword_searchable(tmp_path, sensetree_home):
    """Issue 30: loading the query model beside the keyword phase slowed it by a third; the warm-up is
    asked for the first time the keyword phase has nothing due, and at once after that."""
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = make_engine(sensetree_home)
    try:
        seen: list[object] = []
        engine.parts.index.worker.when_keyword_idle(lambda: seen.append(engine.indexing_stats().keyword))
        engine.add_indexed_folder(str(root))
        assert seen == []
        engine.parts.index.drain()
        assert len(seen) == 1 and seen[0].total == len(SAMPLE) and seen[0].done == seen[0].total
        engine.parts.index.worker.when_keyword_idle(lambda: seen.append("at once"))
        assert seen[-1] == "at once"
    finally:
        engine.running.close()
