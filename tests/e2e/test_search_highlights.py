"""Search results in a real browser: the snippet is plain text (no Markdown, no repeated sense) and the
page marks exactly the engine's highlight ranges — whole query terms, stemmed forms included, never a
stop word or a piece of a word. The screenshot is test-artifacts/search-highlights.png."""

from __future__ import annotations

from tests.e2e.test_browser_journey import (
    ARTIFACTS,
    WAIT_MS,
    browser,
    playwright_api,
    search_for,
    search_page,
)

__all__ = ["browser"]  # the fixture, imported for this module's tests


def test_search_snippets_are_plain_text_with_whole_stemmed_terms_marked(tmp_path, browser):
    expect = playwright_api.expect
    docs = tmp_path / "Docs"
    docs.mkdir()
    (docs / "seoul.md").write_text(
        "# Seoul — day 1\n\nThis list categorises the **markets**: Gwangjang market is the oldest one."
    )
    with search_page(browser, tmp_path, docs) as (page, errors):
        search_for(page, "is market")  # keyword hits first, then the fused list
        first = page.get_by_test_id("search-result").first
        expect(first).to_contain_text("seoul.md", timeout=WAIT_MS)
        snippet = first.locator(".result-snippet")
        text = snippet.inner_text()
        assert "#" not in text and "**" not in text and "[markdown]" not in text
        assert text.count("Seoul — day 1") == 1
        assert snippet.locator("mark").all_inner_texts() == ["markets", "market"]
        ARTIFACTS.mkdir(exist_ok=True)
        first.screenshot(path=str(ARTIFACTS / "search-highlights.png"))
        assert errors == []
