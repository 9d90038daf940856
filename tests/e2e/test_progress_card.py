"""The progress card in a real browser, against `serve` over an Engine whose embedder lets one batch
through only when the test says so: it renders only from the progress model, never says "Up to date"
while files wait, its count moves batch by batch, and Remove takes the folder off the list before
its rows are purged. The test steps the batches itself, so nothing depends on how fast the machine is."""

from __future__ import annotations

import re
import threading

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from engine.indexing import semantic
from tests.e2e.test_browser_journey import browser, open_page, playwright_api  # noqa: F401 (fixture)
from tests.indexing.helpers import GatedEmbedder, write_docs

WAIT_MS = 30_000
RECORD_LABELS = """() => {
  window.__labels = [];
  const el = document.querySelector('[data-testid=index-state]');
  const note = () => window.__labels.push(el.textContent);
  note();
  new MutationObserver(note).observe(el, { childList: true, characterData: true, subtree: true });
}"""


class _HeldPurge:
    def __init__(self) -> None:
        self.go = threading.Event()
        self.done = threading.Event()


def _hold_the_purge(engine: Engine, monkeypatch) -> _HeldPurge:
    """The background purge of a removed folder waits until the test lets it run, so the test can see
    the list answer before the rows are gone, whatever the machine's speed."""
    held = _HeldPurge()
    purge_root = engine.parts.indexer.purge_root

    def purge(root: str) -> None:
        assert held.go.wait(WAIT_MS / 1000), "the test never let the purge run"
        purge_root(root)
        held.done.set()

    monkeypatch.setattr(engine.parts.indexer, "purge_root", purge)
    return held


def test_the_card_counts_down_batch_by_batch_never_says_up_to_date_early_and_remove_answers_at_once(
    tmp_path,
    browser,
    monkeypatch,  # noqa: F811
):
    monkeypatch.setattr(semantic, "BATCH_FILES", 4)  # vectors land four files at a time: 12, 8, 4, done
    docs = write_docs(
        tmp_path / "Docs", {f"note-{i:02d}.txt": f"Note {i} about subject{i}." for i in range(12)}
    )
    gate = GatedEmbedder()
    engine = Engine(tmp_path / "home", embedder=gate, background=True)
    server = start_server(Api(engine))
    expect = playwright_api.expect
    purge = None
    try:
        page, errors = open_page(browser, server.url)
        page.locator(".nav-item[data-view=folders]").click()
        state = page.get_by_test_id("index-state")
        expect(state).to_have_text("Add a folder to start", timeout=WAIT_MS)
        page.evaluate(RECORD_LABELS)
        page.get_by_test_id("root-path").fill(str(docs))
        page.get_by_test_id("root-add").click()
        bar = page.locator("#index-bar").locator("..")
        for left in (12, 8, 4):  # each batch waits for the test, so every count is shown for certain
            expect(state).to_contain_text(re.compile(rf"understanding {left} more\b"), timeout=WAIT_MS)
            # one bar over both phases: every file is searchable, so it is past half, never empty
            assert int(bar.get_attribute("aria-valuenow")) == round(100 * (24 - left) / 24)
            gate.release()
        expect(state).to_have_text("Up to date", timeout=WAIT_MS)

        labels: list[str] = page.evaluate("window.__labels")
        first_done = labels.index("Up to date")
        assert all("Up to date" not in text for text in labels[:first_done]), labels
        assert all(text == "Up to date" for text in labels[first_done:]), labels
        stats = engine.indexing_stats()
        assert stats.semantic.done == stats.semantic.total == 12

        purge = _hold_the_purge(engine, monkeypatch)
        page.evaluate("window.__labels = []")
        page.get_by_role("button", name=f"Stop indexing {docs}").click()
        page.locator("#dialog-ok").click()
        expect(page.get_by_test_id("root-item")).to_have_count(0, timeout=WAIT_MS)
        expect(state).to_have_text(f"Removing {docs.name}…", timeout=WAIT_MS)
        assert not purge.done.is_set()  # off the list while its rows are still there
        purge.go.set()
        expect(state).to_have_text("Add a folder to start", timeout=WAIT_MS)
        assert purge.done.is_set()
        after: list[str] = page.evaluate("window.__labels")  # "Removing", never "Add a folder" meanwhile
        removing, empty = after.index(f"Removing {docs.name}…"), after.index("Add a folder to start")
        assert removing < empty and set(after[removing:empty]) == {f"Removing {docs.name}…"}, after
        assert errors == []
    finally:
        gate.open()
        if purge is not None:
            purge.go.set()
        server.stop()
        engine.running.close()
