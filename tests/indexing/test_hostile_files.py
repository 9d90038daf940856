"""Files that used to cost the index dearly (issue 11, finding 3 and the PATH_MAX item): a DOCX zip bomb
(+1.6 GB RSS), a file that kills the process while it is read (stuck `queued` with 0 attempts, its
batch never indexed), a store refusing one file of a batch, and paths deeper than PATH_MAX."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import docx
import openpyxl
import pytest

from engine.errors import ExtractionError
from engine.indexing.crawl import FILE_TOO_LONG, FOLDER_TOO_LONG
from engine.indexing.extract import extract
from engine.indexing.extractors import archive
from tests.indexing.bombs import docx_bomb, lying_docx
from tests.indexing.extractor_memory import run_child
from tests.indexing.helpers import indexed_engine, make_engine, write_docs

REPO = Path(__file__).resolve().parents[2]
TOPICS = ["harbour", "orchard", "mill", "quarry", "forge"]
FIVE = {f"ordinary-{i}.txt": f"Ordinary file {i} about the {topic}." for i, topic in enumerate(TOPICS)}
RSS_BOUND_MB = 100

MEASURE = """
import json, resource, sys
from engine.errors import ExtractionError
from engine.indexing.extract import extract
import docx, openpyxl, pptx  # the parsers loaded before the baseline, as in the app
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    extract(sys.argv[1]); reason = None
except ExtractionError as exc:
    reason = exc.reason
