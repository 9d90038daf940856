"""Read-ahead (engine/indexing/read_ahead.py): the next files of a keyword batch are read on another thread,
yet what lands in the index is exactly what the indexer's own read would give, every file is read once,
and a version of a file that changed after it was read ahead is read again."""

from __future__ import annotations

import os
import threading

from engine.errors import ExtractionError
from engine.indexing import indexer as indexer_mod
from engine.indexing.read_ahead import Read, ReadAhead
from engine.indexing.scan import scan_root
from tests.indexing.helpers import SAMPLE, make_engine, write_docs


def counting_extract(monkeypatch) -> dict[str, int]:
    """Count every extraction the indexer asks for, on any thread, by file name."""
    calls: dict[str, int] = {}
    real = indexer_mod.extract
    lock = threading.Lock()

    def extract(path: str, max_chars: int = 1_000_000):
        with lock:
            calls[os.path.basename(path)] = calls.get(os.path.basename(path), 0) + 1
        return real(path, max_chars=max_chars)

    monkeypatch.setattr(indexer_mod, "extract", extract)
    return calls


def keyword_batch(engine, root) -> dict[str, str]:
    """One keyword batch over what a scan of `root` (added as a folder) queues: {file name: status}."""
    if str(root) not in engine.get_roots():
        engine.add_indexed_folder(str(root))
    scan_root(str(root), engine.parts.index.catalog, engine.parts.index.queue, lambda: False)
    jobs = engine.parts.index.queue.claim_batch(100)
    try:
        statuses = engine.parts.indexer.process_batch(jobs)
        return {os.path.basename(job.path): status for job, status in zip(jobs, statuses, strict=True)}
    finally:
        engine.parts.index.queue.release([job.path for job in jobs])


def test_take_hands_over_results_in_order_and_never_reads_a_skipped_or_cancelled_path():
    read: list[str] = []
    finished = {name: threading.Event() for name in "abcdef"}
    gate = threading.Event()

    def reader(path: str) -> Read | None:
        if path == "d":
            gate.wait(5)  # holds the thread while the rest is cancelled
        read.append(path)
        finished[path].set()
        return Read((len(path), 0, 0, 0), 100, digest=f"hash of {path}")

    ahead = ReadAhead(depth=2)
    try:
        ahead.begin(["a", "b", "c"], reader)
        assert finished["a"].wait(5) and finished["b"].wait(5)
        first = ahead.take("a")
        assert first is not None and first.digest == "hash of a"
        assert ahead.take("not scheduled") is None  # and the schedule is kept
        assert finished["c"].wait(5)
        third = ahead.take("c")  # "b" was skipped by the indexer: its result is dropped
        assert third is not None and third.digest == "hash of c"
        ahead.begin(["d", "e", "f"], reader)  # at most `depth` (2) ahead: "f" is not scheduled yet
        ahead.cancel()  # "e" cannot have started (the thread is on "d" or idle): it never will
        assert ahead.take("e") is None
        gate.set()
    finally:
        ahead.close()
        ahead._thread.join(5)
    assert read[:3] == ["a", "b", "c"] and set(read[3:]) <= {"d"}  # "d" only if it had started


def test_every_file_is_extracted_once_and_the_index_is_the_same_as_reading_inline(
    tmp_path, sensetree_home, monkeypatch
):
    files = {f"notes/n{i:02d}.txt": f"Note {i} about the word sesame{i} and the harbour." for i in range(30)}
    root = write_docs(tmp_path / "Docs", {**SAMPLE, **files})
    calls = counting_extract(monkeypatch)
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        assert calls == {os.path.basename(rel): 1 for rel in {**SAMPLE, **files}}
        for i in (0, 17, 29):
            hits = engine.parts.search.search_keyword(f"sesame{i}", limit=3)
            assert [h.path for h in hits] == [str(root / f"notes/n{i:02d}.txt")]
    finally:
        engine.running.close()


def test_a_file_changed_after_it_was_read_ahead_is_read_again(tmp_path, sensetree_home, monkeypatch):
    root = write_docs(tmp_path / "Docs", {"a.txt": "first words: walrus", "b.txt": "old text: pelican"})
    engine = make_engine(sensetree_home)
    try:
        real_reader, real_take = engine.parts.indexer._reader, engine.parts.indexer._ahead.take
        edited = threading.Event()

        def reader_then_edit(opts):
            read = real_reader(opts)

            def read_and_change(path: str):
                got = read(path)
                if path.endswith("b.txt"):  # someone saves the file after the read-ahead read it
                    (root / "b.txt").write_text("new text after the read: flamingo", encoding="utf-8")
                    edited.set()
                return got

            return read_and_change

        def take_after_the_edit(path: str):
            if path.endswith("b.txt"):
                assert edited.wait(10)
            return real_take(path)

        monkeypatch.setattr(engine.parts.indexer, "_reader", reader_then_edit)
        monkeypatch.setattr(engine.parts.indexer._ahead, "take", take_after_the_edit)
        assert keyword_batch(engine, root) == {"a.txt": "done", "b.txt": "done"}
        assert [h.path for h in engine.parts.search.search_keyword("flamingo")] == [str(root / "b.txt")]
        assert engine.parts.search.search_keyword("pelican") == []
    finally:
        engine.running.close()


def test_an_extraction_error_on_the_read_ahead_thread_fails_the_file_with_its_reason_once(
    tmp_path, sensetree_home, monkeypatch
):
    root = write_docs(tmp_path / "Docs", {"good.txt": "harbour notes", "bad.txt": "unreadable"})
    calls: dict[str, int] = {}
    real = indexer_mod.extract

    def extract(path: str, max_chars: int = 1_000_000):
        name = os.path.basename(path)
        calls[name] = calls.get(name, 0) + 1
        if name == "bad.txt":
            raise ExtractionError("the file is damaged (test)")
        return real(path, max_chars=max_chars)

    monkeypatch.setattr(indexer_mod, "extract", extract)
    engine = make_engine(sensetree_home)
    try:
        assert keyword_batch(engine, root) == {"bad.txt": "failed", "good.txt": "done"}
        assert calls == {"bad.txt": 1, "good.txt": 1}
        record = engine.parts.index.catalog.get(str(root / "bad.txt"))
        assert record.status == "failed" and record.error == "the file is damaged (test)"
    finally:
        engine.running.close()


def test_touched_files_with_the_same_content_are_not_extracted_again(tmp_path, sensetree_home, monkeypatch):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        calls = counting_extract(monkeypatch)
        for rel in SAMPLE:
            st = os.stat(root / rel)
            os.utime(root / rel, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
        keyword_batch(engine, root)
        assert calls == {}
    finally:
        engine.running.close()
