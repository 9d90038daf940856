"""Results show what they are, in a real browser (issue 33): a photo's hit has its thumbnail, a scanned
PDF's hit names the page OCR read it from, and Details lists the OCR text and the EXIF lines with where
each came from. Screenshots: test-artifacts/results-thumbnail-page.png and details-readings.png."""

from __future__ import annotations

import pytest

from engine.indexing import ocr
from tests.e2e.test_browser_journey import (
    ARTIFACTS,
    WAIT_MS,
    browser,
    playwright_api,
    search_for,
    search_page,
)

pytest.importorskip("PIL.Image")
pytestmark = pytest.mark.skipif(not ocr.available(), reason=ocr.MISSING)

from tests.indexing.scans import write_scan  # noqa: E402 (needs Pillow)
from tests.indexing.test_photo_ocr import photo_of_a_notice  # noqa: E402
from tests.indexing.test_results_show_what import LEASE  # noqa: E402

__all__ = ["browser"]  # the fixture, imported for this module's tests


def test_a_photo_hit_shows_its_thumbnail_a_scan_hit_its_page_and_details_what_ocr_read(tmp_path, browser):
    expect = playwright_api.expect
    docs = tmp_path / "Docs"
    write_scan(docs / "lease-scan.pdf", LEASE)
    photo_of_a_notice(docs / "Pictures" / "IMG_2304.jpg")
    # not in the background: drain() alone runs the keyword phase and OCR of the scan's pages and the photo
    with search_page(browser, tmp_path, docs, background=False) as (page, errors):
        search_for(page, "tortoise Gideon bakery")
        results = page.get_by_test_id("search-result")
        scan_hit = results.filter(has_text="lease-scan.pdf")
        photo_hit = results.filter(has_text="IMG_2304.jpg")
        expect(scan_hit.get_by_test_id("result-page")).to_have_text("page 2", timeout=WAIT_MS)
        thumb = photo_hit.get_by_test_id("thumbnail")
        expect(thumb).to_be_visible(timeout=WAIT_MS)
        assert page.evaluate("(img) => img.naturalWidth", thumb.element_handle()) > 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.get_by_test_id("search-results").screenshot(path=str(ARTIFACTS / "results-thumbnail-page.png"))

        photo_hit.get_by_role("button", name="Details").click()
        readings = page.get_by_test_id("details-readings")
        expect(readings).to_contain_text("Text in the picture", timeout=WAIT_MS)
        expect(readings).to_contain_text("BAKERY")
        expect(readings).to_contain_text("from OCR by Tesseract")
        expect(readings).to_contain_text("from its image header and EXIF, read by Pillow")
        expect(page.get_by_test_id("details-status")).to_have_text("Indexed")  # its words are searchable
        page.get_by_test_id("details-card").screenshot(path=str(ARTIFACTS / "details-readings.png"))
        assert errors == []
