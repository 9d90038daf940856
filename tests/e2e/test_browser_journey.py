"""The whole journey a new user takes, in a real browser against a real `serve` over a real Engine.

Chromium (Debian's, never a downloaded one) drives the page; the reasoning model is a scripted
OpenAI-compatible endpoint on 127.0.0.1 that searches, then proposes moves. Screenshots of every step
land in test-artifacts/ (gitignored) so a person can look at what the test saw.
"""

from __future__ import annotations

import json
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from tests.fake_openai import FakeOpenAI, Reply

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (no browser download needed)"
)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
WAIT_MS = 60_000


def _make_folder(root: Path) -> Path:
    docs = root / "Docs"
    docs.mkdir()
    (docs / "invoice-acme.txt").write_text(
        "Invoice 2024-03 from ACME Corp to Jane Doe: 1250 EUR for consulting.\n"
    )
    (docs / "invoice-globex.txt").write_text(
        "Invoice from Globex Inc, April 2024: 980 EUR for web hosting.\n"
    )
    (docs / "trip-notes.md").write_text(
        "# Lisbon trip\nFlights with TAP and a hotel in Alfama, 12 to 16 May.\n"
    )
    (docs / "recipe.txt").write_text("Apple pie: apples, flour, butter, sugar and cinnamon.\n")
    return docs


def _script(docs: Path) -> list[Reply]:
    invoices = docs / "Invoices"
    operations = [
        {"kind": "mkdir", "new_path": str(invoices), "reason": "A home for invoices"},
        {
            "kind": "move",
            "old_path": str(docs / "invoice-acme.txt"),
            "new_path": str(invoices / "invoice-acme.txt"),
            "reason": "ACME invoice",
        },
        {
            "kind": "move",
            "old_path": str(docs / "invoice-globex.txt"),
            "new_path": str(invoices / "invoice-globex.txt"),
            "reason": "Globex invoice",
        },
    ]
    return [
        Reply(tool_calls=[("search_files", {"query": "invoice"})]),
        Reply(
            content="You have two invoices, invoice-acme.txt and invoice-globex.txt. I propose filing them.",
            tool_calls=[
                ("propose_actions", {"summary": "File the invoices into Invoices", "operations": operations})
            ],
        ),
    ]


def _write_settings(home: Path, base_url: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    settings = {
        "embedding": {"model": "hashing-384"},
        "reasoning": {"enabled": True, "base_url": base_url, "model": "scripted", "max_retries": 0},
        "indexing": {"qualify_with_model": False},
    }
    (home / "settings.json").write_text(json.dumps(settings))


@pytest.fixture
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


def open_page(browser, url: str, width: int = 1280, height: int = 800) -> tuple:
    """A new page at `url` and the list its uncaught script errors collect in (every journey asserts it
    empty)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, errors


def search_for(page, words: str):
    """Type `words` in the search box, press Enter, and wait for the fused list (keyword hits come
    first, issue 30); returns the results list."""
    page.get_by_test_id("search-input").fill(words)
    page.get_by_test_id("search-input").press("Enter")
    results = page.get_by_test_id("search-results")
    playwright_api.expect(results).to_have_attribute("data-phase", "fused", timeout=WAIT_MS)
    return results


@contextmanager
def search_page(browser, tmp_path: Path, docs: Path, *, background: bool = True, embedder=None):
    """An Engine on the hashing embedder (or on `embedder`, a test's own) over `docs`, served and indexed,
    with a page open on the search view: yields (page, errors) and stops the server and the engine after."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"embedding": {"model": "hashing-384"}}))
    engine = Engine(home, embedder=embedder, background=background)
    engine.add_indexed_folder(str(docs))
    server = start_server(Api(engine))
    try:
        engine.parts.index.drain()
        page, errors = open_page(browser, server.url)
        page.locator(".nav-item[data-view=search]").click()
        yield page, errors
    finally:
        server.stop()
        engine.running.close()


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_a_new_user_indexes_searches_chats_approves_part_of_a_plan_and_undoes_it(tmp_path, browser):
    docs = _make_folder(tmp_path)
    expect = playwright_api.expect
    with FakeOpenAI(_script(docs)) as endpoint:
        _write_settings(tmp_path / "home", endpoint.base_url)
        engine = Engine(tmp_path / "home", background=True)
        server = start_server(Api(engine))
        try:
            page, errors = open_page(browser, server.url)

            # Folders: add the folder and watch indexing reach the end.
            page.locator(".nav-item[data-view=folders]").click()
            page.get_by_test_id("root-path").fill(str(docs))
            page.get_by_test_id("root-add").click()
            expect(page.get_by_test_id("root-item")).to_contain_text("Docs", timeout=WAIT_MS)
            expect(page.get_by_test_id("index-state")).to_have_text("Up to date", timeout=WAIT_MS)
            expect(page.locator("[data-stat=files]")).to_have_text("4", timeout=WAIT_MS)
            _shot(page, "1-folders-indexed")

            # Search: the ACME invoice comes first, the query's words highlighted.
            page.locator(".nav-item[data-view=search]").click()
            page.get_by_test_id("search-input").fill("ACME invoice")
            page.get_by_test_id("search-input").press("Enter")
            results = page.get_by_test_id("search-results")  # keyword hits first, then the fused list
            expect(results).to_have_attribute("data-phase", "fused", timeout=WAIT_MS)
            first = page.get_by_test_id("search-result").first
            expect(first).to_contain_text("invoice-acme.txt", timeout=WAIT_MS)
            expect(first.locator("mark").first).to_be_visible()
            _shot(page, "2-search")

            # Chat: the trace, the sources and the plan card.
            page.locator(".nav-item[data-view=chat]").click()
            page.get_by_test_id("chat-input").fill("File my invoices, please")
            page.get_by_test_id("chat-input").press("Enter")
            card = page.get_by_test_id("plan-card")
            expect(card).to_be_visible(timeout=WAIT_MS)
            expect(page.get_by_test_id("trace-step").first).to_contain_text("Search")
            expect(page.get_by_test_id("source-chip").first).to_be_visible()
            expect(card.get_by_test_id("plan-op")).to_have_count(3)
            expect(card.locator(".tree-pane").nth(1)).to_contain_text("Invoices")
            _shot(page, "3-chat-plan")

            # Untick the Globex move, approve the rest: exactly that happens on disk.
            card.get_by_test_id("plan-op").filter(has_text="invoice-globex").get_by_role("checkbox").uncheck()
            expect(card.get_by_test_id("plan-approve")).to_have_text("Approve 2")
            card.get_by_test_id("plan-approve").click()
            expect(card.get_by_test_id("plan-result")).to_contain_text("Applied 2", timeout=WAIT_MS)
            assert (docs / "Invoices" / "invoice-acme.txt").is_file()
            assert (docs / "invoice-globex.txt").is_file() and not (docs / "invoice-acme.txt").exists()
            _shot(page, "4-plan-applied")

            # Undo: the disk is as it was.
            card.get_by_test_id("plan-undo").click()
            expect(card.get_by_test_id("plan-status")).to_have_text("undone", timeout=WAIT_MS)
            assert (docs / "invoice-acme.txt").is_file() and (docs / "invoice-globex.txt").is_file()
            assert not (docs / "Invoices").exists()
            _shot(page, "5-plan-undone")
            assert errors == []
        finally:
            server.stop()
            engine.running.close()
