"""The reading process reads a first index's files before it is asked (engine/indexing/first_reads.py):
an answer read ahead is handed over once, only for the limit it was read with and only while the file is
unchanged; the formats read in the indexer's process and files over the size limit are not read there."""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine.config import Settings
from engine.indexing import extract_process, first_reads
from engine.indexing.extract import extract
from engine.indexing.extract_process import ExtractionProcess
from engine.indexing.first_reads import FirstReads, ReadFirst
from tests.indexing.helpers import make_engine
from tests.indexing.test_extract_process import assert_room_for, write_mixed


def counting_reader(calls: list[str]):
    def read(path: str, max_chars: int = 1_000_000):
        calls.append(os.path.basename(path))
        return extract(path, max_chars=max_chars)

    return read


def read_all(reads: FirstReads) -> None:
    while reads.wanted():
        reads.step()


def test_files_read_ahead_are_handed_over_once_without_reading_them_again(tmp_path):
    files = {p.suffix: p for p in write_mixed(tmp_path / "Docs")}
    calls: list[str] = []
    reads = FirstReads(ReadFirst((str(tmp_path / "Docs"),), 1_000_000, 10_000_000), counting_reader(calls))
    read_all(reads)
    assert calls == ["breakfast.docx", "coast.pdf", "museum.html"]  # the scan's order; text is read here
    for suffix in (".docx", ".pdf", ".html"):  # asked for in that order
        path = str(files[suffix])
        assert reads.take(path, 1_000_000) == ("ok", extract(path)), suffix
    assert reads.take(str(files[".html"]), 1_000_000) is None  # handed over once: asked again, read again
    assert len(calls) == 3


def test_files_the_indexer_went_past_are_let_go_and_not_read(tmp_path):
    folder = tmp_path / "Docs"
    files = {p.suffix: p for p in write_mixed(folder)}
    calls: list[str] = []
    reads = FirstReads(ReadFirst((str(folder),), 1_000_000, 10_000_000), counting_reader(calls))
    reads.step()  # breakfast.docx
    assert reads.take(str(files[".pdf"]), 1_000_000) is None  # asked before the walk reached it
    read_all(reads)
    assert calls == ["breakfast.docx", "museum.html"]  # the PDF was read when asked, not again
    assert reads.take(str(files[".html"]), 1_000_000) == ("ok", extract(str(files[".html"])))
    assert reads.take(str(files[".docx"]), 1_000_000) is None  # let go when the PDF was asked for


def test_an_answer_read_ahead_is_not_used_for_a_changed_file_or_another_limit(tmp_path):
    files = {p.suffix: p for p in write_mixed(tmp_path / "Docs")}
    reads = FirstReads(ReadFirst((str(tmp_path / "Docs"),), 1_000_000, 10_000_000))
    read_all(reads)
    html = files[".html"]
    html.write_text("<html><body><p>rewritten since</p></body></html>", encoding="utf-8")
    assert reads.take(str(html), 1_000_000) is None
    assert reads.take(str(files[".pdf"]), 12) is None  # read with another max_chars


def test_files_over_the_size_limit_are_not_read_ahead_and_what_is_held_is_bounded(tmp_path, monkeypatch):
    folder = tmp_path / "Docs"
    write_mixed(folder)
    calls: list[str] = []
    small = min(os.path.getsize(p) for p in folder.iterdir() if p.suffix != ".txt")
    limited = FirstReads(ReadFirst((str(folder),), 1_000_000, small), counting_reader(calls))
    read_all(limited)
    assert len(calls) == 1  # only the smallest of the three was within the limit
    monkeypatch.setattr(first_reads, "HELD_FILES", 2)
    calls.clear()
    bounded = FirstReads(ReadFirst((str(folder),), 1_000_000, 10_000_000), counting_reader(calls))
    read_all(bounded)
    assert len(calls) == 2  # then it waits until one is taken
    bounded.take(str(folder / calls[0]), 1_000_000)
    read_all(bounded)
    assert len(calls) == 3


def test_a_reading_process_told_to_read_first_answers_every_file_as_this_process_reads_it(tmp_path):
    files = write_mixed(tmp_path / "Docs")
    process = ExtractionProcess(enabled=True)
    try:
        process.start(first=ReadFirst((str(tmp_path / "Docs"),), 1_000_000, 10_000_000))
        changed = next(p for p in files if p.suffix == ".html")
        changed.write_text("<html><body><p>a later version</p></body></html>", encoding="utf-8")
        for path in files:  # the changed file's answer is its new text, whenever it was read ahead
            assert process.extract(str(path), 1_000_000) == extract(str(path)), Path(path).name
            assert process.extract(str(path), 12) == extract(str(path), max_chars=12), Path(path).name
    finally:
        process.stop()


def test_a_first_index_starts_the_reading_process_with_the_roots_to_read_first(
    tmp_path, sensetree_home, monkeypatch
):
    root = tmp_path / "Docs"
    write_mixed(root)
    (sensetree_home / "settings.json").write_text(json.dumps({"roots": [str(root)]}), encoding="utf-8")
    monkeypatch.setattr(extract_process, "second_process_helps", lambda: True)
    told: list[ReadFirst | None] = []
    start = ExtractionProcess.start

    def recorded(self, first=None):
        told.append(first)
        start(self, first)

    monkeypatch.setattr(ExtractionProcess, "start", recorded)
    engine = make_engine(sensetree_home, background=True)
    try:
        engine.running.wait()
    finally:
        engine.running.close()
    indexing = Settings().indexing  # the settings file names the roots only
    assert told[0] == ReadFirst((str(root),), indexing.max_chars, int(indexing.max_file_mb * 1_000_000))


def test_a_reading_process_that_reads_first_takes_more_files_before_the_caller_reads_one_itself(tmp_path):
    """Most of its answers are read already: a file the indexer's process reads itself costs the bound."""
    pdf = next(p for p in write_mixed(tmp_path / "Docs") if p.suffix == ".pdf")
    process = ExtractionProcess(enabled=True)
    try:
        process.start(first=ReadFirst((str(tmp_path / "Elsewhere"),), 1_000_000, 10_000_000))
        assert_room_for(process, pdf, extract_process.FIRST_READS_BACKLOG)
    finally:
        process.stop()