grew_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"reason": reason, "grew_mb": grew_kb / 1024}))
"""


def _extract_measured(path: Path) -> dict:
    """`extract(path)` in a fresh process: the reason it was refused, and how much its peak RSS grew."""
    return run_child(MEASURE, [str(path)])


def test_a_docx_zip_bomb_is_refused_with_a_reason_before_it_costs_memory(tmp_path):
    bomb = docx_bomb(tmp_path / "bomb.docx", inflated_mb=200)
    assert bomb.stat().st_size < 1_500_000
    measured = _extract_measured(bomb)
    assert measured["grew_mb"] < RSS_BOUND_MB, measured
    assert "zip bomb" in measured["reason"] and "word/document.xml" in measured["reason"]


def test_a_docx_whose_directory_understates_a_part_is_refused_before_it_is_inflated(tmp_path):
    """Issue 31, N4: zipfile stops returning a member at its stated size but inflates each block in one
    call, so a 1 MB DOCX stating 400 KB for 300 MB of XML peaked at 640 MB before it failed."""
    liar = lying_docx(tmp_path / "liar.docx", inflated_mb=300, stated=400_000)
    with zipfile.ZipFile(liar) as archive:
        assert archive.getinfo("word/document.xml").file_size == 400_000
    measured = _extract_measured(liar)
    assert measured["grew_mb"] < RSS_BOUND_MB, measured
    assert "more than the 400 KB its archive states" in measured["reason"], measured


@pytest.mark.parametrize("extension", ["docx", "xlsx", "pptx", "odt", "ods", "odp", "epub"])
def test_every_zip_based_format_is_checked_before_its_parser_inflates_it(tmp_path, extension):
    path = tmp_path / f"packed.{extension}"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as packed:
        packed.writestr("mimetype", "application/octet-stream")
        packed.writestr("content.xml", b"<a>" + b" " * 20_000_000 + b"</a>")
    with pytest.raises(ExtractionError, match="zip bomb"):
        extract(str(path))


def test_a_document_whose_markup_would_inflate_past_the_limit_is_refused(tmp_path, monkeypatch):
    document = docx.Document()
    for i in range(200):
        document.add_paragraph(f"Paragraph {i} of an ordinary report with varied words: {i * 7919}.")
    document.save(tmp_path / "big.docx")
    assert "Paragraph 199" in extract(str(tmp_path / "big.docx")).text  # under the limit it reads as always
    monkeypatch.setattr(archive, "MAX_MARKUP_BYTES", 10_000)
    with pytest.raises(ExtractionError, match=r"would inflate to .* of document markup \(limit 10 KB\)"):
        extract(str(tmp_path / "big.docx"))


def test_the_other_files_of_a_zip_bomb_batch_are_indexed(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", FIVE)
    docx_bomb(root / "bomb.docx", inflated_mb=120)
    with indexed_engine(root, sensetree_home) as engine:
        stats = engine.indexing_stats()
        assert (stats.done, stats.failed, stats.queued) == (5, 1, 0)
        record = engine.parts.index.catalog.get(str(root / "bomb.docx"))
        assert record.status == "failed" and "zip bomb" in record.error


def run_crashing_indexer(home: Path, folder: Path) -> int:
    done = subprocess.run(
        [sys.executable, str(REPO / "tests" / "indexing" / "crash_reader.py"), str(home), str(folder)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 137), done.stderr[-3000:]
    return done.returncode


def test_a_file_that_kills_the_process_counts_attempts_and_is_failed_after_max_attempts(
    tmp_path, sensetree_home
):
    (sensetree_home / "settings.json").write_text(
        json.dumps({"indexing": {"max_attempts": 2}}), encoding="utf-8"
    )
    root = write_docs(tmp_path / "Docs", {**FIVE, "killer.txt": "Reading me ends the process."})
    assert run_crashing_indexer(sensetree_home, root) == 137
    engine = make_engine(sensetree_home)
    try:
        assert engine.parts.index.queue.max_attempts == 2
        killer = [q for q in engine.indexing_queue(100) if q.path.endswith("killer.txt")]
        assert killer[0].attempts == 1 and killer[0].status == "queued"  # counted when it was claimed
    finally:
        engine.running.close()
    # the second death is the second attempt; the third start gives up on it and indexes the rest
    assert [run_crashing_indexer(sensetree_home, root) for _ in range(2)] == [137, 0]
    engine = make_engine(sensetree_home)
    try:
        stats = engine.indexing_stats()
        assert (stats.done, stats.failed, stats.queued) == (5, 1, 0)
        record = engine.parts.index.catalog.get(str(root / "killer.txt"))
        assert record.status == "failed" and "stopped while reading this file 2 times" in record.error
        engine.add_indexed_folder(str(root))  # a re-scan leaves the failed, unchanged file alone
        assert engine.parts.index.queue.pending() == 0
    finally:
        engine.running.close()


class RefusingKeywords:
    """The real keyword index, refusing any write that includes `poison.txt` (fault injection)."""

    def __init__(self, real):
        self.real = real

    def upsert_many(self, rows):
        if any(path.endswith("poison.txt") for path, _ in rows):
            raise RuntimeError("keyword store refused the write")
        return self.real.upsert_many(rows)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_store_refusing_one_file_keeps_the_rest_of_its_batch(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", {**FIVE, "poison.txt": "The keyword store will not take me."})
    engine = make_engine(sensetree_home)
    try:
        engine.parts.indexer.keywords = RefusingKeywords(engine.parts.indexer.keywords)
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        assert engine.indexing_stats().done == 5
        poison = [q for q in engine.indexing_queue(100) if q.path.endswith("poison.txt")]
        assert poison[0].error == "RuntimeError: keyword store refused the write"
        assert engine.semantic_search("orchard")[0].path.endswith("ordinary-1.txt")
    finally:
        engine.running.close()


def make_deep_tree(root: Path) -> tuple[str, str]:
    """Folders of 250-character names down to just under PATH_MAX, built relative to open folders (the
    only way such paths can be made); at the bottom a file whose own path crosses the limit and a folder
    beyond it. Returns (that file's path, that folder's path)."""
    limit = os.pathconf(str(root), "PC_PATH_MAX")
    fd = os.open(root, os.O_RDONLY)
    path = str(root)
    try:
        while len(path) < limit - 200:  # the bottom folder's path is exactly limit - 200 characters long
            name = "d" * min(250, limit - 200 - len(path) - 1)
            os.mkdir(name, dir_fd=fd)
            fd, old = os.open(name, os.O_RDONLY, dir_fd=fd), fd
            os.close(old)
            path = os.path.join(path, name)
        long_file = "f" * 250 + ".txt"
        with open(
            os.open(long_file, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w", encoding="utf-8"
        ) as out:
            out.write("Too deep to open by name.")
        os.mkdir("g" * 250, dir_fd=fd)
    finally:
        os.close(fd)
    return os.path.join(path, long_file), os.path.join(path, "g" * 250)


@pytest.mark.skipif(not hasattr(os, "pathconf"), reason="POSIX PATH_MAX")
def test_files_nested_beyond_path_max_are_recorded_failed_with_a_reason(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", FIVE)
    deep_file, deep_folder = make_deep_tree(root)
    with pytest.raises(OSError) as refused:
        os.stat(deep_file)
    assert refused.value.errno == errno.ENAMETOOLONG
    with indexed_engine(root, sensetree_home) as engine:
        failed = {q.path: q.error for q in engine.indexing_queue(100) if q.status == "failed"}
        assert failed == {deep_file: FILE_TOO_LONG, deep_folder: FOLDER_TOO_LONG}
        stats = engine.indexing_stats()
        assert (stats.done, stats.failed) == (5, 2)
        engine.parts.index.worker.request_scan(
            str(root)
        )  # a re-scan keeps them recorded, not deleted and re-added
        engine.parts.index.drain()
        assert engine.indexing_stats().failed == 2
        engine.retry_indexing()  # Retry finds them still out of reach: failed again, not taken for deleted
        engine.parts.index.drain()
        assert {q.path for q in engine.indexing_queue(100) if q.status == "failed"} == set(failed)


def test_indexing_an_indexed_folder_again_picks_up_added_and_deleted_files(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", FIVE)
    with indexed_engine(root, sensetree_home) as engine:
        (root / "ordinary-0.txt").unlink()
        (root / "added.txt").write_text("A lighthouse keeper's log, added later.", encoding="utf-8")
        engine.add_indexed_folder(str(root))  # what `sensetree index FOLDER` does on the second run
        engine.parts.index.drain()
        assert engine.parts.index.catalog.get(str(root / "ordinary-0.txt")) is None
        assert engine.semantic_search("lighthouse keeper")[0].path == str(root / "added.txt")
        assert engine.indexing_stats().done == 5


def test_worksheets_that_are_streamed_do_not_count_against_the_markup_limit(tmp_path, monkeypatch):
    workbook = openpyxl.Workbook()
    workbook.active.append(["Ledger"])
    for i in range(3000):
        workbook.active.append([i, i * 3, i * 7])
    workbook.save(tmp_path / "ledger.xlsx")
    monkeypatch.setattr(archive, "MAX_MARKUP_BYTES", 20_000)  # well under the sheet, over everything else
    assert "2999\t8997\t20993" in extract(str(tmp_path / "ledger.xlsx")).text
