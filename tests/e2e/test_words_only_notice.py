"""While meaning search cannot answer, search answers by the query's words and the window says so
(issue 31, item 1): after the vector store was set aside at start (the N1 damage) and while its files are
embedded again, and while the embedding endpoint fails. The screenshots are
test-artifacts/search-words-only-rebuilding.png and search-words-only-endpoint-down.png."""

from __future__ import annotations

import random

from bridge import Api
from bridge.server import start_server
from tests.e2e.test_browser_journey import ARTIFACTS, WAIT_MS, browser, open_page, playwright_api
from tests.indexing.helpers import indexed_sample, make_engine
from tests.indexing.test_endpoint_failures import BREAD, indexed_on_endpoint
from tests.store_damage import QUERY, garble_third, newest_manifest

__all__ = ["browser"]  # the fixture, imported for this module's tests


def _search(browser, engine, query: str, screenshot: str | None = None):
    """Search `query` on the page; (the first result's name, the notice's text or None when hidden)."""
    expect = playwright_api.expect
    server = start_server(Api(engine))
    try:
        page, errors = open_page(browser, server.url)
        page.locator(".nav-item[data-view=search]").click()
        page.get_by_test_id("search-input").fill(query)
        page.get_by_test_id("search-input").press("Enter")
        first = page.get_by_test_id("search-result").first
        expect(first).to_be_visible(timeout=WAIT_MS)
        notice = page.get_by_test_id("search-notice")
        if screenshot:
            ARTIFACTS.mkdir(exist_ok=True)
            page.locator("#view-search").screenshot(path=str(ARTIFACTS / f"{screenshot}.png"))
        assert errors == []
        shown = notice.inner_text() if notice.is_visible() else None  # set before the results are listed
        return first.locator(".result-name").inner_text(), shown
    finally:
        server.stop()


def test_while_the_vectors_are_rebuilt_the_page_says_results_match_words_only(tmp_path, browser):
    _root, engine = indexed_sample(tmp_path, tmp_path / "home")
    engine.running.close()
    garble_third(newest_manifest(tmp_path / "home"), random.Random(0))
    restarted = make_engine(tmp_path / "home")  # sets the vectors aside; nothing is embedded again yet
    try:
        name, notice = _search(browser, restarted, QUERY, "search-words-only-rebuilding")
        assert name.startswith("travel.txt")
        assert notice is not None and "match your words only" in notice and "still being indexed" in notice
        restarted.parts.index.drain()  # every file embedded again: meaning search answers, the notice goes
        assert _search(browser, restarted, QUERY) == (name, None)
    finally:
        restarted.running.close()


def test_while_the_embedding_endpoint_fails_the_page_says_meaning_search_is_unavailable(
    tmp_path, sensetree_home, browser
):
    with indexed_on_endpoint(tmp_path, sensetree_home) as (_root, endpoint, engine):
        endpoint.mode = "500"
        name, notice = _search(browser, engine, "sourdough flour", "search-words-only-endpoint-down")
    assert name.startswith(BREAD.rsplit("/", 1)[1])
    assert notice is not None and notice.startswith("Meaning search is unavailable right now")
