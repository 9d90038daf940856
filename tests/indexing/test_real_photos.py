"""The photo-text rule on real pictures (tests/data/photos/, sources and licences in its README.md), not
only on generated ones: a real photo without text costs one small look and is never read in full, a
real photographed page is read and found by a word in its pixels, and the quick look tells every real
picture with readable text from every one without (bench/photo_text.py prints the calibration)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.indexing import ocr, photo_ocr
from tests.indexing.helpers import SAMPLE, indexed_engine, write_docs
from tests.indexing.test_photo_ocr import counting_runs

pytestmark = pytest.mark.skipif(not ocr.available(), reason=ocr.MISSING)
pytest.importorskip("PIL.Image")

PHOTOS = Path(__file__).resolve().parents[1] / "data" / "photos"
WITHOUT_TEXT = sorted((PHOTOS / "no-text").iterdir())
WITH_TEXT = sorted((PHOTOS / "text").iterdir()) + sorted((PHOTOS / "screenshots").iterdir())


def test_a_real_cat_photo_is_not_ocred_and_a_real_photographed_page_is_found_by_a_word_on_it(
    tmp_path, sensetree_home, monkeypatch
):
    root = write_docs(tmp_path / "Docs", SAMPLE)
    (root / "Pictures").mkdir()
    cat = Path(shutil.copy(PHOTOS / "no-text" / "chelsea.jpg", root / "Pictures" / "IMG_0042.jpg"))
    page = Path(shutil.copy(PHOTOS / "text" / "page.png", root / "Pictures" / "IMG_0043.png"))
    sizes = counting_runs(monkeypatch)
    with indexed_engine(root, sensetree_home) as engine:
        hits = engine.semantic_search("segmentation markers coins", limit=3)
        cat_record = engine.parts.index.catalog.get(str(cat))
        page_details = engine.path_details(str(page))
    assert cat_record.note == photo_ocr.NO_TEXT
    assert len(sizes) == 3  # the cat: one look; the page: one look and one full read
    assert hits[0].path == str(page)
    read = {r.label: r for r in page_details.readings or []}
    assert "segmentation" in read["Text in the picture"].text.lower()
    assert "Tesseract" in read["Text in the picture"].source


@pytest.mark.parametrize("path", WITHOUT_TEXT, ids=lambda p: p.name)
def test_the_quick_look_finds_no_text_in_a_real_photo_without_any(path):
    small = photo_ocr.shrink(photo_ocr.load(str(path), photo_ocr.CHECK_SIDE**2), photo_ocr.CHECK_SIDE)
    assert not photo_ocr.holds_text(small)


@pytest.mark.parametrize("path", WITH_TEXT, ids=lambda p: p.name)
def test_the_quick_look_finds_the_text_in_a_real_page_or_screenshot(path):
    small = photo_ocr.shrink(photo_ocr.load(str(path), photo_ocr.CHECK_SIDE**2), photo_ocr.CHECK_SIDE)
    assert photo_ocr.holds_text(small)
