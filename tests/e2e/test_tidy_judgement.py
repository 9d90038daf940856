"""The Gardener's judgement as a person sees it in a real browser against `serve` (issue 29): a fix's sure
lines come ticked and its unsure ones unticked under their own heading, each saying why; Approve counts
only the ticked ones; the headline shows once; a receipt series is not offered as duplicates; and the
meaning map draws its shading without a single Content Security Policy violation. Screenshots land in
test-artifacts/ (gitignored)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bridge import Api
from bridge.server import start_server
from tests.gardener.planted import write
from tests.gardener.test_judgement import LEASE, MONTHS, RECEIPT

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)

from tests.e2e.test_browser_journey import WAIT_MS, _shot, browser, open_page  # noqa: E402,F401 (the same Chromium fixture)
from tests.e2e.test_tidy_journey import indexed_engine  # noqa: E402


def _home(root: Path) -> None:
    for n, month in enumerate(MONTHS[:4]):
        text = RECEIPT.format(amount=1200 + 5 * n, month=month, ref=4100 + n, day=f"2024-{n + 1:02d}-01")
        write(root, f"Housing/rent-receipt-2024-{n + 1:02d}.txt", text, 1_700_000_000.0)
    write(root, "Housing/lease-agreement.txt", LEASE, 1_700_000_000.0)
    write(root, "Housing/lease notes.txt", LEASE + "Signed copy kept in the blue folder.\n", 1_700_000_100.0)
    write(root, "Downloads/lease-agreement (1).txt", LEASE + "Downloaded from the agency portal.\n")


def test_a_fix_ticks_only_its_sure_lines_and_the_map_shades_under_the_csp(tmp_path, browser):
    root = tmp_path / "Home"
    _home(root)
    real = Path(os.path.realpath(root))
    engine = indexed_engine(tmp_path / "home", root)
    server = start_server(Api(engine))
    expect = playwright_api.expect
    try:
        page, errors = open_page(browser, server.url, height=1000)
        violations: list[str] = []
        page.on(
            "console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None
        )
        page.get_by_test_id("nav-tidy").click()
        page.get_by_test_id("tidy-root").first.click()
        headline = page.get_by_test_id("tidy-headline")
        expect(headline).to_contain_text("1 near-duplicate", timeout=WAIT_MS)
        expect(page.locator("#view-tidy").get_by_text(headline.inner_text(), exact=True)).to_have_count(1)
        group = page.get_by_test_id("tidy-group-near_duplicate")
        expect(group).not_to_contain_text("rent-receipt")

        group.get_by_test_id("tidy-fix-near_duplicate").click()
        card = group.get_by_test_id("plan-card")
        expect(card).to_be_visible(timeout=WAIT_MS)
        lines = card.get_by_test_id("plan-op")
        expect(lines).to_have_count(2)
        expect(lines.nth(0)).to_contain_text("Downloads/lease-agreement (1).txt")
        expect(lines.nth(0).get_by_test_id("plan-op-checkbox")).to_be_checked()
        expect(card.get_by_test_id("plan-unticked-heading")).to_be_visible()
        expect(lines.nth(1)).to_contain_text("lease notes.txt")
        expect(lines.nth(1)).to_contain_text("check it before trashing")
        expect(lines.nth(1).get_by_test_id("plan-op-checkbox")).not_to_be_checked()
        expect(card.get_by_test_id("plan-approve")).to_have_text("Approve 1")
        _shot(page, "tidy-judgement-1-unticked")
        card.get_by_test_id("plan-approve").click()
        expect(card.get_by_test_id("plan-result")).to_contain_text("Applied 1", timeout=WAIT_MS)
        assert not (real / "Downloads" / "lease-agreement (1).txt").exists()
        assert (real / "Housing" / "lease notes.txt").is_file(), "an unticked line is never applied"

        page.locator(".nav-item[data-view=search]").click()
        page.get_by_test_id("search-input").fill("rent receipt lease")
        page.get_by_test_id("search-map-toggle").click()
        expect(page.get_by_test_id("map-tree")).to_be_visible(timeout=WAIT_MS)
        expect(page.get_by_test_id("map-folder").first).to_be_visible()
        _shot(page, "tidy-judgement-2-map")
        page.get_by_test_id("map-treemap-toggle").click()
        expect(page.get_by_test_id("map-treemap").locator(".treemap-cell").first).to_be_visible()
        assert violations == [] and errors == []
    finally:
        server.stop()
        engine.running.close()
