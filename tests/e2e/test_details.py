"""File details in a real browser: sizes with units, local dates, a badge that matches the state, no
raw null or booleans, and a failed file's full reason with a Retry that works. Screenshots land in
test-artifacts/ (details-indexed.png, details-failed.png) for a person to look at."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from tests.e2e.test_browser_journey import ARTIFACTS, WAIT_MS, browser, open_page, playwright_api

__all__ = ["browser"]  # the fixture, imported for this module's tests

RAW = re.compile(r"\bnull\b|\bundefined\b|\btrue\b|\bfalse\b|is dir|\b\d{9,}\.\d+\b")


def _shot(target, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _start(tmp_path: Path) -> tuple[Engine, Path]:
    docs = tmp_path / "Docs"
    docs.mkdir()
    (docs / "lease-renewal.txt").write_text(("Rental agreement renewal for flat 4, Elm Street. " * 62)[:3000])
    (docs / "broken.docx").write_bytes(b"this is not a zip archive")
    home = tmp_path / "home"
    home.mkdir()
    settings = {"embedding": {"model": "hashing-384"}, "reasoning": {"enabled": False}}
    (home / "settings.json").write_text(json.dumps(settings))
    engine = Engine(home, background=True)
    engine.add_indexed_folder(str(docs))
    return engine, docs


def test_file_details_read_like_a_person_wrote_them_and_a_failed_file_offers_retry(tmp_path, browser):
    expect = playwright_api.expect
    engine, docs = _start(tmp_path)
    server = start_server(Api(engine))
    try:
        page, errors = open_page(browser, server.url)
        page.locator(".nav-item[data-view=folders]").click()
        expect(page.get_by_test_id("failed-item")).to_contain_text("broken.docx", timeout=WAIT_MS)

        # An indexed file, through Browse.
        page.get_by_test_id("root-item").get_by_role("button", name="Browse").click()
        page.get_by_test_id("browser-entry").filter(has_text="lease-renewal.txt").click()
        card = page.get_by_test_id("details-card")
        expect(page.get_by_test_id("details-status")).to_have_text("Indexed", timeout=WAIT_MS)
        grid = page.get_by_test_id("details-grid")
        expect(grid).to_contain_text("3.0 KB")  # 3,000 bytes, with a unit
        expect(grid).to_contain_text("Text")
        modified = (
            grid.locator("dt", has_text="Modified").locator("xpath=following-sibling::dd[1]").inner_text()
        )
        mtime = (docs / "lease-renewal.txt").stat().st_mtime
        local = page.evaluate("(t) => new Date(t * 1000).toLocaleString()", mtime)
        assert modified == local
        assert not RAW.search(card.inner_text()), card.inner_text()
        _shot(card, "details-indexed")

        # The failed file: its reason in full, a Failed badge, never "queued", and Retry.
        page.get_by_test_id("failed-item").get_by_role("button", name="broken.docx").click()
        expect(page.get_by_test_id("details-status")).to_have_text("Failed", timeout=WAIT_MS)
        expect(page.get_by_test_id("details-failed")).to_contain_text("Damaged DOCX: not a valid zip archive")
        text = card.inner_text()
        assert "queued" not in text.lower() and "waiting" not in text.lower()
        assert not RAW.search(text), text
        _shot(card, "details-failed")
        page.get_by_test_id("details-retry").click()
        expect(
            page.locator(".toast, [role=status]").filter(has_text="queued to be read again").first
        ).to_be_visible(timeout=WAIT_MS)
        expect(page.get_by_test_id("details-failed")).to_contain_text("Damaged DOCX", timeout=WAIT_MS)

        sizes = page.evaluate(
            """async () => { const m = await import('./js/details.js');
                return [0, 1, 999, 1000, 12345, 4_100_000, 2_500_000_000].map(m.formatSize); }"""
        )
        assert sizes == ["0 bytes", "1 byte", "999 bytes", "1.0 KB", "12.3 KB", "4.1 MB", "2.5 GB"]
        badges = page.evaluate(
            """async () => { const m = await import('./js/details.js');
                const read = [{ label: "Caption", source: "llava", text: "a cat" }];
                return [["failed", true], ["done", true], ["done", false], ["skipped", false], [null, false],
                        ["skipped", false, read]]
                  .map(([status, queued, readings]) => m.statusBadge({ status, queued, readings })[0]); }"""
        )
        assert badges == [
            "Failed",
            "Re-indexing",
            "Indexed",
            "Name only",
            "Not indexed yet",
            "Name and readings",
        ]
        assert errors == []
    finally:
        server.stop()
        engine.running.close()
