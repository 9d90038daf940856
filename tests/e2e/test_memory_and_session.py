"""In a real browser against `sensetree serve`: a pending note is kept from Settings → Agent memory, and
the page keeps working after a reload without any cookie (the token lives in sessionStorage)."""

from __future__ import annotations

import pytest

from bridge import Api
from bridge.server import start_server
from engine.embed import HashingEmbedder
from engine.engine import Engine

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)
from tests.e2e.test_browser_journey import ARTIFACTS, browser  # noqa: E402, F401 (the Chromium fixture)

WAIT_MS = 30_000


def test_a_pending_note_is_kept_from_settings_after_a_reload_without_cookies(tmp_path, browser):
    expect = playwright_api.expect
    engine = Engine(tmp_path / "home", embedder=HashingEmbedder())
    engine.parts.agent.memory.remember("Jane is my accountant")
    pending = engine.parts.agent.memory.remember("Invoices from ACME go to Finance", pending=True)
    server = start_server(Api(engine))
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(server.url)
        page.reload()  # the address no longer carries the token; sessionStorage does
        assert "token=" not in page.url
        page.locator(".nav-item[data-view=settings]").click()
        item = page.get_by_test_id("memory-pending")
        expect(item).to_contain_text("Invoices from ACME go to Finance", timeout=WAIT_MS)
        expect(item).to_contain_text("awaiting confirmation")
        expect(page.get_by_test_id("memory-list")).to_contain_text("Jane is my accountant")
        page.locator("#set-memory").scroll_into_view_if_needed()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "memory-pending.png"))
        item.get_by_role("button", name="Keep: Invoices from ACME go to Finance").click()
        expect(page.get_by_test_id("memory-pending")).to_have_count(0, timeout=WAIT_MS)
        assert context.cookies() == []
        context.close()
    finally:
        server.stop()
        notes = {n.id: n.pending for n in engine.agent_memory_list()}
        engine.running.close()
    assert notes[pending["id"]] is False
