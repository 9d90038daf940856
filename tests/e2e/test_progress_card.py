"""The progress card in a real browser, against `serve` over an Engine whose embedder is slowed down:
it renders only from the progress model, never says "Up to date" while files wait, its count moves as
files land, and Remove takes the folder off the list within a second."""

from __future__ import annotations

from bridge import Api
from bridge.server import start_server
from engine.engine import Engine
from engine.indexing import semantic
from tests.e2e.test_browser_journey import browser, open_page, playwright_api  # noqa: F401 (fixture)
from tests.indexing.helpers import write_docs
from tests.indexing.test_keyword_first import SlowEmbedder

WAIT_MS = 60_000
RECORD_LABELS = """() => {
  window.__labels = [];
  const el = document.querySelector('[data-testid=index-state]');
  const note = () => window.__labels.push(el.textContent);
  note();
  new MutationObserver(note).observe(el, { childList: true, characterData: true, subtree: true });
}"""


def test_the_card_counts_down_as_files_land_never_says_up_to_date_early_and_remove_answers_at_once(
    tmp_path,
    browser,
    monkeypatch,  # noqa: F811
):
    monkeypatch.setattr(semantic, "BATCH_FILES", 2)  # vectors land two files at a time
    docs = write_docs(
        tmp_path / "Docs", {f"note-{i:02d}.txt": f"Note {i} about subject{i}." for i in range(12)}
    )
    engine = Engine(tmp_path / "home", embedder=SlowEmbedder(), background=True)
    server = start_server(Api(engine))
    expect = playwright_api.expect
    try:
        page, errors = open_page(browser, server.url)
        page.locator(".nav-item[data-view=folders]").click()
        expect(page.get_by_test_id("index-state")).to_have_text("Add a folder to start", timeout=WAIT_MS)
        page.evaluate(RECORD_LABELS)
        page.get_by_test_id("root-path").fill(str(docs))
        page.get_by_test_id("root-add").click()
        expect(page.get_by_test_id("index-state")).to_have_text("Up to date", timeout=WAIT_MS)
        labels: list[str] = page.evaluate("window.__labels")
        first_done = next(i for i, text in enumerate(labels) if text == "Up to date")
        busy = [text for text in labels[:first_done] if text not in ("Add a folder to start",)]
        assert all("Up to date" not in text for text in busy)
        assert all(text == "Up to date" for text in labels[first_done:]), labels
        counts = {text.split(" more")[0] for text in busy if "understanding" in text}
        assert len(counts) >= 3, labels  # the count moved as batches landed, not once at the end
        stats = engine.indexing_stats()
        assert stats.semantic.done == stats.semantic.total == 12

        page.get_by_role("button", name=f"Stop indexing {docs}").click()
        page.locator("#dialog-ok").click()
        expect(page.get_by_test_id("root-item")).to_have_count(0, timeout=1_000)
        assert errors == []
    finally:
        server.stop()
        engine.close()
