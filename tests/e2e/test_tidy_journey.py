"""The Tidy journey in a real browser against `serve`: the planted findings show per kind, "Propose a
fix" on the duplicates opens the plan card, approve trashes the older copy, Undo brings it back; the
health dot appears in the sidebar; and Search's "Show as map" draws the meaning map (tree and
treemap). Screenshots land in test-artifacts/ (gitignored)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from tests.gardener.planted import expected, plant

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)

from tests.e2e.test_browser_journey import WAIT_MS, _shot, browser, open_page  # noqa: E402,F401 (the same Chromium fixture)


def indexed_engine(home: Path, root: Path, gardener: dict[str, object] | None = None) -> Engine:
    """An Engine in `home` (hashing embedder, extractive senses, no background Gardener pass; `gardener`
    adds settings) that has indexed `root` to the end: what the Tidy browser tests open the page on."""
    home.mkdir()
    settings = {
        "embedding": {"model": "hashing-384"},
        "indexing": {"qualify_with_model": False},
        "gardener": {"background": False, **(gardener or {})},
    }
    (home / "settings.json").write_text(json.dumps(settings))
    engine = Engine(home)
    engine.add_indexed_folder(str(root))
    engine.parts.index.drain()
    return engine


def test_tidy_view_shows_findings_proposes_a_duplicate_fix_applies_and_undoes_and_the_map_renders(
    tmp_path, browser
):
    root = tmp_path / "Home"
    plant(root)
    real = Path(os.path.realpath(root))
    engine = indexed_engine(tmp_path / "home", root, {"large_file_mb": 0.05})
    server = start_server(Api(engine))
    expect = playwright_api.expect
    try:
        page, errors = open_page(browser, server.url, height=1000)
        page.get_by_test_id("nav-tidy").click()
        page.get_by_test_id("tidy-root").first.click()
        expect(page.get_by_test_id("tidy-headline")).to_contain_text("1 exact duplicate,", timeout=WAIT_MS)
        kinds = {kind for kind, _ in expected(real)}
        for kind in kinds:
            expect(page.get_by_test_id(f"tidy-group-{kind}")).to_be_visible()
        expect(page.get_by_test_id("tidy-group-empty_folder").get_by_test_id("tidy-count")).to_have_text("2")
        expect(page.get_by_test_id("health-dot")).to_have_count(1)
        group = page.get_by_test_id("tidy-group-duplicate")
        group.get_by_test_id("tidy-finding").locator("summary").click()
        expect(group).to_contain_text("invoice-acme-backup.txt")
        _shot(page, "tidy-1-findings")

        group.get_by_test_id("tidy-fix-duplicate").click()
        card = group.get_by_test_id("plan-card")
        expect(card).to_be_visible(timeout=WAIT_MS)
        expect(card.get_by_test_id("plan-op")).to_have_count(1)
        _shot(page, "tidy-2-plan")
        card.get_by_test_id("plan-approve").click()
        expect(card.get_by_test_id("plan-result")).to_contain_text("Applied 1", timeout=WAIT_MS)
        assert not (root / "Archive" / "invoice-acme-backup.txt").exists()
        card.get_by_test_id("plan-undo").click()
        expect(card.get_by_test_id("plan-status")).to_have_text("undone", timeout=WAIT_MS)
        assert (root / "Archive" / "invoice-acme-backup.txt").is_file()
        _shot(page, "tidy-3-undone")

        page.locator(".nav-item[data-view=search]").click()
        page.get_by_test_id("search-input").fill("flight hotel passport itinerary")
        page.get_by_test_id("search-map-toggle").click()
        tree = page.get_by_test_id("map-tree")
        expect(tree).to_be_visible(timeout=WAIT_MS)
        # Travel/ holds the travel texts and the misplaced travel note shows where it is (Recipes/); which
        # folder leads depends on scores a hundredth apart, so the order is not asserted (.last: the
        # innermost folder of that name, inside Home)
        folders = tree.get_by_test_id("map-folder")
        expect(folders.filter(has_text="Travel").last).to_contain_text("itinerary.txt")
        expect(folders.filter(has_text="Recipes").last).to_contain_text("lisbon-hotels.txt")
        expect(tree).not_to_contain_text("memo-")  # weak matches wait behind their toggle
        _shot(page, "tidy-4-map-tree")
        strong = tree.get_by_test_id("map-file").count()
        page.get_by_test_id("map-weak-toggle").click()
        expect(page.get_by_test_id("map-tree")).to_contain_text("memo-")
        assert page.get_by_test_id("map-file").count() > strong
        page.get_by_test_id("map-weak-toggle").click()
        page.get_by_test_id("map-treemap-toggle").click()
        expect(page.get_by_test_id("map-treemap").locator(".treemap-cell").first).to_be_visible()
        _shot(page, "tidy-5-map-treemap")
        assert errors == []
    finally:
        server.stop()
        engine.running.close()
