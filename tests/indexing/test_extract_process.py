"""The second reading process (engine/indexing/extract_process.py): PDF, DOCX and HTML read beside the
indexer give exactly what this process's own read gives, a hostile file is refused there with the same
reason, a reading process that dies costs only the file it was reading, and an idle indexer holds none."""

from __future__ import annotations

import os
import signal
from concurrent.futures import Future
from pathlib import Path

import docx
import pytest

from engine.errors import ExtractionError
from engine.indexing import extract_process
from engine.indexing import indexer as indexer_mod
from engine.indexing.extract import extract
from engine.indexing.extract_process import ExtractionProcess, ReaderStopped
from engine.indexing.scan import scan_root
from tests.indexing.bombs import lying_docx
from tests.indexing.helpers import make_engine
from tests.indexing.test_extract import write_pdf

WORDS = {"docx": "marmalade", "pdf": "lighthouse", "html": "tapestry", "txt": "harpsichord"}


def write_mixed(folder: Path) -> list[Path]:
    """One file of each kind the indexer meets in a Documents folder, each with its own word."""
    folder.mkdir(parents=True, exist_ok=True)
    document = docx.Document()
    document.core_properties.title = "Breakfast"
    document.add_paragraph(f"Orange {WORDS['docx']} on toast, every morning.")
    document.add_table(rows=1, cols=2).rows[0].cells[0].text = "cell text"
    document.save(str(folder / "breakfast.docx"))
    write_pdf(folder / "coast.pdf", [f"The {WORDS['pdf']} keeper's log", "page two"], title="Coast")
    (folder / "museum.html").write_text(
        f"<html><head><title>Museum</title></head><body><p>A woven {WORDS['html']}.</p>"
        "<script>ignored()</script></body></html>",
        encoding="utf-8",
    )
    (folder / "music.txt").write_text(f"A {WORDS['txt']} concert.", encoding="utf-8")
    return sorted(folder.iterdir())


def test_the_second_process_reads_each_format_exactly_as_this_process_does(tmp_path):
    files = write_mixed(tmp_path / "Docs")
    process = ExtractionProcess(enabled=True)
    try:
        for path in files:
            assert process.extract(str(path), 1_000_000) == extract(str(path)), path.name
            assert process.extract(str(path), 12) == extract(str(path), max_chars=12), path.name  # truncated
        assert process.pid is not None  # PDF, DOCX and HTML went there (plain text stays here)
    finally:
        process.stop()
    assert process.pid is None


def test_the_keyword_phase_takes_pdf_docx_and_html_from_the_second_process(tmp_path, monkeypatch):
    """Reading those formats fails in this process: what the index holds came from the other one."""
    root = tmp_path / "Docs"
    write_mixed(root)
    real = indexer_mod.extract

    def only_text_here(path: str, max_chars: int = 1_000_000):
        if not path.endswith(".txt"):
            raise AssertionError(f"{path} was read in the indexer's process")
        return real(path, max_chars=max_chars)

    monkeypatch.setattr(indexer_mod, "extract", only_text_here)
    engine = make_engine(tmp_path / "home")
    extraction = engine.parts.indexer.extraction = ExtractionProcess(enabled=True)
    try:
        engine.add_indexed_folder(str(root))
        scan_root(str(root), engine.parts.index.catalog, engine.parts.index.queue, lambda: False)
        jobs = engine.parts.index.queue.claim_batch(10)
        assert engine.parts.indexer.process_batch(jobs) == ["done"] * 4
        engine.parts.index.queue.release([job.path for job in jobs])
        for kind, word in WORDS.items():
            hits = engine.keyword_search(word)
            assert [Path(hit.path).suffix for hit in hits] == [f".{kind}"], word
    finally:
        extraction.stop()
        engine.running.close()


def test_a_hostile_docx_is_refused_in_the_second_process_with_the_same_reason(tmp_path):
    liar = lying_docx(tmp_path / "liar.docx", inflated_mb=40, stated=400_000)
    with pytest.raises(ExtractionError) as here:
        extract(str(liar))
    process = ExtractionProcess(enabled=True)
    try:
        with pytest.raises(ExtractionError) as there:
            process.extract(str(liar), 1_000_000)
    finally:
        process.stop()
    assert there.value.reason == here.value.reason
    assert "more than the 400 KB its archive states" in there.value.reason


