"""Scanned PDFs (pages that are only pictures of text) become searchable through Tesseract, in the
background, one page at a time, and no page is read twice: not on a re-index, not after a kill."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.indexing import ocr
from engine.indexing.scan import scan_root
from tests.indexing.helpers import SAMPLE, make_engine, write_docs

pytestmark = pytest.mark.skipif(not ocr.available(), reason=ocr.MISSING)
Image = pytest.importorskip("PIL.Image")

from tests.indexing.scans import write_scan  # noqa: E402 (needs Pillow)

INVOICE = ["INVOICE 7731", "Quillfeather Stationery Ltd", "Fountain pens and ink", "Total due: 312.40 EUR"]


class Killed(BaseException):
    """Stands for the process dying in the middle of a page (nothing below catches it)."""


def counting_reader(monkeypatch, kill_at: int | None = None) -> list[tuple[str, int]]:
    calls: list[tuple[str, int]] = []
    real = ocr.read_pdf_page

    def read(path: str, index: int, seconds: float = ocr.PAGE_SECONDS) -> str:
        calls.append((Path(path).name, index))
        if kill_at is not None and len(calls) == kill_at:
            raise Killed
        return real(path, index, seconds)

    monkeypatch.setattr(ocr, "read_pdf_page", read)
    return calls


def test_a_scanned_invoice_is_found_by_a_word_that_is_only_in_its_pixels(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    scan = write_scan(root / "invoices" / "scan-0042.pdf", [INVOICE])
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
        hits = engine.semantic_search("Quillfeather", limit=3)
        record = engine.parts.index.catalog.get(str(scan))
    finally:
        engine.running.close()
    assert hits[0].path == str(scan) and "Quillfeather" in hits[0].snippet
    assert record.status == "done" and "OCR" in (record.note or "")


def test_a_scan_is_findable_by_name_first_and_its_pages_are_read_after(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    scan = write_scan(root / "scan-0042.pdf", [INVOICE])
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        index = keyword_phase_only(engine, root)
        before = index.catalog.get(str(scan))
        by_name = engine.semantic_search("scan-0042", limit=1)
        waiting = index.indexer.ocr.waiting()
        engine.parts.index.drain()
        after = index.catalog.get(str(scan))
    finally:
        engine.running.close()
    assert before.status == "skipped" and "wait for OCR" in (before.note or "") and waiting == 1
    assert by_name[0].path == str(scan)
    assert after.status == "done" and "Quillfeather" in engine_text(sensetree_home, scan)


def keyword_phase_only(engine, root: Path):
    """Scan `root` and run the keyword phase of its files by hand (no semantic phase, no OCR)."""
    index = engine.parts.index
    scan_root(str(root), index.catalog, index.queue)
    jobs = index.queue.claim_batch(100)
    index.indexer.process_batch(jobs)
    index.queue.release([job.path for job in jobs])
    return index


def engine_text(home: Path, path: Path) -> str:
    engine = make_engine(home)
    try:
        return engine.parts.agent._host.extracted_text(str(path))
    finally:
        engine.running.close()


def test_no_page_is_read_twice_after_a_kill_or_a_reindex(tmp_path, sensetree_home, monkeypatch):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    scan = write_scan(
        root / "scan.pdf", [[f"Page {n} of the lease", f"clause {n}1 garden"] for n in range(3)]
    )
    calls = counting_reader(monkeypatch, kill_at=2)
    engine = make_engine(sensetree_home)
    with pytest.raises(Killed):
        engine.add_indexed_folder(str(root))
        engine.parts.index.drain()
    engine.running.close()
    engine = make_engine(sensetree_home)  # the restart: OCR resumes where it stopped
    try:
        engine.parts.index.drain()
        engine.reindex_path(str(scan))
        engine.parts.index.drain()
        hits = engine.semantic_search("clause 21 garden lease", limit=2)
    finally:
        engine.running.close()
    assert calls == [("scan.pdf", 0), ("scan.pdf", 1), ("scan.pdf", 1), ("scan.pdf", 2)]
    assert hits[0].path == str(scan)


def test_a_huge_page_is_read_at_a_bounded_size():
    big = Image.new("L", (12_000, 9_000), 255)  # 108 megapixels
    small = ocr.fit(big)
    assert small.width * small.height <= ocr.MAX_PIXELS
    assert small.width / small.height == pytest.approx(4 / 3, 0.01)


def test_a_poster_sized_pdf_page_is_rendered_within_the_pixel_bound(tmp_path):
    poster = tmp_path / "poster.pdf"
    Image.new("L", (3000, 3000), 255).save(poster, "PDF", resolution=30)  # a page 100 inches square
    image = ocr.render_page(str(poster), 0)
    assert image.width * image.height <= ocr.MAX_PIXELS and image.width == image.height


def test_tesseract_runs_on_one_thread_with_the_persons_library_path_in_the_frozen_app(monkeypatch):
    monkeypatch.setenv("LD_LIBRARY_PATH", "/tmp/_MEI123")  # what PyInstaller's loader sets
    monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", "/opt/mine")  # and what the person had
    env = ocr.program_env()
    assert env["OMP_THREAD_LIMIT"] == "1" and env["LD_LIBRARY_PATH"] == "/opt/mine"
    assert "LD_LIBRARY_PATH_ORIG" not in env


def test_a_scan_moved_while_it_waits_for_ocr_is_read_at_its_new_place(tmp_path, sensetree_home):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    scan = write_scan(root / "inbox" / "scan-0042.pdf", [INVOICE])
    engine = make_engine(sensetree_home)
    try:
        engine.add_indexed_folder(str(root))
        index = keyword_phase_only(engine, root)  # the scan waits for OCR
        filed = root / "invoices" / "scan-0042.pdf"
        scan.rename(filed)
        index.indexer.moved(str(scan), str(filed))
        engine.parts.index.drain()
        hits = engine.semantic_search("Quillfeather", limit=1)
    finally:
        engine.running.close()
    assert hits[0].path == str(filed)