def test_a_reading_process_that_dies_fails_only_its_file_and_the_next_file_gets_a_new_one(tmp_path):
    first, second = (p for p in write_mixed(tmp_path / "Docs") if p.suffix in (".docx", ".pdf"))
    process = ExtractionProcess(enabled=True)
    try:
        process.start()
        pid = process.pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)  # the request waits in its pipe, unread, until the kill
        answer = process.submit(str(first), 1_000_000)
        assert answer is not None
        os.kill(pid, signal.SIGKILL)  # as the kernel's OOM killer or a parser's crash would
        with pytest.raises(ReaderStopped):
            answer.result(timeout=30)
        assert process.extract(str(second), 1_000_000) == extract(str(second))
        assert process.pid not in (None, pid)
    finally:
        process.stop()


def test_a_file_whose_reading_process_died_is_retried_later_not_failed(tmp_path, monkeypatch):
    root = tmp_path / "Docs"
    write_mixed(root)
    engine = make_engine(tmp_path / "home")
    extraction = engine.parts.indexer.extraction = ExtractionProcess(enabled=True)

    def died(path: str, max_chars: int) -> Future | None:
        if not extraction.handles(path):
            return None  # plain text is read here, as ever
        answer: Future = Future()
        answer.set_exception(ReaderStopped("the reading process stopped while it read this file (exit -9)"))
        return answer

    monkeypatch.setattr(extraction, "submit", lambda path, max_chars: died(path, max_chars))
    try:
        engine.add_indexed_folder(str(root))
        scan_root(str(root), engine.parts.index.catalog, engine.parts.index.queue, lambda: False)
        jobs = engine.parts.index.queue.claim_batch(10)
        statuses = dict(
            zip((Path(j.path).name for j in jobs), engine.parts.indexer.process_batch(jobs), strict=True)
        )
        engine.parts.index.queue.release([job.path for job in jobs])
    finally:
        engine.running.close()
    assert statuses == {
        "breakfast.docx": "retry",
        "coast.pdf": "retry",
        "museum.html": "retry",
        "music.txt": "done",
    }


def test_an_idle_indexer_and_a_closed_engine_hold_no_reading_process(tmp_path):
    root = tmp_path / "Docs"
    write_mixed(root)
    engine = make_engine(tmp_path / "home")
    extraction = engine.parts.indexer.extraction = ExtractionProcess(enabled=True)
    try:
        extraction.start()
        assert extraction.pid is not None
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()  # the keyword phase runs dry: the process is let go
        assert extraction.pid is None
        assert [hit.path for hit in engine.keyword_search(WORDS["pdf"])] == [str(root / "coast.pdf")]
        extraction.start()
    finally:
        engine.running.close()  # stops it with the indexer
    assert extraction.pid is None


def test_with_one_cpu_or_in_a_frozen_app_every_file_is_read_in_this_process(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0}, raising=False)
    assert not ExtractionProcess().enabled
    assert ExtractionProcess().submit(str(tmp_path / "a.pdf"), 100) is None
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(extract_process.sys, "frozen", True, raising=False)
    assert not ExtractionProcess().enabled


def assert_room_for(process: ExtractionProcess, path: Path, room: int) -> None:
    """While the child answers nothing, `room` requests for `path` wait for it and the next is left to
    the caller; once it runs again, every one is answered as this process reads the file."""
    pid = process.pid
    assert pid is not None
    os.kill(pid, signal.SIGSTOP)
    answers = [process.submit(str(path), 1_000_000) for _ in range(room)]
    assert None not in answers
    assert process.submit(str(path), 1_000_000) is None
    os.kill(pid, signal.SIGCONT)
    assert all(answer.result(timeout=30) == extract(str(path)) for answer in answers if answer)


def test_a_child_with_a_full_backlog_leaves_the_next_file_to_the_caller(tmp_path):
    """The read-ahead reads a file itself rather than wait behind BACKLOG others: both cores stay busy."""
    pdf = next(p for p in write_mixed(tmp_path / "Docs") if p.suffix == ".pdf")
    process = ExtractionProcess(enabled=True)
    try:
        process.start()
        assert_room_for(process, pdf, extract_process.BACKLOG)
        assert process.submit(str(pdf), 1_000_000) is not None  # room again
    finally:
        process.stop()
